import Foundation

/// Where the blocks and the live progress line go: standard output, flushed per block;
/// on a terminal the progress line `[12/340] passed 11, failed 1` stays at the bottom.
struct Console {
  var total: Int
  var live: Bool

  func block(_ text: String) {
    if live { print("\r\u{1B}[K", terminator: "") }
    print(text, terminator: "")
    fflush(nil)
  }

  func progress(_ finished: Int, _ passed: Int, _ failed: Int) {
    guard live else { return }
    print("\r\u{1B}[K[\(finished)/\(total)] passed \(passed), failed \(failed)", terminator: "")
    fflush(nil)
  }

  func finish() {
    if live {
      print("\r\u{1B}[K", terminator: "")
      fflush(nil)
    }
  }
}
