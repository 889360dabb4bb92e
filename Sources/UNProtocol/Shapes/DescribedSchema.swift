import JSONRPC

/// A schema of the OpenRPC document built from a shape's description.
public struct DescribedSchema: Sendable {
  /// The `properties` member, in wire order; nil keeps the file's.
  public let properties: [JSONMember]?
  /// The field names that the description lists (for Content, the fields output always
  /// has), as the description writes them.
  public let fieldList: String

  public init(properties: [JSONMember]?, fieldList: String = "") {
    self.properties = properties
    self.fieldList = fieldList
  }

  /// The property names, in order: the fields a decoder accepts.
  public var names: [String] { properties?.map(\.name) ?? [] }

  /// A shape's properties, written as `["name": .of("string", "..."), ...]`.
  public init(_ properties: KeyValuePairs<String, PropertySchema>, fieldList: String = "") {
    self.init(properties: properties.map { JSONMember($0.key, $0.value.value) }, fieldList: fieldList)
  }

  /// Names as prose: "a", "a and b", "a, b and c".
  public static func prose(_ names: [String]) -> String {
    guard names.count > 1 else { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
  }
}
