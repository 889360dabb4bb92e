import Foundation

/// The executables built beside the tests (`uncenterd`, `unctl`), found by walking up
/// from the test bundle, else under the package's `.build/debug`.
public enum BuildProducts {
  /// The path of the built executable `name`.
  public static func path(of name: String) throws -> String {
    let fm = FileManager.default
    var starts = [URL(fileURLWithPath: CommandLine.arguments[0]), Bundle.main.bundleURL]
    starts += Bundle.allBundles.map(\.bundleURL)
    for start in starts {
      var dir = start.standardizedFileURL.deletingLastPathComponent()
      for _ in 0..<8 {
        let candidate = dir.appendingPathComponent(name).path
        if fm.isExecutableFile(atPath: candidate) { return candidate }
        let debug = dir.appendingPathComponent(".build/debug/\(name)").path
        if fm.isExecutableFile(atPath: debug) { return debug }
        dir = dir.deletingLastPathComponent()
      }
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let fallback = root.appendingPathComponent(".build/debug/\(name)").path
    guard fm.isExecutableFile(atPath: fallback) else { throw HarnessError("\(name) not found (build it first)") }
    return fallback
  }

  /// The same as a file URL, for `Process.executableURL`.
  public static func url(of name: String) throws -> URL { URL(fileURLWithPath: try path(of: name)) }
}
