import JSONRPC
import UNModel

/// `completePresentation`: the app's `willPresent` answer for a `present` that carried a
/// `presentationId` (its `hello` said `presentationDecision: "delegate"`).
enum CompletePresentation: Method {
  static let name = "completePresentation"
  static let kind = MethodKind.completion

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: ["app", "presentationId", "options"])
    let app = try call.app(p)
    let id = try p.requiredIdentifier("presentationId")
    guard let options = try p.enumArray("options", PresentationOption.self) else {
      throw RPCError.invalidParams(field: "options", "required")
    }
    try call.model { () throws(UNError) in
      try call.center.completePresentation(app: app, presentationId: id, options: options)
    }
    return .object([])
  }
}
