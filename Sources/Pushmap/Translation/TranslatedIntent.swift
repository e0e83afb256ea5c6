internal import LuaHost
@_spi(Engine) internal import PushmapJSON

/// The intent a translation's payloads come from, for a check that reads one of its fields again:
/// the push type of an APNS payload checked without its headers. Read only when a check asks,
/// and held as the argument itself, so a translation allocates nothing for it.
struct TranslatedIntent: Sendable {
    let argument: LuaArgument

    /// `ios.pushType`, when it is a string.
    var pushType: String? {
        switch argument {
        case .value(let value):
            return value["ios"]?["pushType"]?.stringValue
        case .tape(let tape):
            var reader = tape.reader
            return reader.value()["ios"]?["pushType"]?.stringValue
        case .reference:
            return nil
        }
    }
}
