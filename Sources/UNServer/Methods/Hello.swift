import JSONRPC
import UNModel

/// `hello`: says who this connection is (role, app, presentation options, surface).
enum Hello: Method {
  static let name = "hello"
  static let kind = MethodKind.session

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: [
      "appId", "role", "foreground", "presentation", "presentationDecision", "surface", "categories",
      "userInteractionEnabled",
      "defaultContentHidden",
    ])
    let role = try p.enumValue("role", Role.self) ?? .app
    let appId = try p.identifier("appId")
    if let appId, appId.isEmpty { throw RPCError.invalidParams(field: "appId", "must be a non-empty string") }
    if appId == nil, role == .app || role == .serviceExtension || role == .contentExtension {
      throw RPCError.invalidParams(field: "appId", "required for role '\(role.rawValue)'")
    }
    var info = SessionInfo(
      role: role, appId: appId,
      presentation: try p.enumArray("presentation", PresentationOption.self) ?? PresentationOption.allCases,
      surface: try p.enumValue("surface", Surface.self) ?? .phone)
    if let decision = try p.enumValue("presentationDecision", PresentationDecision.self) {
      guard role == .app else { throw RPCError.invalidParams(field: "presentationDecision", "only for role 'app'") }
      info.presentationDecision = decision
    }
    if role == .contentExtension {
      info.contentExtension = ContentExtensionInfo(
        categories: try p.identifierArray("categories", nonEmpty: true) ?? [],
        userInteractionEnabled: try p.bool("userInteractionEnabled") ?? false,
        defaultContentHidden: try p.bool("defaultContentHidden") ?? false)
    } else {
      for field in ["categories", "userInteractionEnabled", "defaultContentHidden"] where p.has(field) {
        throw RPCError.invalidParams(field: field, "only for role 'contentExtension'")
      }
    }
    let foreground = try p.bool("foreground") ?? true
    if let appId { try call.authorize(appId) }
    call.client.hello = info
    let queued = call.center.attach(call.client.id, info, foreground: foreground)
    return .object([
      "server": .string("uncenterd"),
      "version": .string(ServerConfiguration.version),
      "protocol": .int(1),
      "clock": .object([
        "mode": .string(call.center.clock.isManual ? "manual" : "real"),
        "now": ModelEncoding.date(call.center.clock.now),
      ]),
      "queuedResponses": .int(queued),
    ])
  }
}
