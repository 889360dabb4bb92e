import JSONRPC
import UNModel

/// The attachment shape, `{identifier, url, type?}`: read from the tree (the shape
/// only; the server checks the files), written as bytes, and its OpenRPC properties.
public enum AttachmentShape {
  public static let names = schema.names

  public static func decode(_ list: [JSONValue], path: String, stored: Bool = false) throws(RPCError) -> [Attachment] {
    var out: [Attachment] = []
    for (i, v) in list.enumerated() {
      let a = try Params(v, path: "\(path)[\(i)]", allowed: names, stored: stored)
      out.append(
        Attachment(
          identifier: try a.requiredIdentifier("identifier", nonEmpty: false), url: try a.requiredString("url"),
          type: try a.string("type")))
    }
    return out
  }

  public static func encode(_ list: [Attachment], _ o: inout [UInt8]) {
    WireBytes.array(list, &o) { a, o in
      WireBytes.member(#"{"identifier":"#, a.identifier, &o)
      WireBytes.member(#","url":"#, a.url, &o)
      if let t = a.type {
        WireBytes.member(#","type":"#, t, &o)
      }
      o.append(UInt8(ascii: "}"))
    }
  }

  public static let schema = DescribedSchema([
    "identifier": .of("string", "UNNotificationAttachment.identifier."),
    "url": .of(
      "string",
      "In: a file: URL of a local path (file:///path, file://localhost/path or file:/path; percent-escapes decoded), naming a regular file the caller can read: it is opened with the caller's uid, gid and groups (SO_PEERCRED, SO_PEERGROUPS), never the daemon's, the last component may not be a symbolic link, and the opened file's bytes are copied; else -32602 naming content.attachments[i].url and why, with one answer for a path the caller cannot reach whether or not it exists. At most --max-attachment-bytes per file and --max-attachment-bytes-per-app for the copies an app's state refers to, counted while copying (-32006 maxAttachmentBytes, maxAttachmentBytesPerApp); a copy that cannot be written is -32010 naming the directory; a failed copy keeps nothing. The daemon copies the file into its data store (<state dir>/attachments/<app>/, 0700, the copy 0600, or a private temporary directory without --state) before the request is kept and answered, as iOS moves it; pending and delivered content list the copy's file:// URL. Copies nothing refers to any more, and after reset all the app's copies, are removed (with --state once that is durable). See proto-docs/README.md, Attachments."
    ),
    "type": .of("string", "A UTI hint (UNNotificationAttachmentOptionsTypeHintKey), kept as given."),
  ])
}
