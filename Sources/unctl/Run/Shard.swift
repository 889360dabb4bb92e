import Foundation

/// `--shard I/N`: which of the given scenario files this CI job runs.  A file belongs to
/// shard `fnv1a64(path relative to the working directory) % N + 1`, so the N jobs of a
/// CI matrix split the set exactly (every file in one shard, none in two) without talking
/// to each other, and adding a file never moves the others to another shard.  The hash is
/// FNV-1a, written out here, because Swift's `Hasher` is seeded per process.
struct Shard: Equatable, Sendable {
  /// 1-based, as GitLab's `CI_NODE_INDEX` and a `strategy.matrix` list of 1...N.
  var index: Int
  var count: Int

  /// Parses `I/N` with 1 ≤ I ≤ N; the error says which part was wrong.
  init(parsing text: String) throws(RunUsageError) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else {
      throw RunUsageError("--shard needs I/N (for example 2/4), got '\(text)'")
    }
    guard n >= 1 else { throw RunUsageError("--shard \(text): N must be at least 1") }
    guard (1...n).contains(i) else { throw RunUsageError("--shard \(text): I must be between 1 and \(n)") }
    self.init(index: i, count: n)
  }

  init(index: Int, count: Int) {
    self.index = index
    self.count = count
  }

  /// Whether `file` is in this shard.
  func contains(_ file: String, workingDirectory: String = FileManager.default.currentDirectoryPath) -> Bool {
    Self.shardIndex(of: file, count: count, workingDirectory: workingDirectory) == index
  }

  /// The files of this shard, in the order given.
  func select(_ files: [String], workingDirectory: String = FileManager.default.currentDirectoryPath) -> [String] {
    files.filter { contains($0, workingDirectory: workingDirectory) }
  }

  /// The 1-based shard of `file` among `count`.
  static func shardIndex(of file: String, count: Int, workingDirectory: String) -> Int {
    let key = relativePath(file, to: workingDirectory)
    return Int(fnv1a64(Array(key.utf8)) % UInt64(count)) + 1
  }

  /// 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
  static func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    return hash
  }

  /// `path` relative to `directory` when it lies below it, lexically normalized (`.`,
  /// `..`, repeated slashes), so `a.json`, `./a.json` and `$PWD/a.json` land together;
  /// otherwise the normalized absolute path.  Symbolic links are not followed: CI
  /// machines check out to different places, the relative spelling is what they share.
  static func relativePath(_ path: String, to directory: String) -> String {
    let absolute = path.hasPrefix("/") ? path : directory + "/" + path
    let normal = normalize(absolute)
    let base = normalize(directory)
    if base == "/" { return String(normal.dropFirst()) }
    if normal.hasPrefix(base + "/") { return String(normal.dropFirst(base.count + 1)) }
    return normal
  }

  private static func normalize(_ absolute: String) -> String {
    var parts: [Substring] = []
    for part in absolute.split(separator: "/") {
      switch part {
      case ".": continue
      case "..": _ = parts.popLast()
      default: parts.append(part)
      }
    }
    return "/" + parts.joined(separator: "/")
  }
}
