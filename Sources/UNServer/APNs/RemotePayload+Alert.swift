import JSONRPC
import UNModel
import UNProtocol

extension RemotePayload {
  /// The content fields that an `aps.alert` dictionary fills, named in its OpenRPC
  /// description (`DescribedSchemas`).
  static let alertSchema = DescribedSchema(
    properties: nil,
    fieldList: ["title", "subtitle", "body", "launchImageName", "summaryArgument", "summaryArgumentCount"].joined(
      separator: ", "))

  /// `aps.alert`: a string (the body) or a dictionary.  Its `loc-key` family is returned
  /// for the center to resolve with the app's strings at delivery; a `title` or `body`
  /// that is not a string (a Live Activity's `{loc-key, loc-args}` dictionary) is
  /// ignored with a warning, as iOS ignores it.
  static func alert(_ aps: JSONValue, into c: inout Content, _ r: inout Reader) -> LocalizedAlert? {
    switch aps["alert"] {
    case nil, .null?:
      return nil
    case .string(let body)?:
      c.body = body
      return nil
    case .object?:
      let alert = aps["alert"]!
      c.title = r.string(alert, "title", in: "aps.alert") ?? ""
      c.subtitle = r.string(alert, "subtitle", in: "aps.alert") ?? ""
      c.body = r.string(alert, "body", in: "aps.alert") ?? ""
      c.launchImageName = r.string(alert, "launch-image", in: "aps.alert") ?? ""
      if let a = r.string(alert, "summary-arg", in: "aps.alert") { c.summaryArgument = a }
      if let n = alert["summary-arg-count"], n != .null {
        if let count = n.intValue, count >= 1 {
          c.summaryArgumentCount = count
        } else {
          r.ignore("aps.alert.summary-arg-count", expected: "an integer >= 1", got: n)
        }
      }
      var loc = LocalizedAlert()
      func pair(_ prefix: String) -> (key: String, args: [String])? {
        guard let key = r.string(alert, prefix + "loc-key", in: "aps.alert") else {
          if alert[prefix + "loc-args"] != nil, alert[prefix + "loc-args"] != .null {
            r.warnings.append("aps.alert.\(prefix)loc-args: no \(prefix)loc-key to format them with; ignored")
          }
          return nil
        }
        return (key, r.arguments(alert, prefix + "loc-args", in: "aps.alert"))
      }
      loc.title = pair("title-")
      loc.subtitle = pair("subtitle-")
      loc.body = pair("")
      return loc.isEmpty ? nil : loc
    case let other?:
      r.ignore("aps.alert", expected: "a string or a dictionary", got: other)
      return nil
    }
  }
}
