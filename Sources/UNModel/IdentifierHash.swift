/// SipHash-1-3 of a byte string under a key drawn at random once per process: the hash
/// of a pending identifier (`PendingIndex.hash`).
///
/// The same function as `Hasher` computes (SipHash-1-3, random key), so clients still
/// cannot choose identifiers that collide; written out for bytes alone, without
/// `Hasher`'s buffering, its seeding per instance and its calls into the runtime, it
/// costs much less for a short identifier (see BENCHMARKS.md).
enum IdentifierHash {
  /// The process's key.
  private static let key: (UInt64, UInt64) = {
    var g = SystemRandomNumberGenerator()
    return (g.next(), g.next())
  }()

  static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    Int(truncatingIfNeeded: hash(bytes, key: key))
  }

  /// SipHash-1-3 of `bytes` under `key` (little-endian words, the length in the last
  /// byte of the final word), as its reference implementation computes it.
  @inline(__always)
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>, key: (UInt64, UInt64)) -> UInt64 {
    var s = State(key)
    let n = bytes.count
    var last = UInt64(truncatingIfNeeded: n) << 56
    if let base = bytes.baseAddress.map(UnsafeRawPointer.init) {
      var i = 0
      while i + 8 <= n {
        s.compress(UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self)))
        i += 8
      }
      let rest = n - i
      if rest > 0, n >= 8 {
        // The final bytes as the high part of the word that ends the string.
        let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self))
        last |= word >> UInt64(8 * (8 - rest))
      } else {
        var shift: UInt64 = 0
        while i < n {
          last |= UInt64(base.load(fromByteOffset: i, as: UInt8.self)) << shift
          shift += 8
          i += 1
        }
      }
    }
    s.compress(last)
    return s.finalize()
  }

  private struct State {
    var v0: UInt64 = 0x736f_6d65_7073_6575
    var v1: UInt64 = 0x646f_7261_6e64_6f6d
    var v2: UInt64 = 0x6c79_6765_6e65_7261
    var v3: UInt64 = 0x7465_6462_7974_6573

    @inline(__always)
    init(_ key: (UInt64, UInt64)) {
      v0 ^= key.0
      v1 ^= key.1
      v2 ^= key.0
      v3 ^= key.1
    }

    @inline(__always)
    mutating func compress(_ m: UInt64) {
      v3 ^= m
      round()
      v0 ^= m
    }

    @inline(__always)
    mutating func finalize() -> UInt64 {
      v2 ^= 0xff
      round()
      round()
      round()
      return v0 ^ v1 ^ v2 ^ v3
    }

    @inline(__always)
    mutating func round() {
      v0 &+= v1
      v1 = rotate(v1, 13)
      v1 ^= v0
      v0 = rotate(v0, 32)
      v2 &+= v3
      v3 = rotate(v3, 16)
      v3 ^= v2
      v0 &+= v3
      v3 = rotate(v3, 21)
      v3 ^= v0
      v2 &+= v1
      v1 = rotate(v1, 17)
      v1 ^= v2
      v2 = rotate(v2, 32)
    }

    @inline(__always)
    private func rotate(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
  }
}
