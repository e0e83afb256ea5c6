internal import HTTPTypes

extension HTTPFields {
    /// The value of the first field named `name`, or nil.
    ///
    /// Not `self[name]`: that getter joins every value of the name through generic code the
    /// compiler does not specialize here, about 4,500 instructions a call where this loop takes a
    /// few hundred (callgrind, `POST /v1/translate`). The fields read this way are ones a request
    /// or an answer has once.
    func first(_ name: HTTPField.Name) -> String? {
        for index in indices where self[index].name == name { return self[index].value }
        return nil
    }

    /// Gives the first field named `name` the value `value`, or adds the field when there is none;
    /// for the same reason as ``first(_:)``, where `self[name] = value` also removes the others.
    mutating func setFirst(_ name: HTTPField.Name, to value: String) {
        for index in indices where self[index].name == name {
            self[index] = HTTPField(name: name, value: value)
            return
        }
        append(HTTPField(name: name, value: value))
    }
}
