/// Identity of the process on the other end of a Unix domain socket, as recorded by the
/// kernel when the connection was made (SO_PEERCRED). Used for authorization decisions,
/// so it is taken from the kernel rather than from anything the client sends.
public struct PeerCredentials: Equatable, Sendable, CustomStringConvertible {
  public let pid: Int32
  public let uid: UInt32
  public let gid: UInt32

  public init(pid: Int32, uid: UInt32, gid: UInt32) {
    self.pid = pid
    self.uid = uid
    self.gid = gid
  }

  public var description: String { "pid=\(pid) uid=\(uid) gid=\(gid)" }
}
