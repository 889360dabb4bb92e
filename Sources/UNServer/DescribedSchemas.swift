import JSONRPC
import UNProtocol

/// The schemas that the shapes describe.  `scripts/gen-openrpc-swift.py` compiles
/// `proto-docs/openrpc.json` without their properties (and with `fieldListMarker` where
/// the description lists field names); `OpenRPCDocument.value` puts them back from
/// here, so the served document is the file's and the file is checked against the
/// shapes (`OpenRPCTests`).
enum DescribedSchemas {
  /// Each schema's place under `components.schemas` ("Sound/oneOf/1": the second
  /// variant of Sound); the generator lists the same places.
  static let all: [(place: String, schema: DescribedSchema)] = [
    ("Content", ContentShape.schema),
    ("Category", CategoryShape.schema),
    ("Action", ActionShape.schema),
    ("TextInput", ActionShape.textInputSchema),
    ("Sound/oneOf/1", SoundShape.schema),
    ("Attachment", AttachmentShape.schema),
    ("TimeIntervalTrigger", TriggerShape.timeIntervalSchema),
    ("CalendarTrigger", TriggerShape.calendarSchema),
    ("PushTrigger", TriggerShape.pushSchema),
    ("DateComponents", TriggerShape.dateComponentsSchema),
    ("Request", RequestShape.schema),
    ("Notification", NotificationShape.schema),
    ("Response", NotificationShape.responseSchema),
    ("Group", NotificationShape.groupSchema),
    ("ApnsPayload/properties/aps/properties/alert/oneOf/1", RemotePayload.alertSchema),
  ]

  /// What the compiled description holds instead of its list of field names.
  static let fieldListMarker = "{fields}"

  /// The document with every described schema's properties put back after its "type".
  static func splice(into document: JSONValue) -> JSONValue {
    var document = document
    for (place, schema) in all {
      let steps = ["components", "schemas"] + place.split(separator: "/").map(String.init)
      document = update(document, at: steps[...]) { restore(schema, into: $0) }
    }
    return document
  }

  private static func restore(_ schema: DescribedSchema, into value: JSONValue) -> JSONValue {
    guard case .object(let members) = value else { return value }
    var out: [JSONMember] = []
    out.reserveCapacity(members.count + 1)
    for member in members {
      switch member.name {
      case "description":
        let text = member.value.stringValue ?? ""
        out.append(JSONMember("description", .string(text.replacing(fieldListMarker, with: schema.fieldList))))
      default:
        out.append(member)
      }
      if member.name == "type", let properties = schema.properties {
        out.append(JSONMember("properties", .object(properties)))
      }
    }
    return .object(out)
  }

  private static func update(
    _ value: JSONValue, at steps: ArraySlice<String>, _ change: (JSONValue) -> JSONValue
  ) -> JSONValue {
    guard let step = steps.first else { return change(value) }
    let rest = steps.dropFirst()
    switch value {
    case .object(var members):
      for i in members.indices where members[i].name == step {
        members[i].value = update(members[i].value, at: rest, change)
      }
      return .object(members)
    case .array(var elements):
      guard let i = Int(step), elements.indices.contains(i) else { return value }
      elements[i] = update(elements[i], at: rest, change)
      return .array(elements)
    default:
      return value
    }
  }
}
