import CLibUV

extension StreamConnection {
  /// The supplementary groups of the process on the other end, as the kernel recorded
  /// them when it connected (SO_PEERGROUPS), or nil when unavailable (a kernel before
  /// 4.13, a closing stream).  Read when needed rather than at accept: only a client
  /// whose file the daemon opens needs them, and they do not change after connect.
  public func peerGroups() -> [UInt32]? {
    guard let fd = fileDescriptor else { return nil }
    var capacity: UInt32 = 32
    while true {
      var groups = [UInt32](repeating: 0, count: Int(capacity))
      var count = capacity
      let r = groups.withUnsafeMutableBufferPointer { uncenter_peergroups(fd, $0.baseAddress, &count) }
      if r == 0 { return Array(groups.prefix(Int(min(count, capacity)))) }
      // ERANGE: `count` says how many there are (at most NGROUPS_MAX, 65536).
      guard r == -ERANGE, count > capacity, count <= 65536 else { return nil }
      capacity = count
    }
  }
}
