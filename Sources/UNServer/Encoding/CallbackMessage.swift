import JSONRPC
import UNModel
import UNProtocol

/// A callback as the JSON-RPC notification the server writes to a connection,
/// `{"jsonrpc":"2.0","method":...,"params":{...}}`, straight into bytes through the
/// shapes' encoders.
enum CallbackMessage {
  static func method(of c: Callback) -> String {
    switch c {
    case .present, .presentForDecision: "present"
    case .receive: "receive"
    case .remote: "remote"
    case .modifyContent: "modifyContent"
    case .serviceTimeWillExpire: "serviceTimeWillExpire"
    case .didReceive: "didReceive"
    case .didReceiveResponse: "didReceiveResponse"
    case .interaction: "interaction"
    }
  }

  static func append(_ c: Callback, to o: inout [UInt8]) {
    WireBytes.member(#"{"jsonrpc":"2.0","method":"#, method(of: c), &o)
    WireBytes.key(#","params":"#, &o)
    params(c, &o)
    o.append(UInt8(ascii: "}"))
  }

  private static func params(_ c: Callback, _ o: inout [UInt8]) {
    switch c {
    case .present(let n, let actions, let presentation):
      present(n, actions, presentation, &o)
      o.append(UInt8(ascii: "}"))
    case .presentForDecision(let n, let actions, let presentation, let presentationId):
      present(n, actions, presentation, &o)
      WireBytes.member(#","presentationId":"#, presentationId, &o)
      o.append(UInt8(ascii: "}"))
    case .receive(let r, let deadline):
      WireBytes.key(#"{"response":"#, &o)
      NotificationShape.encode(r, &o)
      if let d = deadline {
        WireBytes.key(#","deadline":"#, &o)
        WireBytes.date(d, &o)
      }
      o.append(UInt8(ascii: "}"))
    case .remote(let payload):
      WireBytes.key(#"{"payload":"#, &o)
      // Our own writer's compact text (`RemotePayload.map`), so it is spliced as is.
      o.append(contentsOf: payload.bytes)
      o.append(UInt8(ascii: "}"))
    case .modifyContent(let requestId, let r, let deadline):
      WireBytes.member(#"{"requestId":"#, requestId, &o)
      WireBytes.key(#","request":"#, &o)
      RequestShape.encode(r, &o)
      WireBytes.key(#","deadline":"#, &o)
      WireBytes.date(deadline, &o)
      o.append(UInt8(ascii: "}"))
    case .serviceTimeWillExpire(let requestId):
      WireBytes.member(#"{"requestId":"#, requestId, &o)
      o.append(UInt8(ascii: "}"))
    case .didReceive(let n):
      WireBytes.key(#"{"notification":"#, &o)
      NotificationShape.encode(n, &o)
      o.append(UInt8(ascii: "}"))
    case .didReceiveResponse(let responseId, let r):
      WireBytes.member(#"{"responseId":"#, responseId, &o)
      WireBytes.key(#","response":"#, &o)
      NotificationShape.encode(r, &o)
      o.append(UInt8(ascii: "}"))
    case .interaction(let identifier, let control, let value):
      WireBytes.member(#"{"identifier":"#, identifier, &o)
      WireBytes.member(#","control":"#, control, &o)
      WireBytes.key(#","value":"#, &o)
      // Our own writer's compact text (`Interact`); empty would be no value.
      if value.bytes.isEmpty { WireBytes.key("null", &o) } else { o.append(contentsOf: value.bytes) }
      o.append(UInt8(ascii: "}"))
    }
  }

  /// `{"notification":...,"presentation":[...]`, left open for `presentationId`.
  private static func present(
    _ n: DeliveredNotification, _ actions: [Action], _ presentation: [PresentationOption], _ o: inout [UInt8]
  ) {
    WireBytes.key(#"{"notification":"#, &o)
    NotificationShape.encode(n, actions: actions, &o)
    WireBytes.key(#","presentation":"#, &o)
    WireBytes.array(presentation, &o) { WireBytes.string($0.rawValue, &$1) }
  }
}
