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
public final class LuaStatePool<Element: AnyObject>: @unchecked Sendable {
    // @unchecked: elements are not Sendable, but each is handed to one borrower at a time and
    // moves between threads only through the lock.
    private let idle = Locked<[(element: Element, thread: pthread_t)]>([])
    private let make: @Sendable () throws -> Element
    /// How many idle elements are kept.
    public let capacity: Int

    /// - Parameters:
    ///   - capacity: idle elements kept for reuse (the cores, typically).
    ///   - make: creates a new element when none is idle.
    public init(capacity: Int, make: @escaping @Sendable () throws -> Element) {
        self.capacity = max(1, capacity)
        self.make = make
    }

    /// Runs `body` with an element no one else is using.
    public func withElement<Result>(_ body: (Element) throws -> Result) throws -> Result {
        let element = try take()
        defer { give(element) }
        return try body(element)
    }

    /// Drops every idle element, so the next borrowers make new ones.
    public func drain() {
        idle.withLock { $0.removeAll() }
    }

    private func take() throws -> Element {
        let thread = pthread_self()
        let reused = idle.withLock { elements -> Element? in
            if let index = elements.lastIndex(where: { pthread_equal($0.thread, thread) != 0 }) {
                return elements.remove(at: index).element
            }
            return elements.popLast()?.element
        }
        if let reused { return reused }
        return try make()
    }

    private func give(_ element: Element) {
        let thread = pthread_self()
        idle.withLock { elements in
            if elements.count < capacity { elements.append((element, thread)) }
        }
    }
}
