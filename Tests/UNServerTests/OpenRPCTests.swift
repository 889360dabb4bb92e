import Foundation
import JSONRPC
import UNModel
import UNProtocol
import XCTest

@testable import UNServer

/// The OpenRPC document must describe the daemon as built: the same methods, the same
/// params, the same option names, and the compiled-in copy must be the file's.
final class OpenRPCTests: XCTestCase {
  var document: JSONValue { OpenRPCDocument.value }

  var documentedMethods: [JSONValue] { document["methods"]?.arrayValue ?? [] }

  func documentedParams(_ method: JSONValue) -> [String] {
    (method["params"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
  }

  // MARK: methods

  func testMethodNamesMatchMethodTable() {
    let documented = documentedMethods.compactMap { $0["name"]?.stringValue }
    XCTAssertEqual(documented.count, Set(documented).count, "a method is documented twice: \(documented)")
    let table = Set(MethodTable.all.map { $0.name })
    let missing = table.subtracting(documented).sorted()
    let extra = Set(documented).subtracting(table).sorted()
    XCTAssertTrue(
      missing.isEmpty && extra.isEmpty,
      "proto-docs/openrpc.json methods differ from MethodTable.all: missing \(missing), extra \(extra)")
  }

  func testEveryMethodIsByNameWithResultAndErrors() {
    for method in documentedMethods {
      let name = method["name"]?.stringValue ?? "?"
      XCTAssertEqual(method["paramStructure"], .string("by-name"), name)
      XCTAssertNotNil(method["result"]?["schema"], "\(name) has no result schema")
      XCTAssertFalse((method["errors"]?.arrayValue ?? []).isEmpty, "\(name) lists no errors")
      for param in method["params"]?.arrayValue ?? [] {
        XCTAssertNotNil(param["schema"], "\(name).\(param["name"]?.stringValue ?? "?") has no schema")
        XCTAssertNotNil(param["required"], "\(name).\(param["name"]?.stringValue ?? "?") does not say if required")
      }
    }
  }

  /// OpenRPC: "All optional params MUST be positioned after all required params".  Params
  /// are read by name, so the order is the document's form only, not the wire's.
  func testOptionalParamsFollowRequiredOnes() {
    for method in documentedMethods {
      let required = (method["params"]?.arrayValue ?? []).map { $0["required"] == .bool(true) }
      XCTAssertEqual(
        required, required.sorted { $0 && !$1 },
        "\(method["name"]?.stringValue ?? "?"): optional params before required ones: \(documentedParams(method))")
    }
  }

  /// Generators name a type after its schema's title; without one they invent names.
  func testEveryComponentSchemaHasATitle() {
    guard case .object(let schemas)? = document["components"]?["schemas"] else { return XCTFail("no schemas") }
    let untitled = schemas.filter { $0.value["title"]?.stringValue == nil }.map(\.name)
    XCTAssertEqual(untitled, [], "component schemas without a title")
  }

  /// The meta-schema's Error Object has code, message and data only.
  func testErrorObjectsHaveOnlyErrorMembers() {
    guard case .object(let errors)? = document["components"]?["errors"] else { return XCTFail("no errors") }
    for error in errors {
      guard case .object(let members) = error.value else { continue }
      let extra = members.map(\.name).filter { !["code", "message", "data"].contains($0) }
      XCTAssertEqual(extra, [], "components.errors.\(error.name) has members an Error Object does not allow")
    }
  }

  // MARK: the compiled-in copy

  func testCompiledDocumentIsTheFile() throws {
    let url = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("proto-docs/openrpc.json")
    let bytes = Array(try Data(contentsOf: url))
    let file = try JSONParser.parse(bytes)
    XCTAssertNotEqual(OpenRPCDocument.value, .null, "OpenRPCDocument.text does not parse")
    XCTAssertEqual(
      file, OpenRPCDocument.value,
      "Sources/UNServer/OpenRPCDocument.swift is stale: run `make openrpc` after editing proto-docs/openrpc.json")
  }

  func testDiscoverAnswersWithTheDocument() throws {
    let answer = call("rpc.discover", nil)
    guard case .result(_, let value)? = answer else {
      return XCTFail("rpc.discover failed: \(String(describing: answer))")
    }
    XCTAssertEqual(value, OpenRPCDocument.value)
  }

  // MARK: params

  /// Every documented param name is accepted by its handler (no "unknown field"), and
  /// every other name (the params of the other methods, and a made-up one) is refused
  /// with -32602 naming it.  Values are null, so only the names are tested.
  func testDocumentedParamsAreExactlyTheAcceptedOnes() {
    var universe: Set<String> = ["zzUndocumented", "appId ", "App", "params"]
    for method in documentedMethods { universe.formUnion(documentedParams(method)) }
    for method in documentedMethods {
      guard let name = method["name"]?.stringValue else { continue }
      let documented = Set(documentedParams(method))
      for field in universe.sorted() {
        let refused = unknownField(name, field)
        if documented.contains(field) {
          XCTAssertFalse(refused, "\(name): documented param '\(field)' is refused as an unknown field")
        } else {
          XCTAssertTrue(refused, "\(name): undocumented param '\(field)' is accepted: document it or refuse it")
        }
      }
    }
  }

  func testAppScopedMethodsDocumentApp() {
    for method in documentedMethods {
      guard let name = method["name"]?.stringValue else { continue }
      let hasApp = documentedParams(method).contains("app")
      let errors = (method["errors"]?.arrayValue ?? []).compactMap { $0["$ref"]?.stringValue }
      // waitFor's app is optional without a default; releaseApp's is required.
      XCTAssertEqual(
        hasApp && name != "waitFor" && name != "releaseApp", errors.contains("#/components/errors/NoApp"),
        "\(name): an app-scoped method (app param) lists NoApp, and only those")
    }
  }

  // MARK: names and codes

  func testOptionNamesMatchTheModel() {
    let schemas = document["components"]?["schemas"]
    func names(_ schema: String) -> [String] {
      (schemas?[schema]?["enum"]?.arrayValue ?? []).compactMap(\.stringValue)
    }
    XCTAssertEqual(names("ActionOption"), ActionOption.allCases.map(\.rawValue))
    XCTAssertEqual(names("CategoryOption"), CategoryOption.allCases.map(\.rawValue))
    XCTAssertEqual(names("InterruptionLevel"), InterruptionLevel.allCases.map(\.rawValue))
    XCTAssertEqual(names("AuthorizationStatus"), AuthorizationStatus.allCases.map(\.rawValue))
    XCTAssertEqual(names("AuthorizationOption"), AuthorizationOption.allCases.map(\.rawValue))
    XCTAssertEqual(names("PresentationOption"), PresentationOption.allCases.map(\.rawValue))
    XCTAssertEqual(names("Surface"), Surface.allCases.map(\.rawValue))
    XCTAssertEqual(names("Role"), Role.allCases.map(\.rawValue))
    XCTAssertEqual(
      names("EventType"), Event.Kind.allCases.map(\.rawValue) + Server.DaemonEvent.allCases.map(\.rawValue))
  }

  func testContentAndCategoryFieldsMatchTheDecoder() {
    let schemas = document["components"]?["schemas"]
    func fields(_ schema: String) -> [String] {
      guard case .object(let members)? = schemas?[schema]?["properties"] else { return [] }
      return members.map(\.name)
    }
    XCTAssertEqual(fields("Content"), ContentShape.names)
    XCTAssertEqual(fields("Category"), CategoryShape.names)
    XCTAssertEqual(fields("Action"), ActionShape.names)
  }

  func testApplicationErrorCodes() {
    let errors = document["components"]?["errors"]
    let expected: [(String, ErrorCode, String)] = [
      ("NoApp", .noApp, "noApp"), ("AccessDenied", .accessDenied, "accessDenied"),
      ("NotFound", .notFound, "notFound"), ("ActionUnavailable", .actionUnavailable, "actionUnavailable"),
      ("AuthenticationRequired", .authenticationRequired, "authenticationRequired"),
      ("LimitExceeded", .limitExceeded, "limitExceeded"), ("MessageTooLarge", .limitExceeded, "limitExceeded"),
      ("ClockNotManual", .clockNotManual, "clockNotManual"), ("InvalidTrigger", .invalidTrigger, "invalidTrigger"),
      ("InvalidPayload", .invalidPayload, "invalidPayload"),
    ]
    for (name, code, reason) in expected {
      XCTAssertEqual(errors?[name]?["code"], .int(code.rawValue), name)
      XCTAssertEqual(errors?[name]?["data"]?["reason"], .string(reason), name)
    }
    XCTAssertEqual(errors?["InvalidParams"]?["code"], .int(ErrorCode.invalidParams.rawValue))
    XCTAssertEqual(errors?["NoApp"]?["message"], ErrorMapping.rpcError(.noApp).message.jsonString)
    XCTAssertEqual(errors?["ClockNotManual"]?["message"], ErrorMapping.rpcError(.clockNotManual).message.jsonString)
  }

  // MARK: helpers

  /// Runs one request through a fresh dispatcher (manual clock, no hello).
  func call(_ method: String, _ params: JSONValue?) -> Dispatcher.Answer? {
    let center = Center(clock: ManualClock(Instant(rfc3339: "2026-01-01T08:00:00Z")!))
    let dispatcher = Dispatcher(
      center: center, configuration: ServerConfiguration(), log: Log(level: .error), metrics: Metrics())
    let request = Request(id: .number("1"), method: method, params: params)
    return dispatcher.handle(.request(request), from: ClientState(id: 1, peer: nil))
  }

  /// Whether `method` refuses a params object holding `field` (null) as an unknown field.
  func unknownField(_ method: String, _ field: String) -> Bool {
    guard case .error(_, let error)? = call(method, .object([JSONMember(field, .null)])) else { return false }
    return error.code == .invalidParams && error.data?["field"] == .string(field)
      && error.data?["problem"] == .string("unknown field")
      && error.message == "Invalid params: \(field): unknown field"
  }
}

extension String {
  fileprivate var jsonString: JSONValue { .string(self) }
}
