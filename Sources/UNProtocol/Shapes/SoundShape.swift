import JSONRPC
import UNModel

/// The sound shape (proto-docs/README.md, "Shapes"): `"default"`, a sound file's name, or
/// `{name?, critical, volume?}` for any other sound.  Read from the tree, written as
/// bytes, and the object variant's OpenRPC properties.
public enum SoundShape {
  public static let names = schema.names

  /// `content.sound` of `p`, or nil when absent or null.
  public static func decode(_ p: Params) throws(RPCError) -> Sound? {
    switch p.value("sound") {
    case nil: return nil
    case .string(let s)?: return s == "default" ? .default : .named(s)
    case .object?:
      let o = try p.object("sound", allowed: names)!
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

  /// The string form for a plain sound (so outputs without critical sounds are
  /// unchanged), the object form otherwise.
  public static func encode(_ s: Sound, _ o: inout [UInt8]) {
    guard !s.isPlain else { return WireBytes.string(s.wireName, &o) }
    o.append(UInt8(ascii: "{"))
    if let n = s.name {
      WireBytes.member(#""name":"#, n, &o)
      o.append(UInt8(ascii: ","))
    }
    WireBytes.key(s.critical ? #""critical":true"# : #""critical":false"#, &o)
    if let v = s.volume {
      WireBytes.key(#","volume":"#, &o)
      WireBytes.number(.double(v), &o)
    }
    o.append(UInt8(ascii: "}"))
  }

  /// The properties of Sound's object variant.
  public static let schema = DescribedSchema([
    "name": .of("string", "The sound file's name; absent = the default sound."),
    "critical": .of(
      "boolean",
      "A critical alert sound (defaultCritical, criticalSoundNamed(_:)); default false. Delivered as critical only when the app's criticalAlertSetting is enabled, otherwise as a normal sound."
    ),
    "volume": .of(
      "number", ["minimum": .int(0), "maximum": .int(1)],
      "defaultCriticalSound(withAudioVolume:) / criticalSoundNamed(_:withAudioVolume:). Out of 0...1: -32602 naming content.sound.volume."
    ),
  ])
}
