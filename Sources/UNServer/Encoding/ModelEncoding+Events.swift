import JSONRPC
import UNModel

/// The filter of a `waitFor`: a subset of an event's fields.
typealias JSONValueFilter = JSONValue

extension ModelEncoding {
  /// `{type, app, date, seq, ...fields}`: the `event` callback's params.
  static func event(_ e: Event) -> JSONValue {
    var m: [JSONMember] = [
      JSONMember("type", .string(e.kind.rawValue)), JSONMember("app", .string(e.app)),
      JSONMember("date", date(e.date)), JSONMember("seq", .int(Int(e.sequence))),
    ]
    for (name, value) in e.fields {
      let v: JSONValue =
        switch value {
        case .string(let s): .string(s)
        case .int(let i): .int(i)
        case .bool(let b): .bool(b)
        case .strings(let list): .array(list.map { .string($0) })
        case .date(let d): date(d)
        }
      m.append(JSONMember(name, v))
    }
    return .object(m)
  }

  static func settings(_ s: NotificationSettings) -> JSONValue {
    var m = [JSONMember("authorizationStatus", .string(s.authorizationStatus.rawValue))]
    for (name, value) in s.features {
      m.append(JSONMember(name, value == "true" ? .bool(true) : value == "false" ? .bool(false) : .string(value)))
    }
    return .object(m)
  }
}
