/// A dictionary from identifier (its exact bytes, `ExactKey`) to value split into 64
/// smaller dictionaries by a cheap hash of the key.  A Swift dictionary grows by
/// rehashing every entry at once; for an app with a hundred thousand delivered
/// notifications that is tens of milliseconds in one go, during which no trigger fires.
/// Split, each growth moves a sixty-fourth.
public struct ShardedMap<Value> {
  private static var shardCount: Int { 64 }
  private var shards: [[ExactKey: Value]] = Array(repeating: [:], count: 64)
  public private(set) var count = 0

  public init() {}

  /// FNV-1a over the key's bytes: cheap, and independent of the dictionaries' own hash.
  @inline(__always)
  private static func shard(_ key: String) -> Int {
    var h: UInt32 = 2_166_136_261
    for b in key.utf8 { h = (h ^ UInt32(b)) &* 16_777_619 }
    return Int(h & UInt32(shardCount - 1))
  }

  public var isEmpty: Bool { count == 0 }

  public subscript(key: String) -> Value? {
    get { shards[Self.shard(key)][key] }
    set {
      let s = Self.shard(key)
      if let newValue {
        if shards[s].updateValue(newValue, forKey: ExactKey(key)) == nil { count += 1 }
      } else if shards[s].removeValue(forKey: key) != nil {
        count -= 1
      }
    }
  }

  @discardableResult
  public mutating func removeValue(forKey key: String) -> Value? {
    let removed = shards[Self.shard(key)].removeValue(forKey: key)
    if removed != nil { count -= 1 }
    return removed
  }

  public mutating func removeAll() {
    for i in shards.indices { shards[i].removeAll() }
    count = 0
  }

  public var keys: [String] { shards.flatMap { $0.keys.map(\.string) } }
  public var values: [Value] { shards.flatMap { $0.values } }
}

extension ShardedMap: Sendable where Value: Sendable {}
