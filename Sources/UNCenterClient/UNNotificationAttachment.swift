import Foundation
import UNModel

/// `UNNotificationAttachmentOptionsTypeHintKey`: the file's UTI when its extension does not say.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let UNNotificationAttachmentOptionsTypeHintKey = "UNNotificationAttachmentOptionsTypeHintKey"
// swift-format-ignore: AlwaysUseLowerCamelCase
public let UNNotificationAttachmentOptionsThumbnailHiddenKey = "UNNotificationAttachmentOptionsThumbnailHiddenKey"
// swift-format-ignore: AlwaysUseLowerCamelCase
public let UNNotificationAttachmentOptionsThumbnailClippingRectKey =
  "UNNotificationAttachmentOptionsThumbnailClippingRectKey"
// swift-format-ignore: AlwaysUseLowerCamelCase
public let UNNotificationAttachmentOptionsThumbnailTimeKey = "UNNotificationAttachmentOptionsThumbnailTimeKey"

/// `UNNotificationAttachment`: a local audio, image or video file shown with the
/// notification.  The initializer checks the file as iOS does and throws Apple's
/// `UNError` codes before anything is sent; the daemon copies the file into its data
/// store when the request is added, as iOS moves it.
///
/// `@unchecked Sendable`: immutable (`let`s of Sendable types).
open class UNNotificationAttachment: NSObject, @unchecked Sendable {
  public let identifier: String
  public let url: URL
  /// The UTI (`public.jpeg`, `public.mp3`, ...).
  public let type: String

  /// The kinds iOS accepts, by file extension, with their size limits (Apple's table:
  /// audio 5 MB, images 10 MB, animated images 50 MB, video 50 MB).
  static let kinds: [String: (uti: String, limit: Int)] = [
    "aif": ("public.aiff-audio", 5_000_000), "aiff": ("public.aiff-audio", 5_000_000),
    "wav": ("com.microsoft.waveform-audio", 5_000_000), "mp3": ("public.mp3", 5_000_000),
    "m4a": ("public.mpeg-4-audio", 5_000_000), "caf": ("com.apple.coreaudio-format", 5_000_000),
    "jpg": ("public.jpeg", 10_000_000), "jpeg": ("public.jpeg", 10_000_000), "png": ("public.png", 10_000_000),
    "heic": ("public.heic", 10_000_000), "gif": ("com.compuserve.gif", 50_000_000),
    "mpg": ("public.mpeg", 50_000_000), "mpeg": ("public.mpeg", 50_000_000), "mp4": ("public.mpeg-4", 50_000_000),
    "m4v": ("com.apple.m4v-video", 50_000_000), "mov": ("com.apple.quicktime-movie", 50_000_000),
    "avi": ("public.avi", 50_000_000),
  ]

  static func limit(ofType uti: String) -> Int? { kinds.values.first { $0.uti == uti }?.limit }

  public init(identifier: String, url URL: URL, options: [AnyHashable: Any]? = nil) throws {
    guard URL.isFileURL else { throw UNError(.attachmentInvalidURL, "not a file URL: \(URL.absoluteString)") }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: URL.path, isDirectory: &isDirectory), !isDirectory.boolValue,
      FileManager.default.isReadableFile(atPath: URL.path)
    else { throw UNError(.attachmentInvalidURL, "no readable file at \(URL.path)") }
    let hint = options?[UNNotificationAttachmentOptionsTypeHintKey] as? String
    let byExtension = Self.kinds[URL.pathExtension.lowercased()]
    guard let uti = hint ?? byExtension?.uti else {
      throw UNError(.attachmentUnrecognizedType, "unrecognized attachment type: \(URL.lastPathComponent)")
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: URL.path)[.size] as? NSNumber)??.intValue ?? 0
    guard size > 0 else { throw UNError(.attachmentInvalidFileSize, "the file is empty: \(URL.path)") }
    if let limit = byExtension?.limit ?? Self.limit(ofType: uti), size > limit {
      throw UNError(.attachmentInvalidFileSize, "\(URL.lastPathComponent) is \(size) bytes; the limit is \(limit)")
    }
    self.identifier = identifier.isEmpty ? UUID().uuidString : identifier
    self.url = URL.standardizedFileURL
    self.type = uti
    self.typeHint = hint
  }

  /// The hint given in the options, sent as `type`.
  let typeHint: String?

  init(identifier: String, url: URL, type: String) {
    self.identifier = identifier
    self.url = url
    self.type = type
    self.typeHint = type
  }

  /// The protocol's attachment value: the type only when the app gave it as a hint.
  var value: Attachment { Attachment(identifier: identifier, url: url.absoluteString, type: typeHint) }

  /// An attachment the daemon wrote; nil when its URL does not parse.
  static func from(value a: Attachment) -> UNNotificationAttachment? {
    guard let url = URL(string: a.url) else { return nil }
    let type = a.type ?? kinds[url.pathExtension.lowercased()]?.uti ?? "public.data"
    return UNNotificationAttachment(identifier: a.identifier, url: url, type: type)
  }

  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? UNNotificationAttachment else { return false }
    return identifier == other.identifier && url == other.url && type == other.type
  }

  open override var hash: Int { identifier.hashValue ^ url.hashValue }
}
