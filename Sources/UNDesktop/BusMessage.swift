import CSystemd

/// A borrowed sd-bus message: appends arguments to a call being built, reads those of
/// a reply or a signal.  Valid only during the callback or build step that lends it.
struct BusMessage {
  let raw: OpaquePointer
  let library: SDBusLibrary

  var sender: String? { library.fn.sd_bus_message_get_sender(raw).map { String(cString: $0) } }
  var member: String? { library.fn.sd_bus_message_get_member(raw).map { String(cString: $0) } }

  // MARK: appending (D-Bus type characters as in the specification)

  func append(_ value: String) throws(DesktopError) {
    let r = value.withCString { library.fn.sd_bus_message_append_basic(raw, CChar(UInt8(ascii: "s")), $0) }
    try check(r, "append s")
  }

  func append(_ value: UInt32) throws(DesktopError) {
    var v = value
    try check(library.fn.sd_bus_message_append_basic(raw, CChar(UInt8(ascii: "u")), &v), "append u")
  }

  func append(_ value: Int32) throws(DesktopError) {
    var v = value
    try check(library.fn.sd_bus_message_append_basic(raw, CChar(UInt8(ascii: "i")), &v), "append i")
  }

  func append(_ value: UInt8) throws(DesktopError) {
    var v = value
    try check(library.fn.sd_bus_message_append_basic(raw, CChar(UInt8(ascii: "y")), &v), "append y")
  }

  func append(_ value: Bool) throws(DesktopError) {
    // D-Bus booleans travel as 32-bit integers.
    var v: Int32 = value ? 1 : 0
    try check(library.fn.sd_bus_message_append_basic(raw, CChar(UInt8(ascii: "b")), &v), "append b")
  }

  func append(strings: [String]) throws(DesktopError) {
    try container("a", "s") { () throws(DesktopError) in
      for s in strings { try append(s) }
    }
  }

  /// `a{sv}` of the hints.
  func append(hints: [(String, NotifyArguments.Hint)]) throws(DesktopError) {
    try container("a", "{sv}") { () throws(DesktopError) in
      for (key, value) in hints {
        try container("e", "sv") { () throws(DesktopError) in
          try append(key)
          switch value {
          case .byte(let b): try container("v", "y") { () throws(DesktopError) in try append(b) }
          case .string(let s): try container("v", "s") { () throws(DesktopError) in try append(s) }
          case .boolean(let b): try container("v", "b") { () throws(DesktopError) in try append(b) }
          }
        }
      }
    }
  }

  private func container(_ type: Character, _ contents: String, _ body: () throws(DesktopError) -> Void)
    throws(DesktopError)
  {
    let t = CChar(type.asciiValue!)
    try check(library.fn.sd_bus_message_open_container(raw, t, contents), "open \(type)\(contents)")
    try body()
    try check(library.fn.sd_bus_message_close_container(raw), "close \(type)\(contents)")
  }

  // MARK: reading

  func readString() -> String? {
    var p: UnsafePointer<CChar>?
    guard library.fn.sd_bus_message_read_basic(raw, CChar(UInt8(ascii: "s")), &p) > 0, let p else { return nil }
    return String(cString: p)
  }

  func readUInt32() -> UInt32? {
    var v: UInt32 = 0
    guard library.fn.sd_bus_message_read_basic(raw, CChar(UInt8(ascii: "u")), &v) > 0 else { return nil }
    return v
  }

  func readStrings() -> [String]? {
    guard library.fn.sd_bus_message_enter_container(raw, CChar(UInt8(ascii: "a")), "s") > 0 else { return nil }
    var out: [String] = []
    while let s = readString() { out.append(s) }
    _ = library.fn.sd_bus_message_exit_container(raw)
    return out
  }

  private func check(_ r: Int32, _ what: String) throws(DesktopError) {
    if r < 0 { throw .bus(operation: "sd_bus_message \(what)", errno: -r) }
  }
}
