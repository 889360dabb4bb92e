import Foundation
import UNModel
import XCTest

@testable import UNServer

/// The log never holds up the loop: lines go to a writer thread, and a reader that stops
/// reading costs dropped lines (counted and reported), not a blocked daemon.
final class LogSinkTests: XCTestCase {
  private func pipePair() -> (read: Int32, write: Int32) {
    var fds: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&fds), 0)
    addTeardownBlock {
      close(fds[0])
      close(fds[1])
    }
    return (fds[0], fds[1])
  }

  private func drain(_ fd: Int32, until done: (String) -> Bool) -> String {
    var text = ""
    var buffer = [UInt8](repeating: 0, count: 65536)
    while !done(text) {
      let n = read(fd, &buffer, buffer.count)
      guard n > 0 else { break }
      text += String(decoding: buffer[..<n], as: UTF8.self)
    }
    return text
  }

  func testLinesArriveWholeAndInOrder() {
    let (r, w) = pipePair()
    let log = Log(level: .info, journal: false, sink: LogSink(fd: w))
    for i in 0..<1000 { log.info("fired", ["app": "a", "id": "n\(i)"]) }
    log.debug("hidden")
    log.flush()
    let text = drain(r) { $0.components(separatedBy: "\n").count > 1000 }
    let lines = text.split(separator: "\n")
    XCTAssertEqual(lines.count, 1000)
    XCTAssertEqual(lines.first, "level=info event=fired app=a id=n0")
    XCTAssertEqual(lines.last, "level=info event=fired app=a id=n999")
  }

  /// A pipe nobody reads fills up (64 KiB); appending goes on without blocking, beyond the
  /// sink's capacity lines are dropped, and once the reader reads again the count is logged.
  func testAStalledReaderCostsDroppedLinesNotABlockedCaller() {
    let (r, w) = pipePair()
    let sink = LogSink(fd: w, capacity: 64 * 1024)
    let log = Log(level: .info, journal: false, sink: sink)
    let appended = expectation(description: "appending returns while nobody reads")
    let lines = 20_000  // about 1 MB: far beyond the pipe (64 KiB) and the sink (64 KiB)
    DispatchQueue.global().async {
      for i in 0..<lines { log.info("scheduled", ["app": "a", "id": "request-\(i)"]) }
      appended.fulfill()
    }
    // Generous: only a blocked writer could take this long.
    wait(for: [appended], timeout: 60)

    // Lines can be dropped in more than one stretch (the writer may take a batch while
    // the caller is still appending, on a busy machine), each reported by its own
    // `log_lines_dropped` line: read until every line is either written or counted.
    func tally(_ text: String) -> (written: [Substring], dropped: Int, reports: Int) {
      let all = text.split(separator: "\n")
      let reports = all.filter { $0.contains("event=log_lines_dropped") }
      let dropped = reports.reduce(0) { $0 + (Int($1.split(separator: "=").last ?? "") ?? 0) }
      return (all.filter { $0.hasPrefix("level=info event=scheduled") }, dropped, reports.count)
    }
    let text = drain(r) { text in
      let t = tally(text)
      return text.hasSuffix("\n") && t.reports > 0 && t.written.count + t.dropped >= lines
    }
    let (written, count, reports) = tally(text)
    XCTAssertGreaterThan(reports, 0, "no log_lines_dropped line")
    XCTAssertGreaterThan(count, 0)
    XCTAssertEqual(sink.droppedTotal, count)
    XCTAssertEqual(written.count + count, lines, "every line is either written whole or counted")
    for line in written { XCTAssertTrue(line.hasPrefix("level=info event=scheduled app=a id=request-"), String(line)) }
  }

  func testJournalPrefixOnTheDropLine() {
    let (r, w) = pipePair()
    let sink = LogSink(fd: w, journal: true, capacity: 10)
    sink.append(Array("level=info event=too_long_for_the_capacity\n".utf8))
    sink.flush()
    let text = drain(r) { $0.hasSuffix("\n") }
    XCTAssertEqual(text, "<4>level=warn event=log_lines_dropped count=1\n")
  }
}

/// Lines built straight into bytes read as the logfmt the daemon has always written.
final class LogLineTests: XCTestCase {
  func testFieldsOfEveryKind() {
    var line = LogLine(.info, "scheduled", journal: false)
    line.field("app", "com.example.chat")
    line.field("seq", UInt64(1_234_567_890_123))
    line.field("count", 0)
    line.field("delta", -42)
    line.field("late", true)
    line.field("next", Instant(milliseconds: 1_767_254_405_000))
    XCTAssertEqual(
      String(decoding: line.bytes, as: UTF8.self),
      "level=info event=scheduled app=com.example.chat seq=1234567890123 count=0 delta=-42 late=true next=2026-01-01T08:00:05.000Z"
    )
  }

  func testQuoting() {
    var line = LogLine(.warn, "e", journal: true)
    line.field("empty", "")
    line.field("space", "a b")
    line.field("eq", "a=b")
    line.field("quote", #"say "hi" \ now"#)
    line.field("newline", "one\ntwo")
    line.field("polish", "Cześć")
    XCTAssertEqual(
      String(decoding: line.bytes, as: UTF8.self),
      #"<4>level=warn event=e empty="" space="a b" eq="a=b" quote="say \"hi\" \\ now" newline="one\ntwo" polish="Cześć""#
    )
  }

  func testPlainCheckAgreesWithTheByteRule() {
    func plain(_ bytes: [UInt8]) -> Bool {
      !bytes.isEmpty && !bytes.contains { $0 <= 0x20 || $0 >= 0x7f || $0 == 0x22 || $0 == 0x3d }
    }
    var none: UInt8 = 0x61
    XCTAssertFalse(LogLine.isPlain(&none, 0), "an empty value is quoted")
    // Every byte value at every position of values shorter than, as long as and longer
    // than a word (the word-at-a-time check and its tail).
    for length in 1...19 {
      for position in 0..<length {
        for byte in UInt8.min...UInt8.max {
          var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
          bytes[position] = byte
          let checked = bytes.withUnsafeBufferPointer { LogLine.isPlain($0.baseAddress!, length) }
          XCTAssertEqual(checked, plain(bytes), "byte \(byte) at \(position) of \(length)")
        }
      }
    }
  }

  func testRestartedLinesAndRepeatedDates() {
    var line = LogLine(.info, "x", journal: false)
    let date = Instant(milliseconds: 1_767_254_405_000)
    let wide = Instant(milliseconds: 400_000_000_000_000)
    line.field("d", date)
    line.restart(.info, "scheduled", journal: true)
    line.field("d", date)
    line.field("d", wide)
    line.field("d", wide)
    line.field("d", Instant(milliseconds: 1_767_254_405_001))
    line.field("d", date)
    let text = String(decoding: line.bytes, as: UTF8.self)
    XCTAssertEqual(
      text,
      "<6>level=info event=scheduled d=2026-01-01T08:00:05.000Z d=\(wide.rfc3339) d=\(wide.rfc3339)"
        + " d=2026-01-01T08:00:05.001Z d=2026-01-01T08:00:05.000Z")
  }

  func testNothingIsFormattedBelowTheLevel() {
    // `LogLine` is not copyable, so it cannot go to XCTest's generic nil checks.
    XCTAssertTrue(Log(level: .warn, journal: false).line(.info, "scheduled") == nil)
    XCTAssertTrue(Log(level: .warn, journal: false).line(.error, "failed") != nil)
  }
}
