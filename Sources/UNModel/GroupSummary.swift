/// A thread's delivered notifications as Notification Center stacks them (rule 8).
public struct DeliveredGroup: Sendable, Hashable {
  /// The thread; empty for the app's own group.
  public var threadIdentifier: String
  /// Newest first; the first is the one shown on top.
  public var notifications: [DeliveredNotification]
  public var summary: String

  public var count: Int { notifications.count }
}

extension Center {
  /// Delivered notifications grouped by thread, the most recent group first.
  public func deliveredGroups(app appId: String) -> [DeliveredGroup] {
    let all = listDelivered(app: appId, after: nil, limit: nil).notifications
    var order: [ExactKey] = []
    var byThread: [ExactKey: [DeliveredNotification]] = [:]
    for n in all {
      let thread = ExactKey(n.request.content.threadIdentifier)
      if byThread[thread] == nil { order.append(thread) }
      byThread[thread, default: []].append(n)
    }
    return order.map { thread in
      let notifications = byThread[thread]!
      return DeliveredGroup(
        threadIdentifier: thread.string, notifications: notifications, summary: GroupSummary.text(for: notifications))
    }
  }
}

/// The summary line under a stack: "5 more notifications from Alice and me".
public enum GroupSummary {
  /// `newestFirst[0]` is shown; the others are counted, each as its
  /// `summaryArgumentCount` items.  Arguments are the distinct non-empty
  /// `summaryArgument`s of the whole group (told apart by their exact text), oldest
  /// first.  A single notification has nothing more to count and no summary ("").
  public static func text(for newestFirst: [DeliveredNotification]) -> String {
    guard let top = newestFirst.first, newestFirst.count > 1 else { return "" }
    let k = newestFirst.dropFirst().reduce(0) { $0 + $1.request.content.summaryArgumentCount }
    var arguments: [String] = []
    for n in newestFirst.reversed() {
      let a = n.request.content.summaryArgument
      if !a.isEmpty, !arguments.contains(where: { $0.exactlyEquals(a) }) { arguments.append(a) }
    }
    let joined = join(arguments)
    if let format = top.category?.categorySummaryFormat, !format.isEmpty {
      return apply(format, count: k, arguments: joined)
    }
    let base = k == 1 ? "1 more notification" : "\(k) more notifications"
    return joined.isEmpty ? base : base + " from " + joined
  }

  /// "A", "A and B", "A, B and C".
  public static func join(_ items: [String]) -> String {
    switch items.count {
    case 0: return ""
    case 1: return items[0]
    default: return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
  }

  /// Fills a `categorySummaryFormat`: `%u` (also `%d`, `%lu`, `%ld`, `%i`) is the count,
  /// `%@` the joined arguments; positional `%1$u` / `%2$@` work too; `%%` is a percent sign.
  public static func apply(_ format: String, count: Int, arguments: String) -> String {
    var out = ""
    var chars = Array(format)[...]
    while let c = chars.popFirst() {
      guard c == "%" else {
        out.append(c)
        continue
      }
      var spec = ""
      while let next = chars.first, next.isNumber || next == "$" || next == "l" {
        spec.append(next)
        chars.removeFirst()
      }
      guard let conversion = chars.popFirst() else {
        out += "%" + spec
        break
      }
      switch conversion {
      case "%": out.append("%")
      case "u", "d", "i": out += String(count)
      case "@": out += arguments
      default: out += "%" + spec + String(conversion)
      }
    }
    return out
  }
}
