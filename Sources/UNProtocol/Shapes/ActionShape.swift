import JSONRPC
import UNModel

/// The action shape (UNNotificationAction; with `textInput`, a
/// UNTextInputNotificationAction): read from the tree, written as bytes, and the
/// OpenRPC properties of Action and TextInput.
public enum ActionShape {
  public static let names = schema.names

  public static func decode(_ value: JSONValue, path: String, stored: Bool = false) throws(RPCError) -> Action {
    let p = try Params(value, path: path, allowed: names, stored: stored)
    var textInput: TextInput?
    if let t = try p.object("textInput", allowed: textInputSchema.names) {
      textInput = TextInput(
        buttonTitle: try t.string("buttonTitle") ?? "", placeholder: try t.string("placeholder") ?? "")
    }
    return Action(
      identifier: try p.requiredIdentifier("identifier", nonEmpty: false),
      title: try p.requiredString("title", nonEmpty: false),
      options: try p.enumArray("options", ActionOption.self) ?? [], textInput: textInput)
  }

  /// `[action, ...]`.
  public static func encode(_ list: [Action], _ o: inout [UInt8]) {
    WireBytes.array(list, &o) { a, o in
      WireBytes.member(#"{"identifier":"#, a.identifier, &o)
      WireBytes.member(#","title":"#, a.title, &o)
      WireBytes.key(#","options":"#, &o)
      WireBytes.array(a.options, &o) { WireBytes.string($0.rawValue, &$1) }
      if let t = a.textInput {
        WireBytes.member(#","textInput":{"buttonTitle":"#, t.buttonTitle, &o)
        WireBytes.member(#","placeholder":"#, t.placeholder, &o)
        o.append(UInt8(ascii: "}"))
      }
      o.append(UInt8(ascii: "}"))
    }
  }

  public static let schema = DescribedSchema(
    [
      "identifier": .of(
        "string", ["minLength": .int(1)],
        "A non-empty identifier, compared as its exact UTF-8 (case and Unicode spelling count); U+0000 is refused."),
      "title": .of("string", "The button title."),
      "options": .array(
        .oneOf(ActionOption.allCases.map(\.rawValue)), unique: true,
        "UNNotificationActionOptions, order kept, no repeats (default [])."),
      "textInput": .ref("TextInput"),
    ], fieldList: "options")

  public static let textInputSchema = DescribedSchema([
    "buttonTitle": .of("string", #"Title of the send button (default "")."#),
    "placeholder": .of("string", #"Placeholder of the text field (default "")."#),
  ])
}
