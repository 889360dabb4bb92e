import CSystemd
import Glibc
import UVLoop

/// One sd-bus connection driven by the libuv loop: a `Poll` on the bus descriptor for
/// the events sd-bus asks for, a `LoopTimer` for its next timeout, and
/// `sd_bus_process` until it has nothing left after every wake-up.  Only asynchronous
/// calls: nothing here ever waits for the bus.
///
/// Closures reach sd-bus callbacks through `userdata` as retained `BusHandler` boxes,
/// released by the slot's destroy callback (the slots float: the bus owns them).
///
/// Thread confinement: used only on the loop's thread; not `Sendable`.
final class DesktopBus {
  let library: SDBusLibrary
  let loop: EventLoop
  private var bus: OpaquePointer?
  private let poll: Poll
  private let timer: LoopTimer
  private var processing = false
  /// `close()` or a failure seen inside an sd-bus callback: acted on once
  /// `sd_bus_process` has returned (freeing the bus inside it would pull it from under it).
  private var deferredClose = false
  private var deferredFailure: DesktopError?
  /// Called once when the connection breaks (not after `close()`).
  var onDisconnect: ((DesktopError) -> Void)?

  /// Connects to `address` (any D-Bus address), or to the user's session bus when nil
  /// (`$DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus`, as sd-bus looks it up).
  init(loop: EventLoop, library: SDBusLibrary, address: String?) throws(DesktopError) {
    self.loop = loop
    self.library = library
    let fn = library.fn
    var raw: OpaquePointer?
    if let address {
      try Self.check(fn.sd_bus_new(&raw), "sd_bus_new")
      do {
        try Self.check(fn.sd_bus_set_address(raw, address), "sd_bus_set_address")
        try Self.check(fn.sd_bus_set_bus_client(raw, 1), "sd_bus_set_bus_client")
        try Self.check(fn.sd_bus_start(raw), "sd_bus_start")
      } catch {
        _ = fn.sd_bus_close_unref(raw)
        throw error
      }
    } else {
      try Self.check(fn.sd_bus_open_user(&raw), "sd_bus_open_user")
    }
    bus = raw
    let descriptor = fn.sd_bus_get_fd(raw)
    do {
      try Self.check(descriptor, "sd_bus_get_fd")
      poll = try Poll(loop: loop, fileDescriptor: descriptor)
      timer = try LoopTimer(loop: loop)
    } catch let error as DesktopError {
      _ = fn.sd_bus_close_unref(raw)
      throw error
    } catch {
      _ = fn.sd_bus_close_unref(raw)
      throw .bus(operation: "uv_poll_init", errno: EIO)
    }
    rearm()
  }

  /// Closes the poll before the bus closes its descriptor (libuv's rule for polls).
  func close() {
    guard let bus else { return }
    if processing {
      deferredClose = true
      return
    }
    self.bus = nil
    poll.close()
    timer.close()
    _ = library.fn.sd_bus_close_unref(bus)
  }

  deinit { close() }

  // MARK: calls and signals

  /// Sends a method call; `reply` gets the reply message or the error, exactly once
  /// (sd-bus answers pending calls with an error when the connection closes).
  func call(
    destination: String, path: String, interface: String, member: String,
    arguments: (BusMessage) throws(DesktopError) -> Void,
    reply: @escaping (Result<BusMessage, BusCallError>) -> Void
  ) throws(DesktopError) {
    guard let bus else { throw .noBus("the bus connection is closed") }
    let fn = library.fn
    var message: OpaquePointer?
    try Self.check(
      fn.sd_bus_message_new_method_call(bus, &message, destination, path, interface, member),
      "sd_bus_message_new_method_call")
    defer { _ = fn.sd_bus_message_unref(message) }
    try arguments(BusMessage(raw: message!, library: library))
    let handler = BusHandler { [library] raw in
      let m = BusMessage(raw: raw, library: library)
      if fn.sd_bus_message_is_method_error(raw, nil) != 0 {
        let error = fn.sd_bus_message_get_error(raw)
        reply(
          .failure(
            BusCallError(
              name: uncenter_sdbus_error_name(error).map { String(cString: $0) } ?? "unknown",
              message: uncenter_sdbus_error_message(error).map { String(cString: $0) } ?? "")))
      } else {
        reply(.success(m))
      }
    }
    var slot: OpaquePointer?
    let userdata = Unmanaged.passRetained(handler).toOpaque()
    let r = fn.sd_bus_call_async(
      bus, &slot, message,
      { m, userdata, _ in
        BusHandler.invoke(m, userdata)
      }, userdata, 0)
    guard r >= 0 else {
      Unmanaged<BusHandler>.fromOpaque(userdata).release()
      throw .bus(operation: "sd_bus_call_async \(member)", errno: -r)
    }
    adopt(slot)
    rearm()
  }

  /// Subscribes to a signal from any sender (unicast or broadcast both arrive).
  func matchSignal(
    path: String?, interface: String, member: String, _ handler: @escaping (BusMessage) -> Void
  ) throws(DesktopError) {
    guard let bus else { throw .noBus("the bus connection is closed") }
    let box = BusHandler { [library] raw in handler(BusMessage(raw: raw, library: library)) }
    let userdata = Unmanaged.passRetained(box).toOpaque()
    var slot: OpaquePointer?
    let r = library.fn.sd_bus_match_signal_async(
      bus, &slot, nil, path, interface, member,
      { m, userdata, _ in
        BusHandler.invoke(m, userdata)
      }, nil, userdata)
    guard r >= 0 else {
      Unmanaged<BusHandler>.fromOpaque(userdata).release()
      throw .bus(operation: "sd_bus_match_signal_async \(member)", errno: -r)
    }
    adopt(slot)
    rearm()
  }

  /// Hands a slot to the bus: it lives until the call is answered or the bus is freed,
  /// and its destroy callback releases the handler box.
  private func adopt(_ slot: OpaquePointer?) {
    let fn = library.fn
    _ = fn.sd_bus_slot_set_destroy_callback(slot) { userdata in
      if let userdata { Unmanaged<BusHandler>.fromOpaque(userdata).release() }
    }
    _ = fn.sd_bus_slot_set_floating(slot, 1)
    _ = fn.sd_bus_slot_unref(slot)
  }

  // MARK: driving sd-bus from the loop

  /// Lets sd-bus read, write and dispatch until it has nothing left, then re-arms.
  private func process() {
    guard let bus, !processing else { return }
    processing = true
    var failure: DesktopError?
    while !deferredClose, deferredFailure == nil {
      let r = library.fn.sd_bus_process(bus, nil)
      if r < 0 {
        failure = .bus(operation: "sd_bus_process", errno: -r)
        break
      }
      if r == 0 { break }
    }
    processing = false
    if let failure = failure ?? deferredFailure {
      deferredFailure = nil
      broke(failure)
    } else if deferredClose {
      deferredClose = false
      close()
    } else {
      rearm()
    }
  }

  /// Watches what sd-bus waits for now, and arms the timer for its next deadline.
  private func rearm() {
    guard let bus, !processing else { return }
    let fn = library.fn
    let wanted = fn.sd_bus_get_events(bus)
    guard wanted >= 0 else { return broke(.bus(operation: "sd_bus_get_events", errno: -wanted)) }
    var events: Poll.Events = []
    if wanted & Int32(POLLIN) != 0 { events.insert(.readable) }
    if wanted & Int32(POLLOUT) != 0 { events.insert(.writable) }
    do {
      try poll.start(events) { [unowned self] result in
        if case .failure(let error) = result {
          self.broke(.bus(operation: "poll", errno: -error.code))
        } else {
          self.process()
        }
      }
    } catch {
      return broke(.bus(operation: "uv_poll_start", errno: -error.code))
    }
    var usec: UInt64 = 0
    guard fn.sd_bus_get_timeout(bus, &usec) >= 0, usec != UInt64.max else {
      timer.stop()
      return
    }
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    let nowUsec = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
    let delay = usec > nowUsec ? (usec - nowUsec + 999) / 1000 : 0
    loop.updateTime()
    try? timer.start(afterMilliseconds: delay) { [unowned self] in self.process() }
  }

  private func broke(_ error: DesktopError) {
    guard bus != nil else { return }
    if processing {
      deferredFailure = deferredFailure ?? error
      return
    }
    close()
    let callback = onDisconnect
    onDisconnect = nil
    callback?(error)
  }

  static func check(_ r: Int32, _ operation: String) throws(DesktopError) {
    if r < 0 { throw .bus(operation: operation, errno: -r) }
  }
}

/// An error reply to a method call (a D-Bus error name and its message).
struct BusCallError: Error, Sendable, CustomStringConvertible {
  var name: String
  var message: String
  var description: String { message.isEmpty ? name : "\(name): \(message)" }
}

/// A closure carried through sd-bus `userdata`; retained while its slot lives.
final class BusHandler {
  let body: (OpaquePointer) -> Void
  init(_ body: @escaping (OpaquePointer) -> Void) { self.body = body }

  static func invoke(_ message: OpaquePointer?, _ userdata: UnsafeMutableRawPointer?) -> Int32 {
    guard let message, let userdata else { return 0 }
    Unmanaged<BusHandler>.fromOpaque(userdata).takeUnretainedValue().body(message)
    return 0
  }
}
