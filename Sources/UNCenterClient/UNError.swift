import Foundation

/// `UNErrorDomain`.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let UNErrorDomain = "UNErrorDomain"

/// Apple's `UNError`: the errors the framework itself raises, with Apple's codes.  The
/// client throws the attachment codes before anything is sent (as iOS does in
/// `UNNotificationAttachment(identifier:url:options:)`); what the daemon refuses comes as
/// `UNCenterError.rpc`.
public struct UNError: Error, Sendable, Hashable, CustomStringConvertible {
  /// `UNError.Code`.
  public enum Code: Int, Sendable, Hashable {
    case notificationsNotAllowed = 1
    case attachmentInvalidURL = 100
    case attachmentUnrecognizedType = 101
    case attachmentInvalidFileSize = 102
    case attachmentNotInDataStore = 103
    case attachmentMoveIntoDataStoreFailed = 104
    case attachmentCorrupt = 105
    case notificationInvalidNoDate = 1400
    case notificationInvalidNoContent = 1401
    case contentProvidingObjectNotAllowed = 1500
    case contentProvidingInvalid = 1501
    case badgeInputInvalid = 1600
  }

  public let code: Code
  /// What was wrong, in words (the `NSLocalizedDescriptionKey` of Apple's `NSError`).
  public let localizedDescription: String

  public init(_ code: Code, _ description: String = "") {
    self.code = code
    self.localizedDescription = description
  }

  public static var errorDomain: String { UNErrorDomain }
  public var errorCode: Int { code.rawValue }

  public static let notificationsNotAllowed = Code.notificationsNotAllowed
  public static let attachmentInvalidURL = Code.attachmentInvalidURL
  public static let attachmentUnrecognizedType = Code.attachmentUnrecognizedType
  public static let attachmentInvalidFileSize = Code.attachmentInvalidFileSize
  public static let badgeInputInvalid = Code.badgeInputInvalid

  public var description: String { "UNErrorDomain error \(code.rawValue): \(localizedDescription)" }

}

extension UNError.Code {
  /// `catch UNError.attachmentInvalidURL`, as with Apple's error codes.
  public static func ~= (code: Self, error: any Error) -> Bool { (error as? UNError)?.code == code }
}
