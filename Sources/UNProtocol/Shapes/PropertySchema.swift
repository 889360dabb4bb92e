import JSONRPC

/// The OpenRPC schema of one property, built as `proto-docs/openrpc.json` writes it
/// (the type, then its constraints, then the description), so that each shape carries
/// its own schemas and `OpenRPCDocument` serves the file's document from them.
public struct PropertySchema: Sendable {
  public let value: JSONValue

  /// `{"type": type, constraints..., "description": description}`.
  public static func of(
    _ type: String, _ constraints: KeyValuePairs<String, JSONValue> = [:], _ description: String? = nil
  ) -> PropertySchema {
    var m = [JSONMember("type", .string(type))]
    m += constraints.map { JSONMember($0.key, $0.value) }
    return described(m, description)
  }

  /// `{"type": type, "description": description}`.
  public static func of(_ type: String, _ description: String) -> PropertySchema { of(type, [:], description) }

  /// `{"$ref": "#/components/schemas/<schema>", "description": description}`.
  public static func ref(_ schema: String, _ description: String? = nil) -> PropertySchema {
    described([JSONMember("$ref", .string("#/components/schemas/\(schema)"))], description)
  }

  /// An array of `items`; `unique` when repeats are refused.
  public static func array(_ items: PropertySchema, unique: Bool = false, _ description: String? = nil)
    -> PropertySchema
  {
    var m = [JSONMember("type", .string("array")), JSONMember("items", items.value)]
    if unique { m.append(JSONMember("uniqueItems", .bool(true))) }
    return described(m, description)
  }

  /// A string that is one of `names`.
  public static func oneOf(_ names: [String]) -> PropertySchema {
    PropertySchema(
      value: .object([JSONMember("type", .string("string")), JSONMember("enum", .array(names.map { .string($0) }))]))
  }

  /// `{"const": value}`: the member that tells a tagged shape's variants apart.
  public static func constant(_ value: String) -> PropertySchema {
    PropertySchema(value: .object([JSONMember("const", .string(value))]))
  }

  private static func described(_ members: [JSONMember], _ description: String?) -> PropertySchema {
    guard let description else { return PropertySchema(value: .object(members)) }
    return PropertySchema(value: .object(members + [JSONMember("description", .string(description))]))
  }
}
