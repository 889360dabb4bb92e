import Foundation

/// Python 3 run by a test to make what the daemon's own code never writes: an old or a
/// corrupt database, a schema from the future.
public enum Python {
  /// Runs `python3 -c script arguments...` to its end and returns its exit status.
  @discardableResult
  public static func run(_ script: String, _ arguments: String...) throws -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", script] + arguments
    try p.run()
    p.waitUntilExit()
    return p.terminationStatus
  }
}
