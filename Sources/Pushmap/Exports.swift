// The JSON values a translation takes and gives (JSONValue, JSONObject, JSONWriter, JSONParser)
// are part of this library's API: a service that imports Pushmap has them without a second import.
@_exported public import PushmapJSON
