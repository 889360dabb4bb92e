import UVLoop

/// The bus and the server coming and going: connect, subscribe, ask the capabilities,
/// follow `NameOwnerChanged`, retry a lost bus.  Never blocks the loop, never fatal.
extension DesktopBridge {
  /// Opens the bus; on failure, warns once and retries every `retryMilliseconds`.
  public func start() {
    stopped = false
    connect()
  }

  /// Closes the bus and the retry timer (daemon shutdown): the loop can then end.
  public func stop() {
    stopped = true
    retryTimer?.close()
    retryTimer = nil
    dropBus()
  }

  func connect() {
    guard !stopped, bus == nil else { return }
    do {
      if library == nil { library = try SDBusLibrary() }
      let bus = try DesktopBus(loop: loop, library: library!, address: address)
      self.bus = bus
      bus.onDisconnect = { [weak self] error in self?.lost(bus: error) }
      try subscribe(bus)
      askCapabilities()
    } catch {
      dropBus()
      unavailable("desktop_no_bus", "\(error)")
      scheduleRetry()
    }
  }

  private func subscribe(_ bus: DesktopBus) throws(DesktopError) {
    try bus.matchSignal(path: Self.path, interface: Self.name, member: "ActionInvoked") { [weak self] m in
      guard let id = m.readUInt32(), let key = m.readString() else { return }
      self?.received(.actionInvoked(id: id, key: key), from: m.sender)
    }
    try bus.matchSignal(path: Self.path, interface: Self.name, member: "NotificationReplied") { [weak self] m in
      guard let id = m.readUInt32(), let text = m.readString() else { return }
      self?.received(.replied(id: id, text: text), from: m.sender)
    }
    try bus.matchSignal(path: Self.path, interface: Self.name, member: "NotificationClosed") { [weak self] m in
      guard let id = m.readUInt32(), let reason = m.readUInt32() else { return }
      self?.received(.closed(id: id, reason: reason), from: m.sender)
    }
    try bus.matchSignal(path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus", member: "NameOwnerChanged") {
      [weak self] m in
      guard m.sender == "org.freedesktop.DBus", let name = m.readString(), name == Self.name,
        m.readString() != nil, let owner = m.readString()
      else { return }
      self?.ownerChanged(to: owner)
    }
  }

  /// `GetCapabilities`: the server is there (a D-Bus-activatable one starts now).
  func askCapabilities() {
    guard let bus else { return }
    let epoch = self.epoch
    do {
      try bus.call(
        destination: Self.name, path: Self.path, interface: Self.name, member: "GetCapabilities",
        arguments: { (_) throws(DesktopError) in },
        reply: { [weak self] result in
          guard let self, epoch == self.epoch else { return }
          switch result {
          case .success(let reply):
            self.connected(capabilities: Set(reply.readStrings() ?? []), owner: reply.sender)
          case .failure(let error):
            self.unavailable("desktop_no_server", "\(error)")
          }
        })
    } catch {
      unavailable("desktop_no_server", "\(error)")
    }
  }

  private func connected(capabilities: Set<String>, owner: String?) {
    self.capabilities = capabilities
    serverOwner = owner
    counters.connected = true
    warned = false
    log(
      .info, "desktop_connected",
      [("server", owner ?? "?"), ("capabilities", capabilities.sorted().joined(separator: ","))])
  }

  /// `NameOwnerChanged` for the notification server: gone, or a (new) server there.
  func ownerChanged(to owner: String) {
    if capabilities != nil { serverGone() }
    if !owner.isEmpty {
      askCapabilities()
    } else {
      unavailable("desktop_no_server", "the notification server left the bus")
    }
  }

  /// What was shown is gone with the server; banners missed meanwhile are not shown later.
  private func serverGone() {
    epoch += 1
    capabilities = nil
    serverOwner = nil
    counters.connected = false
    shown.removeAll()
    byServerId.removeAll()
  }

  private func lost(bus error: DesktopError) {
    dropBus()
    unavailable("desktop_bus_lost", "\(error)")
    scheduleRetry()
  }

  func dropBus() {
    serverGone()
    bus?.onDisconnect = nil
    bus?.close()
    bus = nil
  }

  /// One warning per outage; the daemon goes on serving.
  func unavailable(_ event: String, _ why: String) {
    counters.connected = false
    guard !warned else {
      log(.debug, event, [("error", why)])
      return
    }
    warned = true
    log(
      .warn, event,
      [("error", why), ("retry", bus == nil ? "every \(retryMilliseconds / 1000) s" : "when the server appears")])
  }

  private func scheduleRetry() {
    guard !stopped else { return }
    do {
      if retryTimer == nil {
        let timer = try LoopTimer(loop: loop)
        timer.keepsLoopAlive = false
        retryTimer = timer
      }
      loop.updateTime()
      try retryTimer!.start(afterMilliseconds: retryMilliseconds) { [weak self] in self?.connect() }
    } catch {
      log(.warn, "desktop_retry_failed", [("error", "\(error)")])
    }
  }
}
