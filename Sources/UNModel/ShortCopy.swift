/// Copies of short byte runs (identifiers, titles, log values), shared by the pending
/// record's layout and the event log line: up to sixteen bytes with two overlapping
/// moves, more with `memmove`, whose call costs more than the copy of a short field.
public enum ShortCopy {
  /// Copies `n` bytes from `from` to `to` (the ranges do not overlap).
  @inlinable @inline(__always)
  public static func copy(_ from: UnsafePointer<UInt8>, _ n: Int, to: UnsafeMutablePointer<UInt8>) {
    let source = UnsafeRawPointer(from)
    let target = UnsafeMutableRawPointer(to)
    if n >= 8, n <= 16 {
      let head = source.loadUnaligned(as: UInt64.self)
      let tail = source.loadUnaligned(fromByteOffset: n - 8, as: UInt64.self)
      target.storeBytes(of: head, as: UInt64.self)
      target.storeBytes(of: tail, toByteOffset: n - 8, as: UInt64.self)
    } else if n >= 4, n < 8 {
      let head = source.loadUnaligned(as: UInt32.self)
      let tail = source.loadUnaligned(fromByteOffset: n - 4, as: UInt32.self)
      target.storeBytes(of: head, as: UInt32.self)
      target.storeBytes(of: tail, toByteOffset: n - 4, as: UInt32.self)
    } else if n > 0, n < 4 {
      to[0] = from[0]
      to[n / 2] = from[n / 2]
      to[n - 1] = from[n - 1]
    } else if n > 16 {
      to.update(from: from, count: n)
    }
  }
}
