/// A test harness that could not do its part (no binary, no socket, a failed call).
public struct HarnessError: Error, CustomStringConvertible {
  public var description: String
  public init(_ description: String) { self.description = description }
}
