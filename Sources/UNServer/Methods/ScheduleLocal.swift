import JSONRPC
import UNModel
import UNProtocol

/// `scheduleLocal`: adds or replaces a pending request (rule 2).
enum ScheduleLocal: FastMethod {
  static let name = "scheduleLocal"
  static let kind = MethodKind.change

  static func handle(_ call: Call) throws(RPCError) -> Reply {
    let p = try call.params(allowed: fields)
    let app = try call.app(p)
    let request = try request(from: p)
    // Attachments are copied into the data store first, as the caller and off the loop;
    // the request is kept once they are (the fast path never has any).
    let sources = try AttachmentStore.sources(request.content, app: app)
    guard sources.isEmpty else {
      return .copy(
        AttachmentJob(app: app, sources: sources) { urls throws(RPCError) in
          var copied = request
          for (i, url) in urls.enumerated() { copied.content.attachments[i].url = url }
          // Run later than the checks in `Dispatcher`: the state directory may have
          // stopped taking writes meanwhile, and the app may have been reset.
          if let notWritable = call.dispatcher.notWritable { throw notWritable.error }
          try call.authorize(app)
          return try answer(call, app: app, copied)
        })
    }
    return try answer(call, app: app, request)
  }

  /// Schedules the request and writes the answer.
  private static func answer(_ call: Call, app: String, _ request: NotificationRequest) throws(RPCError) -> Reply {
    let result = try run(call, app: app, request)
    var o: [UInt8] = []
    o.reserveCapacity(160)
    result.write(into: &o, dates: call.dates, warnings: call.warningTexts)
    return .bytes(o)
  }

  static let fields = ["app", "identifier", "content", "trigger"]

  /// The request the params describe (everything but the app).
  static func request(from p: Params) throws(RPCError) -> NotificationRequest {
    let identifier = try p.requiredIdentifier("identifier")
    let content = try ContentShape.decode(p.value("content"))
    let trigger = try TriggerShape.decode(p.value("trigger"))
    return NotificationRequest(identifier: identifier, content: content, trigger: trigger)
  }

  /// Schedules a decoded request for an app the caller may use (`handle`).
  static func run(_ call: Call, app: String, _ request: NotificationRequest) throws(RPCError) -> ScheduleResult {
    try call.model { () throws(UNError) in try call.center.schedule(app: app, request) }
  }

  /// The same for the fast path's request, whose texts are borrowed from the message.
  static func run(_ call: Call, app: String, _ request: BorrowedRequest) throws(RPCError) -> ScheduleResult {
    try call.model { () throws(UNError) in try call.center.schedule(app: app, request) }
  }

  static var emptyCall: ScheduleLocalCall { .empty }

  /// A call the request reader decoded (`ScheduleLocalCall`): it never has attachments.
  static func run(fast: ScheduleLocalCall, _ call: Call) throws(RPCError) -> ScheduleResult {
    try run(call, app: try call.app(named: fast.app), fast.request)
  }

  /// Appends the result as JSON bytes.  The fast path's answer is written by the outbox
  /// straight into the connection's output (`WireResult`).
  static func write(
    _ r: ScheduleResult, into o: inout [UInt8], dates: DateTextCache, warnings: WarningsTextCache
  ) {
    // Few, large appends (each append to an array checks its uniqueness and capacity).
    let flags: StaticString =
      switch (r.scheduled, r.replaced) {
      case (true, false): #","scheduled":true,"replaced":false,"nextTriggerDate":"#
      case (true, true): #","scheduled":true,"replaced":true,"nextTriggerDate":"#
      case (false, false): #","scheduled":false,"replaced":false,"nextTriggerDate":"#
      case (false, true): #","scheduled":false,"replaced":true,"nextTriggerDate":"#
      }
    let tailKept =
      !warnings.resultTail.isEmpty && warnings.resultTailDate == r.nextTriggerDate
      && warnings.resultTailWarnings == r.warnings
    if tailKept, appendJoined(r.identifier, flags, warnings.resultTail, to: &o) { return }
    WireBytes.member(#"{"identifier":"#, r.identifier, &o)
    WireBytes.key(flags, &o)
    if tailKept { return o.append(contentsOf: warnings.resultTail) }
    var tail: [UInt8] = []
    if let next = r.nextTriggerDate { WireBytes.date(next, &tail, cache: dates) } else { WireBytes.key("null", &tail) }
    WireBytes.key(#","warnings":"#, &tail)
    WireBytes.warnings(r.warnings, &tail, cache: warnings)
    tail.append(UInt8(ascii: "}"))
    o.append(contentsOf: tail)
    warnings.resultTail = tail
    warnings.resultTailDate = r.nextTriggerDate
    warnings.resultTailWarnings = r.warnings
  }

  /// `{"identifier":"…"`, `flags` and `tail` with one append, put together on the
  /// stack, when the identifier needs no escape and the whole fits; false (nothing
  /// appended) otherwise.  The usual answer: five appends cost more than their bytes.
  private static func appendJoined(
    _ identifier: String, _ flags: StaticString, _ tail: [UInt8], to o: inout [UInt8]
  ) -> Bool {
    let head: StaticString = #"{"identifier":""#
    let capacity = 256
    let joined = identifier.utf8.withContiguousStorageIfAvailable { id -> Bool in
      let total = head.utf8CodeUnitCount + id.count + 1 + flags.utf8CodeUnitCount + tail.count
      guard total <= capacity, JSONWriter.plainEnd(id, from: 0) == id.count else { return false }
      tail.withUnsafeBufferPointer { tail in
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
          var at = buffer.baseAddress!
          func put(_ from: UnsafePointer<UInt8>?, _ n: Int) {
            guard let from, n > 0 else { return }
            at.update(from: from, count: n)
            at += n
          }
          put(head.utf8Start, head.utf8CodeUnitCount)
          put(id.baseAddress, id.count)
          at.pointee = UInt8(ascii: "\"")
          at += 1
          put(flags.utf8Start, flags.utf8CodeUnitCount)
          put(tail.baseAddress, tail.count)
          o.append(contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: total))
        }
      }
      return true
    }
    return joined ?? false
  }
}

extension ScheduleResult: WireResult {
  func write(into o: inout [UInt8], dates: DateTextCache, warnings: WarningsTextCache) {
    ScheduleLocal.write(self, into: &o, dates: dates, warnings: warnings)
  }
}
