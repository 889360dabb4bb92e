import JSONRPC
import UNModel
import UNProtocol

/// `registerCategories`: replaces the app's whole category set (rule 1).
enum RegisterCategories: Method {
  static let name = "registerCategories"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "categories"])
    let app = try call.app(p)
    guard let list = try p.array("categories") else {
      throw RPCError.invalidParams(field: "categories", "required")
    }
    let categories = try CategoryShape.decode(list, path: "categories")
    let count = try call.model { () throws(UNError) in try call.center.registerCategories(app: app, categories) }
    return .object(["count": .int(count)])
  }
}

/// `getCategories`: the app's registered set, in registration order.
enum GetCategories: Method {
  static let name = "getCategories"
  static let kind = MethodKind.read

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app"])
    let app = try call.app(p)
    var o: [UInt8] = []
    WireBytes.key(#"{"categories":"#, &o)
    CategoryShape.encode(call.center.categories(app: app), &o)
    o.append(UInt8(ascii: "}"))
    return .bytes(o)
  }
}
