import Foundation
import JSONRPC
import UNModel

/// The daemon's copies of notification attachments.  iOS moves an attachment's file into
/// its own data store when the request is added, so the app may delete its file at once;
/// this does the same: `<state dir>/attachments/<app>/<uuid>.<ext>`, or a private
/// temporary directory (removed at exit) without `--state`.  Requests and delivered
/// notifications list the copy's `file://` URL.
enum AttachmentStore {
  /// The private directory used without `--state`, made on first use.
  static let privateDirectory: String = {
    var template = Array((NSTemporaryDirectory() + "/uncenterd-attachments-XXXXXX").utf8CString)
    let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    let path = made.map { String(cString: $0) } ?? NSTemporaryDirectory() + "/uncenterd-attachments-\(getpid())"
    atexit { try? FileManager.default.removeItem(atPath: AttachmentStore.privateDirectory) }
    return path
  }()

  static func root(_ configuration: ServerConfiguration) -> String {
    if let state = configuration.stateDirectory { return state + "/attachments" }
    return privateDirectory
  }

  /// An app id as one safe path component: bytes outside `[A-Za-z0-9._-]` as `%XX`, and
  /// no `.`/`..`.
  static func directoryName(_ app: String) -> String {
    var out = ""
    for b in app.utf8 {
      switch b {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
        out.append(Character(Unicode.Scalar(b)))
      default:
        out += String(format: "%%%02X", b)
      }
    }
    return out == "." || out == ".." || out.isEmpty ? "%" + out : out
  }

  /// Checks each attachment's URL (a `file:` URL to an existing, readable regular file)
  /// and copies the file into the store; the content with the copies' URLs.  On an error
  /// nothing is kept.
  static func store(_ content: Content, app: String, _ configuration: ServerConfiguration, path: String = "content")
    throws(RPCError) -> Content
  {
    guard !content.attachments.isEmpty else { return content }
    var c = content
    var made: [String] = []
    do throws(RPCError) {
      for (i, a) in content.attachments.enumerated() {
        let field = "\(path).attachments[\(i)].url"
        let source = try file(a.url, field: field)
        let directory = root(configuration) + "/" + directoryName(app)
        let ext = (source as NSString).pathExtension
        let target = directory + "/" + UUID().uuidString.lowercased() + (ext.isEmpty ? "" : "." + ext)
        do {
          try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
          try FileManager.default.copyItem(atPath: source, toPath: target)
        } catch {
          throw RPCError.invalidParams(
            field: field, "cannot copy \(source) into the data store: \(error.localizedDescription)")
        }
        made.append(target)
        c.attachments[i].url = URL(fileURLWithPath: target).absoluteString
      }
    } catch {
      for m in made { try? FileManager.default.removeItem(atPath: m) }
      throw error
    }
    return c
  }

  /// The local path a `file:` URL names, when it is an existing readable regular file.
  static func file(_ text: String, field: String) throws(RPCError) -> String {
    guard let url = URL(string: text), url.scheme?.lowercased() == "file" else {
      throw RPCError.invalidParams(field: field, "'\(text)' is not a file: URL")
    }
    if let host = url.host, !host.isEmpty, host != "localhost" {
      throw RPCError.invalidParams(field: field, "'\(text)' names another host ('\(host)')")
    }
    let path = url.path
    guard path.hasPrefix("/") else { throw RPCError.invalidParams(field: field, "'\(text)' is not an absolute path") }
    var info = stat()
    guard stat(path, &info) == 0 else {
      throw RPCError.invalidParams(field: field, "\(path) does not exist")
    }
    guard info.st_mode & S_IFMT == S_IFREG else {
      throw RPCError.invalidParams(field: field, "\(path) is not a regular file")
    }
    guard access(path, R_OK) == 0 else { throw RPCError.invalidParams(field: field, "\(path) is not readable") }
    return path
  }

  /// `reset`: the app's copies go with its data.
  static func removeApp(_ app: String, _ configuration: ServerConfiguration) {
    let directory = root(configuration) + "/" + directoryName(app)
    if FileManager.default.fileExists(atPath: directory) { try? FileManager.default.removeItem(atPath: directory) }
  }
}
