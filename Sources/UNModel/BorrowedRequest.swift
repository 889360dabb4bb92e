/// A request to schedule whose inline content texts may be UTF-8 borrowed from the bytes it
/// was read from (the message that carried it) instead of `String`s of their own.
/// `Center.schedule` copies those bytes straight into the pending record: building the
/// strings, copying them into the record and freeing them again was a large share of a
/// `scheduleLocal` (see BENCHMARKS.md).  It builds a `NotificationRequest` only when it
/// needs one (a request without a trigger, delivered at once).
///
/// The borrowed bytes must stay valid and unchanged while this value is used: it is
/// filled and scheduled while the message is at hand.  A value kept longer (the server
/// resets one and reads each message of a read into it) never reads them again.
public struct BorrowedRequest {
  public var identifier: String
  /// The texts not borrowed (bit k of `borrowed` clear), the uncommon fields (its
  /// extras) and nothing else: a borrowed text's own field here is left as it was.
  /// Every change goes through `_modify`, which notes it for `reset`.
  public var content: Content {
    _read { yield storedContent }
    _modify {
      contentChanged = true
      yield &storedContent
    }
  }
  public var trigger: Trigger?
  private var storedContent: Content
  /// The content may differ from `Content()`: `reset` makes a new one only then (a
  /// typical request borrows all its texts and changes nothing here).
  private var contentChanged = true
  /// Bit k (1 = title ... 5 = userInfo, the record's field numbers) set: text k is
  /// `texts[k]`, not `content`'s.
  @usableFromInline var borrowed: UInt8 = 0
  @usableFromInline var texts = (Self.none, Self.none, Self.none, Self.none, Self.none)
  static var none: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: nil, count: 0) }

  /// The field numbers of the texts that can be borrowed.
  public enum Text: Int {
    case title = 1
    case body
    case categoryIdentifier
    case threadIdentifier
    /// The compact JSON text of `userInfo`.
    case userInfo
  }

  public init(identifier: String, content: Content, trigger: Trigger?) {
    self.identifier = identifier
    self.storedContent = content
    self.trigger = trigger
  }

  /// Uses `bytes`, which must be valid UTF-8 (for `userInfo`, the compact JSON text
  /// `JSONText` would hold), as the text `field`.
  /// Inlined into the reader: a call per text cost more than its two stores.
  @inlinable
  public mutating func borrow(_ field: Text, _ bytes: UnsafeBufferPointer<UInt8>) {
    borrowed |= 1 << UInt8(field.rawValue)
    switch field {
    case .title: texts.0 = bytes
    case .body: texts.1 = bytes
    case .categoryIdentifier: texts.2 = bytes
    case .threadIdentifier: texts.3 = bytes
    case .userInfo: texts.4 = bytes
    }
  }

  /// Back to a request with no trigger, no borrowed text and an empty content, for
  /// reading the next one into (the identifier is left: every request sets one).
  public mutating func reset() {
    borrowed = 0
    trigger = nil
    if contentChanged {
      storedContent = Content()
      contentChanged = false
    }
  }

  /// The request with every text a value of its own.
  public var request: NotificationRequest {
    var content = content
    func text(_ field: Text) -> String { withText(field.rawValue) { String(decoding: $0, as: UTF8.self) } }
    if borrowed & 0b11_1110 != 0 {
      content.title = text(.title)
      content.body = text(.body)
      content.categoryIdentifier = text(.categoryIdentifier)
      content.threadIdentifier = text(.threadIdentifier)
      content.userInfo = withText(Text.userInfo.rawValue) { JSONText(bytes: Array($0)) }
    }
    return NotificationRequest(identifier: identifier, content: content, trigger: trigger)
  }
}

/// What a pending record and `Center.schedule` read from a request: its identifier,
/// trigger and uncommon fields, and its six texts as UTF-8 wherever they are.
protocol ScheduledRequest {
  var identifier: String { get }
  var trigger: Trigger? { get }
  var content: Content { get }
  /// Calls `body` with the UTF-8 of text `k` (0 = identifier, 1 = title ... 5 = the
  /// compact `userInfo`).
  func withText<R>(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R
  /// The request as a value of its own.
  var request: NotificationRequest { get }
}

extension NotificationRequest: ScheduledRequest {
  @inline(__always)
  func withText<R>(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    switch k {
    case 0: withUTF8Bytes(identifier, body)
    case 1: withUTF8Bytes(content.title, body)
    case 2: withUTF8Bytes(content.body, body)
    case 3: withUTF8Bytes(content.categoryIdentifier, body)
    case 4: withUTF8Bytes(content.threadIdentifier, body)
    default: content.userInfo.bytes.withUnsafeBufferPointer(body)
    }
  }

  var request: NotificationRequest { self }
}

extension BorrowedRequest: ScheduledRequest {
  @inline(__always)
  func withText<R>(_ k: Int, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    guard borrowed & (1 << UInt8(k)) != 0 else {
      switch k {
      case 0: return withUTF8Bytes(identifier, body)
      case 1: return withUTF8Bytes(content.title, body)
      case 2: return withUTF8Bytes(content.body, body)
      case 3: return withUTF8Bytes(content.categoryIdentifier, body)
      case 4: return withUTF8Bytes(content.threadIdentifier, body)
      default: return content.userInfo.bytes.withUnsafeBufferPointer(body)
      }
    }
    switch k {
    case 1: return body(texts.0)
    case 2: return body(texts.1)
    case 3: return body(texts.2)
    case 4: return body(texts.3)
    default: return body(texts.4)
    }
  }
}
