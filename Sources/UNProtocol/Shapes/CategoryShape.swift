import JSONRPC
import UNModel

/// The category shape (UNNotificationCategory): read from the tree, written as bytes,
/// and its OpenRPC properties.
public enum CategoryShape {
  public static let names = schema.names

  /// `stored`: read back from the store (`Params.stored`).
  public static func decode(_ values: [JSONValue], path: String, stored: Bool = false) throws(RPCError) -> [Category] {
    var out: [Category] = []
    out.reserveCapacity(values.count)
    for (i, v) in values.enumerated() {
      let p = try Params(v, path: "\(path)[\(i)]", allowed: names, stored: stored)
      var actions: [Action] = []
      for (j, a) in (try p.array("actions") ?? []).enumerated() {
        actions.append(try ActionShape.decode(a, path: p.field("actions") + "[\(j)]", stored: stored))
      }
      out.append(
        Category(
          identifier: try p.requiredIdentifier("identifier", nonEmpty: false), actions: actions,
          intentIdentifiers: try p.identifierArray("intentIdentifiers") ?? [],
          hiddenPreviewsBodyPlaceholder: try p.string("hiddenPreviewsBodyPlaceholder"),
          categorySummaryFormat: try p.string("categorySummaryFormat"),
          options: try p.enumArray("options", CategoryOption.self) ?? []))
    }
    return out
  }

  public static func encode(_ c: Category, _ o: inout [UInt8]) {
    WireBytes.member(#"{"identifier":"#, c.identifier, &o)
    WireBytes.key(#","actions":"#, &o)
    ActionShape.encode(c.actions, &o)
    WireBytes.key(#","intentIdentifiers":"#, &o)
    WireBytes.array(c.intentIdentifiers, &o) { WireBytes.string($0, &$1) }
    if let p = c.hiddenPreviewsBodyPlaceholder {
      WireBytes.member(#","hiddenPreviewsBodyPlaceholder":"#, p, &o)
    }
    if let f = c.categorySummaryFormat {
      WireBytes.member(#","categorySummaryFormat":"#, f, &o)
    }
    WireBytes.key(#","options":"#, &o)
    WireBytes.array(c.options, &o) { WireBytes.string($0.rawValue, &$1) }
    o.append(UInt8(ascii: "}"))
  }

  /// `[category, ...]`.
  public static func encode(_ list: [Category], _ o: inout [UInt8]) {
    WireBytes.array(list, &o) { encode($0, &$1) }
  }

  public static let schema = DescribedSchema(
    [
      "identifier": .of(
        "string", ["minLength": .int(1)],
        "A non-empty identifier, compared as its exact UTF-8 (case and Unicode spelling count); U+0000 is refused."),
      "actions": .array(
        .ref("Action"), "The category's actions in display order (default []); at most maxActionsPerCategory (64)."),
      "intentIdentifiers": .array(.of("string"), "Default []."),
      "hiddenPreviewsBodyPlaceholder": .of("string", "Omitted in output when not set."),
      "categorySummaryFormat": .of(
        "string",
        "Replaces the default group summary wording: %u (also %d, %i, %lu, %ld, positional %1$u) is the count, %@ the joined summary arguments, %% a percent sign. Omitted in output when not set."
      ),
      "options": .array(
        .oneOf(CategoryOption.allCases.map(\.rawValue)), unique: true,
        "UNNotificationCategoryOptions, order kept, no repeats (default [])."),
    ], fieldList: DescribedSchema.prose(["identifier", "actions", "intentIdentifiers", "options"]))
}
