/// The center's effects in the order they must be executed: appended by the model, and
/// moved out one at a time by the server.  An array was copied element by element when
/// the server walked it, and emptied through a generic `replaceSubrange` afterwards, for
/// the one event of every `scheduleLocal` (see BENCHMARKS.md).
///
/// Not thread-safe: it belongs to the center, on the loop thread.
public final class EffectQueue {
  // Stored properties are `@exclusivity(unchecked)`: the loop thread alone touches the queue,
  // so the run-time exclusivity checks have nothing to catch, and they cost every request
  // (BENCHMARKS.md, "Exclusivity checks").

  /// `capacity` slots; those in `head..<end` are initialized.
  @exclusivity(unchecked) private var base: UnsafeMutablePointer<Effect>
  @exclusivity(unchecked) private var capacity = 16
  @exclusivity(unchecked) private var head = 0
  @exclusivity(unchecked) private var end = 0

  init() { base = .allocate(capacity: capacity) }

  deinit {
    (base + head).deinitialize(count: end - head)
    base.deallocate()
  }

  /// Effects waiting.
  public var count: Int { end - head }

  public var isEmpty: Bool { head == end }

  func append(_ effect: consuming Effect) {
    if end == capacity { makeRoom() }
    (base + end).initialize(to: effect)
    end += 1
  }

  /// The oldest effect, moved out; nil when none waits.
  public func popFirst() -> Effect? {
    guard head < end else { return nil }
    return removeFirst()
  }

  /// The oldest effect, moved out; one must wait.  Not an optional, for the server's
  /// loop over `count` effects: it destroyed the emptied `Optional<Effect>` through the
  /// runtime's generic value witnesses, once per effect (see BENCHMARKS.md).
  public func removeFirst() -> Effect {
    precondition(head < end, "no effect waits")
    let effect = (base + head).move()
    head += 1
    if head == end {
      head = 0
      end = 0
    }
    return effect
  }

  /// Every waiting effect, oldest first, moved into an array.
  func takeAll() -> [Effect] {
    var all: [Effect] = []
    all.reserveCapacity(count)
    while let effect = popFirst() { all.append(effect) }
    return all
  }

  /// Slides the waiting effects to the front when that frees at least half, else moves
  /// them to an allocation twice the size.
  private func makeRoom() {
    let live = end - head
    if head > 0, live <= capacity / 2 {
      base.moveInitialize(from: base + head, count: live)
    } else {
      capacity *= 2
      let grown = UnsafeMutablePointer<Effect>.allocate(capacity: capacity)
      grown.moveInitialize(from: base + head, count: live)
      base.deallocate()
      base = grown
    }
    head = 0
    end = live
  }
}
