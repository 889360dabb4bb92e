import JSONRPC
import UNModel

/// The attachment shape, `{identifier, url, type?}`: read from the tree (the shape
/// only; the server checks the files), written as bytes, and its OpenRPC properties.
enum AttachmentShape {
  static let names = schema.names

  static func decode(_ list: [JSONValue], path: String, stored: Bool = false) throws(RPCError) -> [Attachment] {
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

  static func encode(_ list: [Attachment], _ o: inout [UInt8]) {
    WireBytes.array(list, &o) { a, o in
      WireBytes.member(#"{"identifier":"#, a.identifier, &o)
      WireBytes.member(#","url":"#, a.url, &o)
      if let t = a.type {
        WireBytes.member(#","type":"#, t, &o)
      }
      o.append(UInt8(ascii: "}"))
    }
  }

  static let schema = DescribedSchema([
    "identifier": .of("string", "UNNotificationAttachment.identifier."),
    "url": .of(
      "string",
      "In: a file: URL of an existing, readable regular file (else -32602 naming content.attachments[i].url and why). The daemon copies the file into its data store (<state dir>/attachments/<app>/, or a private temporary directory without --state) when the request is added, as iOS moves it; pending and delivered content list the copy's file:// URL. reset removes the app's copies."
    ),
    "type": .of("string", "A UTI hint (UNNotificationAttachmentOptionsTypeHintKey), kept as given."),
  ])
}
