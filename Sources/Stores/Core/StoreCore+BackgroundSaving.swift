import Dispatch

// Saving in the background (``SaveMode/inBackground``): an action is applied in memory at
// once and queued; at the end of the main actor's turn the queued actions go to the
// ``BackgroundWriter`` as one batch, written in one transaction off the main actor; the
// actions sent while it writes make the next batch. When the writer found the file changed
// by someone else, or failed, the state in memory catches up with the file: the file's
// state, with the actions still queued applied again.

extension StoreCore {
  /// See ``Store/saveMode``.
  public var saveMode: SaveMode {
    get { background == nil ? .beforeReturning : .inBackground }
    set {
      guard let backing, newValue != saveMode else { return }
      switch newValue {
      case .inBackground:
        background = BackgroundSaving(
          writer: BackgroundWriter(backing: backing), fileState: storedState)
      case .beforeReturning:
        writeQueuedActions()  // a failed write is in `lastError`
        background = nil
      }
    }
  }

  /// See ``Store/hasUnsavedChanges``.
  public var hasUnsavedChanges: Bool {
    registrar.access(self, keyPath: unsavedKeyPath)
    guard let background else { return false }
    return background.ended < background.sent
  }

  /// Tells Observation that ``hasUnsavedChanges`` changed.
  @usableFromInline
  func unsavedChangesDidChange() {
    registrar.willSet(self, keyPath: unsavedKeyPath)
    registrar.didSet(self, keyPath: unsavedKeyPath)
  }

  /// How many batches of actions the background writer was given: for the benchmarks.
  package var backgroundWrites: Int { background?.writes ?? 0 }

  /// Applies `action` (positions resolved already) in memory, records its inverse as
  /// `recording` says, and queues it for the background writer; returns whether the state in
  /// memory changed.
  ///
  /// - Complexity: the reducer's, and O(1) amortised to queue (plus, for the first action of
  ///   a batch, a copy of the undo history's steps the next step recorded makes, O(limit)).
  @inlinable @discardableResult
  func sendInBackground(_ action: Action, recording: Recording) -> Bool {
    noteHistoryBeforeQueuing()
    let changed = sendInMemory(action, recording: recording)
    guard let background else { return changed }
    background.queued.append((action, recording))
    background.sent += 1
    if background.sent == background.ended + 1 { unsavedChangesDidChange() }
    scheduleWrite()
    return changed
  }

  /// Keeps the undo history as it is before the first action of a batch is queued (an
  /// undo's, before its step is taken): what it goes back to if that batch's write fails.
  @usableFromInline
  func noteHistoryBeforeQueuing() {
    guard let background, background.historyBeforeQueued == nil else { return }
    background.historyBeforeQueued = history
  }

  /// Starts a write at the end of the main actor's turn, when none is running or scheduled:
  /// the actions sent until then go in one batch.
  @usableFromInline
  func scheduleWrite() {
    guard let background, !background.isStartScheduled, background.running == nil else { return }
    background.isStartScheduled = true
    DispatchQueue.main.async { [weak self] in MainActor.assumeIsolated { self?.startWrite() } }
  }

  /// Hands the queued actions (or a reload asked for) to the writer as one batch, when no
  /// batch is running.
  package func startWrite() {
    guard let background else { return }
    background.isStartScheduled = false
    guard background.running == nil, !background.queued.isEmpty || background.needsReload
    else { return }
    let batch = background.queued
    background.queued = []
    background.needsReload = false
    background.running = (batch, background.historyBeforeQueued.take() ?? history)
    if !batch.isEmpty { background.writes += 1 }
    background.writer.write(
      batch.map(\.action), from: background.fileState, reduce: .init(of: Owner.self),
      then: { [weak self] in self?.writeEnded() })
  }

  /// Takes the result of the batch that ended, if it was not taken yet: the file's state is
  /// now the result's, the state in memory catches up with it when the file was changed by
  /// someone else or the write failed, those waiting for it are resumed, and the next batch
  /// starts.
  ///
  /// A failed write is reported as a failed action is — in ``lastError``, and through
  /// `Store.failedSave(of:error:)` — and its actions are undone in memory: the undo history
  /// goes back to what it was before them, the actions queued since recorded again.
  private func writeEnded() {
    guard let background, let (batch, historyBefore) = background.running,
      let result = background.writer.takeResult()
    else { return }
    background.running = nil
    background.ended += batch.count
    switch result {
    case .success(let outcome):
      if let outcome { background.fileState = outcome.state }
      // The conflicts are of the file's state.
      reportCopiesNotMerged()
      if let outcome, outcome.reloaded { catchUpWithFile() }
    case .failure(let error):
      lastError = error
      if background.failure == nil { background.failure = error }
      history = historyBefore
      historyDidChange()
      catchUpWithFile(recordingQueued: true)
      if let error = error as? StoreFileError {
        for (action, _) in batch {
          if let failure = Owner.failedSave(of: action, error: error) { send(failure) }
        }
      }
    }
    let ended = background.ended
    if ended == background.sent { unsavedChangesDidChange() }
    let ready = background.waiters.filter { $0.count <= ended }
    background.waiters.removeAll { $0.count <= ended }
    for waiter in ready { waiter.continuation.resume() }
    startWrite()
  }

  /// Makes the state in memory the file's state with the actions not handed to the writer
  /// yet applied again — recording their inverses again when `recordingQueued` — and what only
  /// memory keeps as memory has it, telling observers of a reload when that differs from what
  /// they saw.
  ///
  /// - Complexity: O(*n*) for *n* items, and the queued actions' reducers.
  private func catchUpWithFile(recordingQueued: Bool = false) {
    guard let background, let backing else { return }
    var state = background.fileState
    if recordingQueued {
      background.historyBeforeQueued = background.queued.isEmpty ? nil : history
      for (action, recording) in background.queued {
        var inverse: Action?
        if Self.reduce(&state, action, recordingInverse: history.limit > 0, in: &inverse),
          let inverse = inverse.take()
        {
          record(inverse, of: action, recording)
        }
      }
    } else {
      for (action, _) in background.queued { _ = Owner.reduce(&state, action) }
    }
    backing.keepMemoryOnlyState(&state, from: storedState)
    guard state != storedState else { return }
    storedState = state
    didChange(.reload)
  }

  /// For a store saving in the background: blocks until every action sent so far has been
  /// written (or failed), and the reload asked for made. Nothing otherwise.
  func writeQueuedActions() {
    guard let background else { return }
    while true {
      if background.running != nil {
        background.writer.waitUntilIdle()
        writeEnded()
      }
      guard background.running == nil else { continue }
      guard !background.queued.isEmpty || background.needsReload else { return }
      startWrite()
    }
  }

  /// See ``Store/save()``.
  func saveInBackground() throws {
    writeQueuedActions()
    if let failure = background?.failure.take() { throw failure }
  }

  /// See ``Store/saved``.
  public func waitUntilSaved() async {
    guard let background, background.ended < background.sent else { return }
    let count = background.sent
    await withCheckedContinuation { background.waiters.append((count, $0)) }
  }
}
