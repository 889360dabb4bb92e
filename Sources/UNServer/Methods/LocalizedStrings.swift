import JSONRPC
import UNModel
import UNProtocol

/// `registerLocalizedStrings`: the app's `Localizable.strings` (key → format), used to
/// resolve the `loc-key`s of its remote notifications.  Replaces the whole table.
enum RegisterLocalizedStrings: Method {
  static let name = "registerLocalizedStrings"
  static let kind = MethodKind.change

  /// Far more than any app's notification strings, and bounded so one call cannot grow
  /// the daemon's memory without limit (the message size bounds it too).
  static let maxStrings = 10_000

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "strings"])
    let app = try call.app(p)
    guard let value = p.value("strings") else { throw RPCError.invalidParams(field: "strings", "required") }
    guard case .object(let members) = value else {
      throw RPCError.invalidParams(field: "strings", "expected an object, got \(value.typeName)")
    }
    guard members.count <= maxStrings else {
      throw ErrorMapping.rpcError(.limitExceeded(limit: "maxLocalizedStrings", value: maxStrings))
    }
    var table: [ExactKey: String] = [:]
    for m in members {
      // A key is an identifier (`loc-key` names it).
      try Params.refuseNUL(m.name, field: "strings")
      guard case .string(let format) = m.value else {
        throw RPCError.invalidParams(field: "strings.\(m.name)", "expected a string, got \(m.value.typeName)")
      }
      guard table.updateValue(format, forKey: ExactKey(m.name)) == nil else {
        throw RPCError.invalidParams(field: "strings.\(m.name)", "duplicate key")
      }
    }
    return .object(["count": .int(call.center.registerLocalizedStrings(app: app, table))])
  }
}

/// `getLocalizedStrings`: the app's table, keys sorted.
enum GetLocalizedStrings: Method {
  static let name = "getLocalizedStrings"
  static let kind = MethodKind.read

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app"])
    let app = try call.app(p)
    return .object(["strings": StateCodec.strings(call.center.localizedStrings(app: app))])
  }
}
