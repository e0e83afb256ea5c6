package import PushmapJSON

/// A Lua value kept alive in one state's registry: a compiled chunk, a function, a table.
///
/// A reference belongs to the ``LuaState`` that made it and means nothing in another one.
package struct LuaReference: Hashable, Sendable {
    let id: Int32
}

/// One argument of a call: a JSON-like value, or a value already held by the state.
package enum LuaArgument: Sendable {
    case value(JSONValue)
    case reference(LuaReference)
    /// A value parsed straight into the host's tape form (``JSONTape``): pushed as it is, with
    /// no ``JSONValue`` made on the way.
    case tape(JSONTape)
}
