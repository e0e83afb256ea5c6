#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

extension TemplateScripts {
    /// The variable that gives script folders once for every command and the server.
    package static let environmentVariable = "PUSHMAP_SCRIPTS"

    /// The folders of `PUSHMAP_SCRIPTS`, separated by ':' (empty parts skipped), in the order
    /// given; they go beneath any `--scripts` folder, so a team need not repeat the option.
    @_spi(Tools) public static var environmentFolders: [String] {
        guard let value = getenv(environmentVariable) else { return [] }
        return String(cString: value).split(separator: ":").map(String.init)
    }
}
