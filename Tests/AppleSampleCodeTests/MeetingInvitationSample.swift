import Foundation
import UserNotifications

// Apple's "Declaring your actionable notification types" and "Handling notifications and
// notification-related actions", as the articles write them.  Only the app's own types
// (`sharedMeetingManager`) are stubs.

/// The app's meeting manager (a stub that records what it was asked).
final class MeetingManager {
  var accepted: [(user: String, meetingID: String)] = []
  var declined: [(user: String, meetingID: String)] = []
  func acceptMeeting(user: String, meetingID: String) { accepted.append((user, meetingID)) }
  func declineMeeting(user: String, meetingID: String) { declined.append((user, meetingID)) }
}

@MainActor let sharedMeetingManager = MeetingManager()

func registerMeetingInvitationCategory() {
  // Define the custom actions.
  let acceptAction = UNNotificationAction(
    identifier: "ACCEPT_ACTION",
    title: "Accept",
    options: [])
  let declineAction = UNNotificationAction(
    identifier: "DECLINE_ACTION",
    title: "Decline",
    options: [])
  // Define the notification type
  let meetingInviteCategory =
    UNNotificationCategory(
      identifier: "MEETING_INVITATION",
      actions: [acceptAction, declineAction],
      intentIdentifiers: [],
      hiddenPreviewsBodyPlaceholder: "",
      options: .customDismissAction)
  // Register the notification type.
  let notificationCenter = UNUserNotificationCenter.current()
  notificationCenter.setNotificationCategories([meetingInviteCategory])
}

func meetingInvitationContent(meetingID: String, userID: String) -> UNMutableNotificationContent {
  let content = UNMutableNotificationContent()
  content.title = "Weekly Staff Meeting"
  content.body = "Every Tuesday at 2pm"
  content.userInfo = [
    "MEETING_ID": meetingID,
    "USER_ID": userID,
  ]
  content.categoryIdentifier = "MEETING_INVITATION"
  return content
}

/// The app's delegate, in the completion-handler form of Apple's articles.
class AppNotificationDelegate: NSObject, UNUserNotificationCenterDelegate {
  /// What the test reads: each call, in order.
  var receivedActions: [String] = []
  var presented: [String] = []

  func userNotificationCenter(
    _ center: UNUserNotificationCenter,
    didReceive response: UNNotificationResponse,
    withCompletionHandler completionHandler:
      @escaping () -> Void
  ) {
    receivedActions.append(response.actionIdentifier)

    // Get the meeting ID from the original notification.
    let userInfo = response.notification.request.content.userInfo

    if response.notification.request.content.categoryIdentifier == "MEETING_INVITATION" {
      // Retrieve the meeting details.
      let meetingID = userInfo["MEETING_ID"] as! String
      let userID = userInfo["USER_ID"] as! String

      switch response.actionIdentifier {
      case "ACCEPT_ACTION":
        sharedMeetingManager.acceptMeeting(
          user: userID,
          meetingID: meetingID)
        break

      case "DECLINE_ACTION":
        sharedMeetingManager.declineMeeting(
          user: userID,
          meetingID: meetingID)
        break

      case UNNotificationDefaultActionIdentifier,
        UNNotificationDismissActionIdentifier:
        // Queue meeting-related notifications for later
        //  if the user does not act.
        break

      default:
        break
      }
    } else {
      // Handle other notification types...
    }

    // Always call the completion handler when done.
    completionHandler()
  }

  func userNotificationCenter(
    _ center: UNUserNotificationCenter,
    willPresent notification: UNNotification,
    withCompletionHandler completionHandler:
      @escaping (UNNotificationPresentationOptions) -> Void
  ) {
    presented.append(notification.request.identifier)
    if notification.request.content.categoryIdentifier == "MEETING_INVITATION" {
      // Play a sound to let the user know about the invitation.
      completionHandler(.sound)
      return
    } else {
      // Handle other notification types...
    }

    // Show the notification as a banner and in Notification Center.
    completionHandler([.banner, .list])
  }
}
