import JSONRPC
import UNModel

/// `expand`: the user's long press on a delivered notification.
enum Expand: Method {
  static let name = "expand"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "identifier"])
    let app = try call.app(p)
    let id = try p.requiredIdentifier("identifier")
    let shown = try call.model { () throws(UNError) in try call.center.expand(app: app, identifier: id) }
    return .object(["expanded": .bool(true), "extension": .bool(shown)])
  }
}

/// `collapse`: the expanded view is closed.
enum Collapse: Method {
  static let name = "collapse"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "identifier"])
    let app = try call.app(p)
    let id = try p.requiredIdentifier("identifier")
    try call.model { () throws(UNError) in try call.center.collapse(app: app, identifier: id) }
    return .object(["expanded": .bool(false)])
  }
}

/// `interact`: a button or segmented control in the content extension's custom view.
enum Interact: Method {
  static let name = "interact"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "identifier", "control", "value"])
    let app = try call.app(p)
    let id = try p.requiredIdentifier("identifier")
    let control = try p.requiredIdentifier("control")
    let value = JSONText(bytes: (p.value("value") ?? .null).encoded())
    try call.model { () throws(UNError) in
      try call.center.interact(app: app, identifier: id, control: control, value: value)
    }
    return .object(["delivered": .bool(true)])
  }
}

/// `completeExtensionResponse`: the content extension's answer to `didReceiveResponse`.
enum CompleteExtensionResponse: Method {
  static let name = "completeExtensionResponse"
  static let kind = MethodKind.completion

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["responseId", "option"])
    let id = try p.requiredIdentifier("responseId")
    guard let option = try p.enumValue("option", ExtensionResponseOption.self) else {
      throw RPCError.invalidParams(field: "option", "required")
    }
    let r = try call.model { () throws(UNError) in
      try call.center.completeExtensionResponse(session: call.client.id, responseId: id, option: option)
    }
    return .object(["delivered": .bool(r.delivered), "queued": .bool(r.queued)])
  }
}
