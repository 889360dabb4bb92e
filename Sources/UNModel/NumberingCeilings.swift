/// The numberings that move on almost every call (pending additions, events) and the
/// manual clock, as the store last heard of them.  They are not recorded per change:
/// `Center.takeChanges` compares them with what the store holds and records the globals
/// row only when a number passes its stored ceiling, reserved a block at a time (as a
/// database hands out sequence values), or the manual clock moved.  After a restart
/// numbering resumes above the ceiling and never reuses a number.
struct NumberingCeilings {
  /// Numbers pending requests as they are added (`PendingRecord.addedSequence`).
  var addition: UInt64 = 0
  /// The addition number the store holds as the ceiling of those handed out.
  var reservedAddition: UInt64 = 0
  /// The event number the store holds as the ceiling of those handed out.
  var reservedEvent: UInt64 = 0
  /// The manual clock's time as last committed.
  var committedClock: Instant?
}
