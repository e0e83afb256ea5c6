#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Lends out objects that own a Lua state (a ``LuaState`` or a wrapper holding one and its
/// references), so that no state is used by two threads at once.
///
/// A borrower takes an idle element or makes a new one; on return the element goes back to the
/// idle list, which keeps at most `capacity` of them. It never blocks: the number of elements
/// alive follows the number of concurrent borrowers.
///
/// A thread gets back the element it used last when that one is idle: a state's memory (its
/// heap, its free blocks, the string cache) then stays in that core's cache instead of moving
/// to another core at every call.
package final class LuaStatePool<Element: AnyObject>: @unchecked Sendable {
    // @unchecked: elements are not Sendable, but each is handed to one borrower at a time and
    // moves between threads only through the lock.
    @usableFromInline let idle: IdleElements
    @usableFromInline let make: @Sendable () throws -> Element
    @usableFromInline let reusable: @Sendable (Element) -> Bool

    /// How many idle elements are kept.
    package var capacity: Int { idle.capacity }

    /// - Parameters:
    ///   - capacity: idle elements kept for reuse (the cores, typically).
    ///   - reusable: whether a returned element may be lent again; one that may not is dropped.
    ///   - make: creates a new element when none is idle.
    package init(
        capacity: Int, reusable: @escaping @Sendable (Element) -> Bool = { _ in true }, make: @escaping @Sendable () throws -> Element
    ) {
        idle = IdleElements(capacity: max(1, capacity))
        self.reusable = reusable
        self.make = make
    }

    /// Runs `body` with an element no one else is using.
    @inlinable
    package func withElement<Result>(_ body: (Element) throws -> Result) throws -> Result {
        // The idle list holds plain objects: its code is not generic, so a borrow looks up no
        // type metadata at run time.
        let element: Element
        if let reused = idle.take() {
            element = unsafeDowncast(reused, to: Element.self)
        } else {
            element = try make()
        }
        defer { if reusable(element) { idle.give(element) } }
        return try body(element)
    }

    /// Drops every idle element, so the next borrowers make new ones.
    package func drain() {
        idle.drain()
    }
}

/// A pool's idle elements with the thread that used each last.
@usableFromInline
final class IdleElements: @unchecked Sendable {
    // @unchecked: the lists are only touched with the lock held.
    private let lock = Locked<(elements: [AnyObject], threads: [pthread_t])>(([], []))
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The element this thread returned last when it is idle, else the last one returned.
    @usableFromInline
    func take() -> AnyObject? {
        let thread = pthread_self()
        return lock.withLock { idle -> AnyObject? in
            if let index = idle.threads.lastIndex(where: { pthread_equal($0, thread) != 0 }) {
                idle.threads.remove(at: index)
                return idle.elements.remove(at: index)
            }
            _ = idle.threads.popLast()
            return idle.elements.popLast()
        }
    }

    @usableFromInline
    func give(_ element: AnyObject) {
        let thread = pthread_self()
        lock.withLock { idle in
            if idle.elements.count < capacity {
                idle.elements.append(element)
                idle.threads.append(thread)
            }
        }
    }

    func drain() {
        lock.withLock { idle in
            idle.elements.removeAll()
            idle.threads.removeAll()
        }
    }
}
