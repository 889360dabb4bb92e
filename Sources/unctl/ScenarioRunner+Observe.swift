import JSONRPC

/// Recording for the HTML report: what reached each connection during a step, and what
/// the phone's notification list and badge showed after it.
extension ScenarioRunner {
  /// Calls that change nothing a user sees: no new picture after them.
  static let readOnlyMethods: Set<String> = [
    "getCategories", "getNotificationSettings", "listPending", "listDelivered", "getBadgeCount", "ping", "stats",
    "rpc.discover", "waitFor", "watch", "hello",
  ]

  /// After step `i`: the callbacks that came (callbacks caused by a call are written
  /// before its response, so they are already here), then the screens if they changed.
  func observe(after i: Int) {
    do {
      for alias in order {
        guard let p = participants[alias] else { continue }
        try p.pull(timeout: 0.001)
        let from = reported[alias] ?? 0
        for entry in p.inbox[from...] {
          let m = entry.message
          record.steps[i].callbacks.append(
            Delivery(
              alias: alias, appId: scenario.apps.first { $0.alias == alias }?.appId ?? alias,
              method: m["method"]?.stringValue ?? "?", params: m["params"] ?? .null))
        }
        reported[alias] = p.inbox.count
      }
      let step = scenario.steps[i]
      if step["advance"] != nil || step["call"]?.stringValue.map({ !Self.readOnlyMethods.contains($0) }) == true {
        let screens = try screens()
        if screens != lastScreens {
          record.steps[i].screens = screens
          lastScreens = screens
        }
      }
    } catch {
      // The connection broke: the step's own outcome already says so.
    }
  }

  /// The screens before the first step, so the first picture drawn is a change.
  func observeStart() {
    lastScreens = (try? screens()) ?? []
  }

  /// Every app the scenario names (declared or in a call's `app` param), in order.
  var appIds: [String] {
    var ids: [String] = []
    for app in scenario.apps { if let id = app.appId, !ids.contains(id) { ids.append(id) } }
    for step in scenario.steps {
      if let id = step["params"]?["app"]?.stringValue, !ids.contains(id) { ids.append(id) }
    }
    return ids
  }

  /// Each app's delivered notifications grouped by thread, and its badge.
  func screens() throws -> [AppScreen] {
    guard let user = participants["user"] else { return [] }
    var out: [AppScreen] = []
    for appId in appIds {
      let app = JSONValue.object(["app": .string(appId)])
      let groups = try user.connection.call("listDelivered", .object(["app": .string(appId), "grouped": .bool(true)]))
      let badge = try user.connection.call("getBadgeCount", app)
      guard case .success(let list) = groups else { continue }
      let count = (try? badge.get())?["count"]?.intValue ?? 0
      out.append(AppScreen(appId: appId, badge: count, groups: list["groups"]?.arrayValue ?? []))
    }
    return out
  }
}
