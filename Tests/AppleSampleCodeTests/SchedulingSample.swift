import Foundation
import UserNotifications

// Apple's "Scheduling a notification locally from your app" and "Asking permission to
// use notifications", as the articles write them (wrapped in functions so that a test
// can call them and see the outcome).

func scheduleWeeklyStaffMeeting(
  identifier uuidString: String = UUID().uuidString,
  done: @escaping ((any Error)?) -> Void
) {
  let content = UNMutableNotificationContent()
  content.title = "Weekly Staff Meeting"
  content.body = "Every Tuesday at 2pm"

  // Configure the recurring date.
  var dateComponents = DateComponents()
  dateComponents.calendar = Calendar.current

  dateComponents.weekday = 3  // Tuesday
  dateComponents.hour = 14  // 14:00 hours

  // Create the trigger as a repeating event.
  let trigger = UNCalendarNotificationTrigger(
    dateMatching: dateComponents, repeats: true)

  // Create the request
  let request = UNNotificationRequest(
    identifier: uuidString,
    content: content, trigger: trigger)

  // Schedule the request with the system.
  let notificationCenter = UNUserNotificationCenter.current()
  notificationCenter.add(request) { (error) in
    if error != nil {
      // Handle any errors.
    }
    done(error)
  }
}

func askPermission(done: @escaping (Bool, (any Error)?) -> Void) {
  let center = UNUserNotificationCenter.current()
  center.requestAuthorization(options: [.alert, .sound, .badge]) { granted, error in

    if let error = error {
      // Handle the error here.
      _ = error
    }

    // Enable or disable features based on the authorization.
    done(granted, error)
  }
}

func askPermissionAsync() async -> Bool {
  let center = UNUserNotificationCenter.current()
  do {
    try await center.requestAuthorization(options: [.alert, .sound, .badge])
  } catch {
    // Handle the error here.
    return false
  }
  return true
}

func checkSettings(done: @escaping (String) -> Void) {
  let center = UNUserNotificationCenter.current()
  center.getNotificationSettings { settings in
    guard (settings.authorizationStatus == .authorized) || (settings.authorizationStatus == .provisional) else {
      return done("not authorized")
    }

    if settings.alertSetting == .enabled {
      // Schedule an alert-only notification.
      done("alert")
    } else {
      // Schedule a notification with a badge and sound.
      done("badge and sound")
    }
  }
}
