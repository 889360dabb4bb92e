import Foundation

/// A small tmpfs mounted on a fresh directory, for the full-disk cases: `fill` takes all
/// its free space but `leaving` bytes, `free` gives the filler back.  Needs root (mount);
/// `make` returns nil, with the reason, where it cannot mount.
public final class SmallFilesystem {
  public let path: String
  private var mounted = true
  private var fillers = 0

  /// Mounts a tmpfs of `bytes` on a new directory under /tmp.
  public static func make(bytes: Int) throws -> (SmallFilesystem?, reason: String) {
    guard getuid() == 0 else { return (nil, "needs root to mount a tmpfs") }
    let directory = try DaemonProcess.makeTemporaryDirectory()
    let status = run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes),mode=0700", "tmpfs", directory])
    guard status == 0 else {
      rmdir(directory)
      return (nil, "mount -t tmpfs failed with status \(status)")
    }
    return (SmallFilesystem(path: directory), "")
  }

  private init(path: String) { self.path = path }

  deinit { unmount() }

  /// Bytes the file system has free.
  public var freeBytes: Int {
    var info = statvfs()
    guard statvfs(path, &info) == 0 else { return 0 }
    return Int(info.f_bavail) * Int(info.f_frsize)
  }

  /// Writes filler files until at most `leaving` bytes are free.
  public func fill(leaving: Int = 0) {
    let chunk = [UInt8](repeating: 0x5a, count: 4096)
    fillers += 1
    let fd = open(path + "/filler-\(fillers)", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    guard fd >= 0 else { return }
    defer { close(fd) }
    while freeBytes > leaving {
      let n = chunk.withUnsafeBytes { write(fd, $0.baseAddress, min($0.count, max(1, freeBytes - leaving))) }
      if n <= 0 { break }
    }
  }

  /// Removes every filler file.
  public func free() {
    for i in 0...fillers { unlink(path + "/filler-\(i)") }
  }

  public func unmount() {
    guard mounted else { return }
    mounted = false
    _ = Self.run("/bin/umount", ["-l", path])
    try? FileManager.default.removeItem(atPath: path)
  }

  @discardableResult
  static func run(_ tool: String, _ arguments: [String]) -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: tool)
    p.arguments = arguments
    p.standardOutput = FileHandle.nullDevice
    p.standardError = FileHandle.nullDevice
    do { try p.run() } catch { return -1 }
    p.waitUntilExit()
    return p.terminationStatus
  }
}
