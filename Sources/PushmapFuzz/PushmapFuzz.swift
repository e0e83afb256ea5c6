internal import CFuzzDriver
internal import PushmapFuzzing
#if canImport(Glibc)
internal import Glibc
#endif

/// `pushmap-fuzz TARGET [FILE|DIR ...]`: replays inputs through a fuzz target and exits 1 on
/// any finding. Built by `scripts/fuzz` with `-D PUSHMAP_LIBFUZZER`, it hands the target to
/// libFuzzer instead, with the remaining arguments as libFuzzer's.
@main
struct PushmapFuzz {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2, let target = try? FuzzTarget.named(arguments[1]) else {
            let names = ((try? FuzzTarget.all()) ?? []).map { "  \($0.name): \($0.summary)" }.joined(separator: "\n")
            print("usage: pushmap-fuzz TARGET [FILE|DIR ...]\ntargets:\n\(names)")
            exit(64)
        }
        #if PUSHMAP_LIBFUZZER
        Driver.target = target
        var argc = CInt(arguments.count - 1)
        // libFuzzer reads argv[0] as the program and the rest as its own flags and corpus folders.
        var strings = [arguments[0]] + arguments.dropFirst(2)
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.indices.map { strdup(strings[$0]) } + [nil]
        strings.removeAll()
        let status = pointers.withUnsafeMutableBufferPointer { buffer -> CInt in
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = buffer.baseAddress
            return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
                Driver.runOne(data, size)
            }
        }
        exit(status)
        #else
        var failures = 0
        var count = 0
        for path in arguments.dropFirst(2) {
            for file in Inputs.files(at: path) {
                guard let bytes = Inputs.read(file) else {
                    print("\(file): cannot read")
                    failures += 1
                    continue
                }
                count += 1
                if let finding = target.run(bytes) {
                    print("\(file): \(finding)")
                    failures += 1
                }
            }
        }
        print("pushmap-fuzz \(target.name): \(count) inputs, \(failures) findings")
        exit(failures == 0 ? 0 : 1)
        #endif
    }
}

#if PUSHMAP_LIBFUZZER
/// The target libFuzzer's C callback runs; set once before the driver starts.
enum Driver {
    nonisolated(unsafe) static var target: FuzzTarget?

    static func runOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        guard let target else { return 0 }
        let input = UnsafeBufferPointer(start: data, count: size)
        if let finding = target.run(input) {
            // A broken promise must stop libFuzzer so that it saves the input as a crash.
            let line = Array("pushmap-fuzz \(target.name): FINDING: \(finding)\n".utf8)
            _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            abort()
        }
        return 0
    }
}
#endif

/// Files to replay: a file itself, or every regular file in a folder, sorted.
enum Inputs {
    static func files(at path: String) -> [String] {
        var status = stat()
        guard stat(path, &status) == 0 else { return [path] }
        guard (status.st_mode & S_IFMT) == S_IFDIR, let directory = opendir(path) else { return [path] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(path + "/" + name) }
        }
        return names.sorted()
    }

    static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count > 0 { bytes.append(contentsOf: buffer[0..<count]) }
            if count < buffer.count { break }
        }
        return ferror(file) == 0 ? bytes : nil
    }
}
