// Fuzz harness `framer`: arbitrary bytes through `Framer` in random-sized chunks.
//
// Compiled into the JSONRPC module (see Fuzz/build.sh) so it can read the framer's
// internal buffer.  Input layout:
//   byte 0        the limit: maxMessageBytes = limits[byte & 15]
//   byte 1        n = byte & 7: how many chunk-size bytes follow
//   n bytes       chunk sizes, used in turn: size = byte + 1 (1...256)
//   the rest      the stream
// Invariants (any violation aborts with a message):
// - feeding the stream in chunks gives exactly the events of feeding it in one go,
//   including after `finish`;
// - the buffered bytes never exceed max(maxMessageBytes, Framer.maxHeaderBytes);
// - every message is at most maxMessageBytes long; in newline mode it holds no '\n'
//   and is not blank;
// - the framing is the one `Framer.detectFraming` reads from the whole stream;
// - framing the messages again with `appendFrame` and feeding that gives the same
//   messages (when the first message does not itself look like a header; leading
//   whitespace of the first one is skipped by the framing detection).

private let limits = [0, 1, 2, 3, 7, 16, 31, 64, 100, 255, 1024, 4096, 8191, 8192, 9000, 1 << 20]

private enum Event: Equatable {
  case message([UInt8])
  case oversized(Int)
  case malformed(String, Bool)

  init(_ e: FrameEvent) {
    switch e {
    case .message(let m): self = .message(Array(m))
    case .oversized(let l): self = .oversized(l)
    case .malformed(let r, let f): self = .malformed(r, f)
    }
  }
}

private func fail(_ message: String) -> Never {
  fatalError("framer invariant failed: \(message)")
}

private func checkBuffer(_ framer: Framer) {
  let bound = max(framer.maxMessageBytes, Framer.maxHeaderBytes)
  if framer.buffer.count > bound { fail("buffer holds \(framer.buffer.count) bytes, bound \(bound)") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  let input = Array(UnsafeBufferPointer(start: data, count: size))
  guard input.count >= 2 else { return 0 }
  let limit = limits[Int(input[0] & 15)]
  let n = Int(input[1] & 7)
  guard input.count >= 2 + n else { return 0 }
  let sizes = n == 0 ? [input.count] : input[2..<2 + n].map { Int($0) + 1 }
  let stream = Array(input[(2 + n)...])

  // In one go.
  var whole = Framer(maxMessageBytes: limit)
  var expected: [Event] = []
  whole.feed(stream) { expected.append(Event($0)) }
  checkBuffer(whole)
  let framing = whole.framing
  whole.finish { expected.append(Event($0)) }

  // In chunks.
  var chunked = Framer(maxMessageBytes: limit)
  var events: [Event] = []
  var position = 0
  var turn = 0
  while position < stream.count {
    let end = min(stream.count, position + sizes[turn % sizes.count])
    turn += 1
    // A copy, so that the framer cannot rely on bytes outside the chunk.
    let chunk = Array(stream[position..<end])
    chunked.feed(chunk) { events.append(Event($0)) }
    checkBuffer(chunked)
    position = end
  }
  if chunked.framing != framing { fail("framing \(String(describing: chunked.framing)) vs \(String(describing: framing))") }
  chunked.finish { events.append(Event($0)) }
  if events != expected {
    fail("chunked events differ (sizes \(sizes)):\n  whole:   \(expected)\n  chunked: \(events)")
  }

  let detected = stream.withUnsafeBytes { Framer.detectFraming($0) }
  if detected != framing { fail("detectFraming \(String(describing: detected)) vs framer \(String(describing: framing))") }

  var messages: [[UInt8]] = []
  for event in expected {
    guard case .message(let m) = event else { continue }
    if m.count > limit { fail("message of \(m.count) bytes over the limit \(limit)") }
    if framing == .newlineDelimited {
      if m.contains(0x0A) { fail("newline-delimited message contains a newline") }
      if m.allSatisfy(Framer.isWhitespace) { fail("blank newline-delimited message delivered") }
    }
    messages.append(m)
  }

  // Framing the messages again gives them back.
  guard let framing, let first = messages.first else { return 0 }
  if framing == .newlineDelimited, Framer.detectFraming(first.withUnsafeBytes { $0 }) != .newlineDelimited {
    return 0
  }
  var reframed: [UInt8] = []
  for m in messages { Framer.appendFrame(m, framing: framing, to: &reframed) }
  var again = Framer(maxMessageBytes: limit)
  var back: [[UInt8]] = []
  again.feed(reframed) { event in
    switch event {
    case .message(let m): back.append(Array(m))
    default: fail("re-framed stream gave \(Event(event))")
    }
  }
  again.finish { event in
    if case .message(let m) = event { back.append(Array(m)) } else { fail("re-framed finish gave \(Event(event))") }
  }
  // Whitespace before the first message is skipped while the framing is detected.
  if framing == .newlineDelimited, let i = messages[0].firstIndex(where: { !Framer.isWhitespace($0) }) {
    messages[0].removeFirst(i)
  }
  if back != messages { fail("re-framed messages differ:\n  \(messages.map { String(decoding: $0, as: UTF8.self) })\n  \(back.map { String(decoding: $0, as: UTF8.self) })") }
  return 0
}
