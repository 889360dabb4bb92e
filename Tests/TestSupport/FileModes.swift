import Foundation

/// The permission bits and owners of what a directory holds, read with `lstat` (a symbolic
/// link is reported as one and never followed), for tests of the state directory's privacy.
public enum FileModes {
  public struct Entry: Equatable, CustomStringConvertible {
    public var mode: mode_t
    public var owner: uid_t
    public var isDirectory: Bool
    public var isSymlink: Bool
    public var description: String {
      (isSymlink ? "link " : isDirectory ? "dir " : "") + String(format: "%04o", mode) + " uid \(owner)"
    }
  }

  /// The entry at `path` itself, or nil when there is none.
  public static func entry(_ path: String) -> Entry? {
    var st = stat()
    guard lstat(path, &st) == 0 else { return nil }
    let type = st.st_mode & S_IFMT
    return Entry(mode: st.st_mode & 0o7777, owner: st.st_uid, isDirectory: type == S_IFDIR, isSymlink: type == S_IFLNK)
  }

  /// `directory` itself (as ".") and everything under it, by path relative to it.
  public static func tree(_ directory: String) -> [String: Entry] {
    var out: [String: Entry] = [:]
    if let root = entry(directory) { out["."] = root }
    func walk(_ relative: String) {
      let path = relative.isEmpty ? directory : directory + "/" + relative
      for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
        let child = relative.isEmpty ? name : relative + "/" + name
        guard let e = entry(directory + "/" + child) else { continue }
        out[child] = e
        if e.isDirectory { walk(child) }
      }
    }
    walk("")
    return out
  }

  /// The entries of `tree(directory)` that are not private: directories not 0700, files
  /// not 0600 (symbolic links are not counted: their own mode means nothing on Linux).
  public static func notPrivate(_ directory: String) -> [String: Entry] {
    tree(directory).filter { !$0.value.isSymlink && $0.value.mode != ($0.value.isDirectory ? 0o700 : 0o600) }
  }

  /// Sets the mode of `directory` and of everything under it (links excepted), as an
  /// older daemon or an operator's `mkdir` under a looser umask would have left them.
  public static func loosen(_ directory: String, directories: mode_t, files: mode_t) {
    for (relative, e) in tree(directory) where !e.isSymlink {
      chmod(relative == "." ? directory : directory + "/" + relative, e.isDirectory ? directories : files)
    }
  }
}
