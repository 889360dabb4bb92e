import JSONRPC
import UNModel

/// Params → model values.  Type and shape errors are found here (`-32602` with the
/// field); the rules of the domain (unique identifiers, trigger intervals) are the
/// model's own and are checked there.
enum ModelDecoding {
  static let categoryFields = [
    "identifier", "actions", "intentIdentifiers", "hiddenPreviewsBodyPlaceholder", "categorySummaryFormat", "options",
  ]
  static let actionFields = ["identifier", "title", "options", "textInput"]
  static let soundFields = ["name", "critical", "volume"]
  static let attachmentFields = ["identifier", "url", "type"]

  static func categories(_ values: [JSONValue], path: String) throws(RPCError) -> [Category] {
    var out: [Category] = []
    out.reserveCapacity(values.count)
    for (i, v) in values.enumerated() {
      let p = try Params(v, path: "\(path)[\(i)]", allowed: categoryFields)
      var actions: [Action] = []
      for (j, a) in (try p.array("actions") ?? []).enumerated() {
        actions.append(try action(a, path: p.field("actions") + "[\(j)]"))
      }
      out.append(
        Category(
          identifier: try p.requiredString("identifier", nonEmpty: false), actions: actions,
          intentIdentifiers: try p.stringArray("intentIdentifiers") ?? [],
          hiddenPreviewsBodyPlaceholder: try p.string("hiddenPreviewsBodyPlaceholder"),
          categorySummaryFormat: try p.string("categorySummaryFormat"),
          options: try p.enumArray("options", CategoryOption.self) ?? []))
    }
    return out
  }

  static func action(_ value: JSONValue, path: String) throws(RPCError) -> Action {
    let p = try Params(value, path: path, allowed: actionFields)
    var textInput: TextInput?
    if let t = try p.object("textInput", allowed: ["buttonTitle", "placeholder"]) {
      textInput = TextInput(
        buttonTitle: try t.string("buttonTitle") ?? "", placeholder: try t.string("placeholder") ?? "")
    }
    return Action(
      identifier: try p.requiredString("identifier", nonEmpty: false),
      title: try p.requiredString("title", nonEmpty: false),
      options: try p.enumArray("options", ActionOption.self) ?? [], textInput: textInput)
  }

  /// A content object, read field by field as `ContentShape` describes it; an absent or
  /// null field keeps its default.
  static func content(_ value: JSONValue?, path: String = "content") throws(RPCError) -> Content {
    guard let value else { throw RPCError.invalidParams(field: path, "required") }
    let p = try Params(value, path: path, allowed: ContentShape.names)
    var c = Content()
    for f in ContentShape.fields {
      let name = f.key
      switch f.kind {
      case .text(_, let set), .optionalText(_, let set):
        if let v = try p.string(name) { set(&c, v) }
      case .optionalInteger(_, let set), .integer(_, let set, _):
        if let v = try p.int(name) { set(&c, v) }
      case .score(_, let set):
        if let v = try p.double(name) { set(&c, v) }
      case .sound:
        if let s = try sound(p) { c.sound = s }
      case .userInfo:
        guard let info = p.value(name) else { continue }
        guard case .object = info else {
          throw RPCError.invalidParams(field: p.field(name), "expected an object, got \(info.typeName)")
        }
        c.userInfo = JSONText(bytes: info.encoded())
      case .interruptionLevel:
        if let v = try p.enumValue(name, InterruptionLevel.self) { c.interruptionLevel = v }
      case .attachments:
        if let list = try p.array(name) { c.attachments = try attachments(list, path: p.field(name)) }
      }
    }
    return c
  }

  /// `"default"`, a name, or `{name?, critical, volume?}` (SPEC §5 and proto-docs).
  static func sound(_ p: Params) throws(RPCError) -> Sound? {
    switch p.value("sound") {
    case nil: return nil
    case .string(let s)?: return s == "default" ? .default : .named(s)
    case .object?:
      let o = try p.object("sound", allowed: soundFields)!
      let name = try o.string("name")
      let volume = try o.double("volume")
      if let volume, !(volume >= 0 && volume <= 1) {
        throw RPCError.invalidParams(field: o.field("volume"), "must be a number in 0...1, got \(volume)")
      }
      return Sound(name: name == "default" ? nil : name, critical: try o.bool("critical") ?? false, volume: volume)
    case let other?:
      throw RPCError.invalidParams(field: p.field("sound"), "expected a string or an object, got \(other.typeName)")
    }
  }

  /// `[{identifier, url, type?}]`: the shape only; the server checks the files.
  static func attachments(_ list: [JSONValue], path: String) throws(RPCError) -> [Attachment] {
    var out: [Attachment] = []
    for (i, v) in list.enumerated() {
      let a = try Params(v, path: "\(path)[\(i)]", allowed: attachmentFields)
      out.append(
        Attachment(
          identifier: try a.requiredString("identifier", nonEmpty: false), url: try a.requiredString("url"),
          type: try a.string("type")))
    }
    return out
  }

  /// A trigger object, or nil for `null`/absent (deliver now).
  static func trigger(_ value: JSONValue?) throws(RPCError) -> Trigger? {
    guard let value, value != .null else { return nil }
    guard case .object = value else {
      throw RPCError.invalidParams(field: "trigger", "expected an object or null, got \(value.typeName)")
    }
    let type = value["type"]
    switch type {
    case .string("timeInterval")?:
      let p = try Params(value, path: "trigger", allowed: ["type", "timeInterval", "repeats"])
      let seconds = try p.requiredDouble("timeInterval")
      let repeats = try p.bool("repeats") ?? false
      do {
        return .timeInterval(try TimeIntervalTrigger(seconds: seconds, repeats: repeats))
      } catch {
        throw ErrorMapping.rpcError(error)
      }
    case .string("calendar")?:
      let p = try Params(value, path: "trigger", allowed: ["type", "dateMatching", "timeZone", "repeats"])
      guard let m = try p.object("dateMatching", allowed: CalendarTrigger.ranges.map(\.name)) else {
        throw RPCError.invalidParams(field: "trigger.dateMatching", "required")
      }
      let components = CalendarTrigger.Components(
        year: try m.int("year"), month: try m.int("month"), day: try m.int("day"), hour: try m.int("hour"),
        minute: try m.int("minute"), second: try m.int("second"), weekday: try m.int("weekday"))
      let zone = try p.string("timeZone")
      let repeats = try p.bool("repeats") ?? false
      do {
        return .calendar(try CalendarTrigger(dateMatching: components, timeZone: zone, repeats: repeats))
      } catch {
        throw ErrorMapping.rpcError(error)
      }
    case .string(let other)?:
      throw RPCError.invalidParams(field: "trigger.type", "'\(other)' is not one of 'timeInterval', 'calendar'")
    case nil, .null?:
      throw RPCError.invalidParams(field: "trigger.type", "required")
    case let other?:
      throw RPCError.invalidParams(field: "trigger.type", "expected a string, got \(other.typeName)")
    }
  }
}
