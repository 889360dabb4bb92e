import JSONRPC
import UNCenterClient

extension RPCConnection {
  /// The result of a call that must succeed; the daemon's error, named after the
  /// method, fails the test otherwise.
  @discardableResult
  public func ok(_ method: String, _ params: JSONValue? = nil) throws -> JSONValue {
    switch try call(method, params) {
    case .success(let v): return v
    case .failure(let e): throw HarnessError("\(method) failed: \(e.code.rawValue) \(e.message)")
    }
  }
}

extension DaemonProcess {
  /// A connection that said `hello` as the user (the person holding the phone), for `app`.
  public func user(app: String) throws -> RPCConnection {
    let c = try connect()
    try c.ok("hello", .object(["role": .string("user"), "appId": .string(app)]))
    return c
  }
}
