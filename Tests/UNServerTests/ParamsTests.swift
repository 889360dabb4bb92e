import JSONRPC
import TestSupport
import UNModel
import UNProtocol
import XCTest

@testable import UNServer

/// The RPCError thrown by `body`, or nil.
private func thrown<T>(_ body: () throws(RPCError) -> T) -> RPCError? {
  do {
    _ = try body()
    return nil
  } catch {
    return error
  }
}

final class ParamsTests: XCTestCase {
  private func assertInvalidParams(
    _ error: RPCError?, field: String, _ problem: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    guard let error else { return XCTFail("no error", file: file, line: line) }
    XCTAssertEqual(error.code, .invalidParams, file: file, line: line)
    XCTAssertEqual(error.message, "Invalid params: \(field): \(problem)", file: file, line: line)
    XCTAssertEqual(error.data?["field"], .string(field), file: file, line: line)
    XCTAssertEqual(error.data?["problem"], .string(problem), file: file, line: line)
  }

  private func params(_ text: String, path: String = "", allowed: [String]) throws -> Params {
    try Params(json(text), path: path, allowed: allowed)
  }

  func testUnknownAndDuplicateFields() {
    assertInvalidParams(
      thrown { () throws(RPCError) in try Params(json(#"{"identifer":"x"}"#), allowed: ["identifier"]) },
      field: "identifer", "unknown field")
    assertInvalidParams(
      thrown { () throws(RPCError) in try Params(json(#"{"badge":1,"badge":2}"#), allowed: ["badge"]) },
      field: "badge", "duplicate field")
    assertInvalidParams(
      thrown { () throws(RPCError) in try Params(json(#"{"titel":"x"}"#), path: "content", allowed: ["title"]) },
      field: "content.titel", "unknown field")
  }

  func testParamsMustBeAnObject() {
    assertInvalidParams(
      thrown { () throws(RPCError) in try Params(json("[1]"), allowed: []) },
      field: "params", "params must be an object (by name), not an array")
    assertInvalidParams(
      thrown { () throws(RPCError) in try Params(json("3"), path: "content", allowed: []) },
      field: "content", "expected an object, got a number")
    XCTAssertNoThrow(try Params(nil, allowed: []), "absent params read as an empty object")
  }

  func testWrongTypes() throws {
    let p = try params(
      #"{"s":1,"b":"yes","i":"3","f":1.5,"d":"x","a":{},"l":["x",2],"o":[]}"#,
      allowed: ["s", "b", "i", "f", "d", "a", "l", "o"])
    assertInvalidParams(
      thrown { () throws(RPCError) in try p.string("s") }, field: "s", "expected a string, got a number")
    assertInvalidParams(
      thrown { () throws(RPCError) in try p.bool("b") }, field: "b", "expected a boolean, got a string")
    assertInvalidParams(
      thrown { () throws(RPCError) in try p.int("i") }, field: "i", "expected an integer, got a string")
    assertInvalidParams(thrown { () throws(RPCError) in try p.int("f") }, field: "f", "expected an integer")
    assertInvalidParams(
      thrown { () throws(RPCError) in try p.double("d") }, field: "d", "expected a number, got a string")
    assertInvalidParams(
      thrown { () throws(RPCError) in try p.array("a") }, field: "a", "expected an array, got an object")
    assertInvalidParams(
      thrown { () throws(RPCError) in try p.stringArray("l") }, field: "l[1]", "expected a string, got a number")
  }

  /// A nested object field given an array is reported with the wording meant for the
  /// top-level params (`content: params must be an object (by name), not an array`).
  func testNestedObjectGivenAnArraySaysExpectedAnObject() throws {
    let p = try params(#"{"o":[]}"#, allowed: ["o"])
    assertInvalidParams(
      thrown { () throws(RPCError) in try p.object("o", allowed: []) }, field: "o", "expected an object, got an array")
    assertInvalidParams(
      thrown { () throws(RPCError) in try ContentShape.decode(json("[]")) }, field: "content",
      "expected an object, got an array")
  }

  func testNestedPaths() throws {
    let p = try params(
      #"{"trigger":{"dateMatching":{"month":"May"}}}"#, allowed: ["trigger"])
    let t = try XCTUnwrap(try p.object("trigger", allowed: ["dateMatching"]))
    XCTAssertEqual(t.path, "trigger")
    let m = try XCTUnwrap(try t.object("dateMatching", allowed: ["month"]))
    XCTAssertEqual(m.field("month"), "trigger.dateMatching.month")
    assertInvalidParams(
      thrown { () throws(RPCError) in try m.int("month") }, field: "trigger.dateMatching.month",
      "expected an integer, got a string")
    assertInvalidParams(
      thrown { () throws(RPCError) in try t.object("dateMatching", allowed: ["day"]) },
      field: "trigger.dateMatching.month", "unknown field")
  }

  func testIntegerRanges() throws {
    let p = try params(#"{"n":-1,"m":13,"k":6,"big":1e3}"#, allowed: ["n", "m", "k", "big"])
    assertInvalidParams(
      thrown { () throws(RPCError) in try p.int("n", in: 0...Int.max) }, field: "n", "-1 is out of range 0...")
    assertInvalidParams(
      thrown { () throws(RPCError) in try p.int("m", in: 1...12) }, field: "m", "13 is out of range 1...12")
    assertInvalidParams(
      thrown { () throws(RPCError) in try p.int("k", in: Int.min...5) }, field: "k", "6 is out of range ...5")
    XCTAssertEqual(try p.int("big"), 1000, "1e3 is an integer")
    XCTAssertEqual(try p.int("m", in: 1...13), 13)
  }

  func testEnumMessagesListTheAllowedValues() throws {
    let p = try params(
      #"{"status":"maybe","presentation":["banner","list","banner"],"bad":["banner","popup"]}"#,
      allowed: ["status", "presentation", "bad"])
    assertInvalidParams(
      thrown { () throws(RPCError) in try p.enumValue("status", AuthorizationStatus.self) }, field: "status",
      "'maybe' is not one of 'notDetermined', 'denied', 'authorized', 'provisional', 'ephemeral'")
    assertInvalidParams(
      thrown { () throws(RPCError) in try p.enumArray("presentation", PresentationOption.self) },
      field: "presentation[2]", "'banner' is repeated")
    assertInvalidParams(
      thrown { () throws(RPCError) in try p.enumArray("bad", PresentationOption.self) },
      field: "bad[1]", "'popup' is not one of 'banner', 'list', 'sound', 'badge'")
  }

  func testNullIsAbsent() throws {
    let p = try params(#"{"s":null,"b":null,"i":null,"o":null,"l":null}"#, allowed: ["s", "b", "i", "o", "l"])
    XCTAssertNil(try p.string("s"))
    XCTAssertNil(try p.bool("b"))
    XCTAssertNil(try p.int("i", in: 0...1))
    XCTAssertNil(try p.object("o", allowed: []))
    XCTAssertNil(try p.stringArray("l"))
    XCTAssertNil(p.value("s"))
    XCTAssertTrue(p.has("s"))
    XCTAssertFalse(p.has("zz"))
    assertInvalidParams(thrown { () throws(RPCError) in try p.requiredString("s") }, field: "s", "required")
    assertInvalidParams(thrown { () throws(RPCError) in try p.requiredDouble("i") }, field: "i", "required")
  }

  func testRequiredStrings() throws {
    let p = try params(#"{"id":"","name":"ok"}"#, allowed: ["id", "name"])
    assertInvalidParams(
      thrown { () throws(RPCError) in try p.requiredString("id") }, field: "id", "must be a non-empty string")
    XCTAssertEqual(try p.requiredString("id", nonEmpty: false), "")
    XCTAssertEqual(try p.requiredString("name"), "ok")
  }
}

final class TriggerDecodingTests: XCTestCase {
  private func decodeError(_ text: String) -> RPCError? {
    thrown { () throws(RPCError) in try TriggerShape.decode(json(text)) }
  }

  func testCalendarComponentOutOfRange() {
    let e = decodeError(#"{"type":"calendar","dateMatching":{"month":13}}"#)
    XCTAssertEqual(e?.code, .invalidTrigger)
    XCTAssertEqual(e?.message, "trigger.dateMatching.month: 13 is out of range 1...12")
    XCTAssertEqual(e?.data?["reason"], .string("invalidTrigger"))
    XCTAssertEqual(
      decodeError(#"{"type":"calendar","dateMatching":{"hour":24}}"#)?.message,
      "trigger.dateMatching.hour: 24 is out of range 0...23")
    XCTAssertEqual(
      decodeError(#"{"type":"calendar","dateMatching":{"weekday":0}}"#)?.message,
      "trigger.dateMatching.weekday: 0 is out of range 1...7")
    XCTAssertEqual(
      decodeError(#"{"type":"calendar","dateMatching":{"month":4,"day":31}}"#)?.message,
      "trigger.dateMatching: day 31 never occurs in month 4, which has at most 30 days")
    XCTAssertEqual(
      decodeError(#"{"type":"calendar","dateMatching":{}}"#)?.message,
      "trigger.dateMatching: at least one component is required")
  }

  func testCalendarShapeErrors() {
    let wrongType = decodeError(#"{"type":"calendar","dateMatching":{"month":"May"}}"#)
    XCTAssertEqual(wrongType?.code, .invalidParams)
    XCTAssertEqual(wrongType?.data?["field"], .string("trigger.dateMatching.month"))
    XCTAssertEqual(wrongType?.message, "Invalid params: trigger.dateMatching.month: expected an integer, got a string")
    XCTAssertEqual(
      decodeError(#"{"type":"calendar","dateMatching":{"week":1}}"#)?.message,
      "Invalid params: trigger.dateMatching.week: unknown field")
    XCTAssertEqual(
      decodeError(#"{"type":"calendar"}"#)?.message, "Invalid params: trigger.dateMatching: required")
    XCTAssertEqual(
      decodeError(#"{"type":"calendar","dateMatching":{"hour":9},"repeat":true}"#)?.message,
      "Invalid params: trigger.repeat: unknown field")
  }

  func testUnknownTimeZone() {
    let e = decodeError(#"{"type":"calendar","dateMatching":{"hour":9},"timeZone":"Mars/Olympus"}"#)
    XCTAssertEqual(e?.code, .invalidParams)
    XCTAssertEqual(e?.data?["field"], .string("trigger.timeZone"))
    XCTAssertEqual(e?.message, "Invalid params: trigger.timeZone: 'Mars/Olympus' is not a known IANA time zone")
  }

  func testTriggerTypeErrors() {
    XCTAssertEqual(
      decodeError(#"{"type":"location"}"#)?.message,
      "Invalid params: trigger.type: 'location' is not one of 'timeInterval', 'calendar'")
    XCTAssertEqual(decodeError(#"{"timeInterval":5}"#)?.message, "Invalid params: trigger.type: required")
    XCTAssertEqual(
      decodeError(#"{"type":1}"#)?.message, "Invalid params: trigger.type: expected a string, got a number")
    XCTAssertEqual(
      decodeError(#""soon""#)?.message, "Invalid params: trigger: expected an object or null, got a string")
    XCTAssertEqual(
      decodeError(#"{"type":"timeInterval","timeInterval":0}"#)?.message, "time interval must be greater than 0")
    XCTAssertEqual(decodeError(#"{"type":"timeInterval","timeInterval":0}"#)?.code, .invalidTrigger)
    XCTAssertEqual(
      decodeError(#"{"type":"timeInterval","timeInterval":30,"repeats":true}"#)?.message,
      "time interval must be at least 60 if repeating")
    XCTAssertEqual(
      decodeError(#"{"type":"timeInterval"}"#)?.message, "Invalid params: trigger.timeInterval: required")
  }

  func testValidTriggers() throws {
    XCTAssertNil(try TriggerShape.decode(nil))
    let cal = try TriggerShape.decode(
      json(
        #"{"type":"calendar","dateMatching":{"month":12,"day":24,"hour":18},"timeZone":"Europe/Warsaw","repeats":true}"#
      ))
    guard case .calendar(let c)? = cal else { return XCTFail("\(String(describing: cal))") }
    XCTAssertEqual(c.dateMatching, CalendarTrigger.Components(month: 12, day: 24, hour: 18))
    XCTAssertEqual(c.timeZoneIdentifier, "Europe/Warsaw")
    XCTAssertTrue(c.repeats)
    let ti = try TriggerShape.decode(json(#"{"type":"timeInterval","timeInterval":1.5}"#))
    XCTAssertEqual(ti, .timeInterval(try TimeIntervalTrigger(seconds: 1.5, repeats: false)))
    let nullZone = try TriggerShape.decode(json(#"{"type":"calendar","dateMatching":{"hour":9},"timeZone":null}"#))
    guard case .calendar(let d)? = nullZone else { return XCTFail() }
    XCTAssertEqual(d.timeZoneIdentifier, TimeZone.current.identifier, "null zone = the daemon's")
  }
}
