/// Where the daemon listens and its clients connect (proto-docs/README.md, "Transport"):
/// `--socket PATH`, else `$UNCENTER_SOCKET`, else `$XDG_RUNTIME_DIR/uncenterd.sock`, else
/// `/tmp/uncenterd-$UID.sock`.  One function, so the daemon, `unctl` and the client library
/// can never disagree.
public enum SocketPath {
  public static func resolve(explicit: String?, environment: [String: String], uid: UInt32) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    if let path = environment["UNCENTER_SOCKET"], !path.isEmpty { return path }
    if let dir = environment["XDG_RUNTIME_DIR"], !dir.isEmpty {
      return dir.hasSuffix("/") ? dir + "uncenterd.sock" : dir + "/uncenterd.sock"
    }
    return "/tmp/uncenterd-\(uid).sock"
  }
}
