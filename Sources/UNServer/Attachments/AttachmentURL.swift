/// The local path a client's `file:` URL names (RFC 8089): `file:///path`,
/// `file://localhost/path` or `file:/path`, percent-escapes decoded to the bytes of the
/// path.  The path is then opened with the client's rights, so neither `..` nor an
/// encoding can reach more than the client itself could.
enum AttachmentURL {
  /// Why a text names no local path; `message` is the `-32602` problem.
  enum Problem: Error, Equatable {
    case notFileURL
    case otherHost(String)
    case notAbsolute
    case queryOrFragment
    case badEscape
    case nul

    func message(_ text: String) -> String {
      switch self {
      case .notFileURL: "'\(text)' is not a file: URL"
      case .otherHost(let host):
        "'\(text)' names another host ('\(host)'); only file:///path and file://localhost/path are local"
      case .notAbsolute: "'\(text)' does not name an absolute path"
      case .queryOrFragment: "'\(text)' has a query or a fragment; a file: URL names a path only"
      case .badEscape: "'\(text)' has a malformed percent-escape"
      case .nul: "'\(text)' names a path with a NUL byte"
      }
    }
  }

  /// The absolute path `text` names, as bytes (a Linux path need not be UTF-8).
  static func path(_ text: String) throws(Problem) -> [UInt8] {
    let bytes = Array(text.utf8)
    let slash = UInt8(ascii: "/")
    guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")),
      String(decoding: bytes[..<colon], as: UTF8.self).lowercased() == "file"
    else { throw .notFileURL }
    var rest = bytes[(colon + 1)...]
    if rest.starts(with: [slash, slash]) {
      rest = rest.dropFirst(2)
      let end = rest.firstIndex(of: slash) ?? rest.endIndex
      let host = String(decoding: rest[..<end], as: UTF8.self)
      guard host.isEmpty || host.lowercased() == "localhost" else { throw .otherHost(host) }
      rest = rest[end...]
    }
    guard rest.first == slash else { throw .notAbsolute }
    guard !rest.contains(UInt8(ascii: "?")), !rest.contains(UInt8(ascii: "#")) else { throw .queryOrFragment }
    return try decode(rest)
  }

  /// Percent-decodes a path; NUL, encoded or not, is refused (no path holds one).
  private static func decode(_ encoded: ArraySlice<UInt8>) throws(Problem) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(encoded.count)
    var i = encoded.startIndex
    while i < encoded.endIndex {
      var byte = encoded[i]
      if byte == UInt8(ascii: "%") {
        guard i + 2 < encoded.endIndex, let high = hex(encoded[i + 1]), let low = hex(encoded[i + 2]) else {
          throw .badEscape
        }
        byte = high << 4 | low
        i += 2
      }
      guard byte != 0 else { throw .nul }
      out.append(byte)
      i += 1
    }
    return out
  }

  private static func hex(_ b: UInt8) -> UInt8? {
    switch b {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// The file name's extension, kept for the copy's name when it is short and plain
  /// (letters and digits): `photo.JPG` → `JPG`; anything else gives none.
  static func fileExtension(_ path: [UInt8]) -> String {
    let name = path.split(separator: UInt8(ascii: "/")).last ?? []
    guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > name.startIndex else { return "" }
    let ext = name[(dot + 1)...]
    let plain = ext.allSatisfy { b in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(b)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b)
    }
    return plain && !ext.isEmpty && ext.count <= 16 ? String(decoding: ext, as: UTF8.self) : ""
  }

  /// The last component of a `file:` URL's path, undecoded: the name of a copy in the
  /// store, which has no escapes (`AttachmentStore` makes them).
  static func lastComponent(_ url: String) -> Substring {
    let path = url.split(separator: "?", maxSplits: 1).first ?? ""
    return path.split(separator: "/").last ?? ""
  }
}
