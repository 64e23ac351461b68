import Foundation
import Observation

/// A workouts diary in the Redux style: a ``State``, ``Action``s and a pure reducer,
/// ``reduce(_:_:)``, that can be called and tested without a store.
///
/// ```swift
/// let workouts = try WorkoutsStore(contentsOf: url)   // or WorkoutsStore(workouts: [...])
/// workouts.send(.addWorkout(try Workout(name: "Run", distance: 5.2)))
/// workouts.send(.sort(by: .distance))     // longest first, and remembered
/// workouts.state.workouts                 // read-only
/// var state = WorkoutsStore.State()
/// WorkoutsStore.reduce(&state, .addWorkout(run))   // the same reducer, no store
/// ```
@MainActor @Observable
public final class WorkoutsStore: Store {
  /// How workouts are sorted: always descending — longest, hardest or newest first — and
  /// stably, so that equal workouts keep the order they were added in.
  public enum SortType: String, CaseIterable, Codable, Sendable {
    case distance, complexity, date

    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      let name = try container.decode(String.self)
      guard let sortType = Self(rawValue: name) else {
        throw DecodingError.dataCorruptedError(
          in: container,
          debugDescription:
            "expected \"distance\", \"complexity\" or \"date\", found \(quoted(name))")
      }
      self = sortType
    }

    /// Whether `first` sorts strictly before `second`: longer, harder or newer.
    @usableFromInline
    func orders(_ first: Workout, before second: Workout) -> Bool {
      switch self {
      case .distance: first.distance > second.distance
      case .complexity: first.complexity > second.complexity
      case .date: first.date > second.date
      }
    }
  }

  /// The workouts and how they are sorted.
  ///
  /// The list shown, ``workouts``, is always the workouts in the order they were added,
  /// sorted stably by ``sortType`` when it is set: a function of that order and the sort, so
  /// that clearing the sort brings the order they were added in back, and a state read from
  /// its file equals the state that wrote it. The file keeps the order they were added in.
  ///
  /// No two workouts have one id: adding or restoring a workout whose id is taken changes
  /// nothing, and a file with two workouts of one id is refused.
  public struct State: PersistentState {
    /// The workouts, in order: sorted by ``sortType`` while it is set, else as added.
    ///
    /// Setting it — in a test's expected state, say; a store's state changes only through
    /// actions — keeps the list as given (of two workouts with one id, the first), sorted or
    /// not, and the state whole: while sorted, the order added keeps the workouts that stay,
    /// in the order they were added, with their new values, then the new ones in the order
    /// given. O(*n*).
    public var workouts: [Workout] {
      @inlinable get { storedWorkouts }
      set { replaceWorkouts(with: newValue) }
    }
    @usableFromInline var storedWorkouts: [Workout]
    /// The sort chosen last; while set, added and updated workouts go to their sorted place.
    ///
    /// Setting it sorts the workouts as ``WorkoutsStore/Action/sort(by:)`` does (`nil`: back
    /// to the order added). O(*n* log *n*).
    public var sortType: SortType? {
      @inlinable get { storedSortType }
      set { _ = sort(by: newValue) }
    }
    @usableFromInline var storedSortType: SortType?
    /// While sorted, the workouts in the order they were added; empty otherwise (then
    /// `workouts` is that order). Changed only together with `workouts`.
    var addedOrder: [Workout]
    /// The ids of the workouts, so that an addition finds a taken id in O(1). Changed
    /// together with `workouts`, of which it is a function: left out of `==`, which would
    /// only hash every id again.
    var ids: Set<UUID>
    /// Where the latest import is. Kept in memory only: the file holds the workouts.
    public var importStatus = WorkoutsImportStatus.none

    public init() {
      self.init(workouts: [])
    }

    /// A state with `workouts`, taken as the order they were added, sorted by `sortType`
    /// when it is given. Of workouts with one id, the first is kept. O(*n*), plus
    /// O(*n* log *n*) to sort.
    public init(workouts: [Workout], sortType: SortType? = nil) {
      var ids = Set<UUID>(minimumCapacity: workouts.count)
      let workouts = workouts.filter { ids.insert($0.id).inserted }
      self.ids = ids
      storedSortType = sortType
      if let sortType {
        addedOrder = workouts
        storedWorkouts = WorkoutsStore.sorted(workouts, by: sortType)
      } else {
        addedOrder = []
        storedWorkouts = workouts
      }
    }

    /// The workouts in the order they were added.
    public var workoutsInAddedOrder: [Workout] { sortType == nil ? workouts : addedOrder }

    /// See ``workouts``. O(*n*).
    mutating func replaceWorkouts(with newValue: [Workout]) {
      var ids = Set<UUID>(minimumCapacity: newValue.count)
      let workouts = newValue.filter { ids.insert($0.id).inserted }
      if sortType != nil {
        let byID = Dictionary(uniqueKeysWithValues: workouts.map { ($0.id, $0) })
        let kept = addedOrder.compactMap { byID[$0.id] }
        let keptIDs = Set(kept.lazy.map(\.id))
        addedOrder = kept + workouts.filter { !keptIDs.contains($0.id) }
      }
      self.ids = ids
      storedWorkouts = workouts
    }

    /// Equal when the workouts, their order added, the sort and the import status are.
    public static func == (lhs: Self, rhs: Self) -> Bool {
      lhs.workouts == rhs.workouts && lhs.sortType == rhs.sortType
        && lhs.addedOrder == rhs.addedOrder && lhs.importStatus == rhs.importStatus
    }

    private enum CodingKeys: String, CodingKey {
      case workouts, sortType
    }

    /// Reads the workouts in the order they were added, and the sort, refusing two workouts
    /// with one id.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      let workouts = try container.decode([Workout].self, forKey: .workouts)
      self.init(
        workouts: workouts,
        sortType: try container.decodeIfPresent(SortType.self, forKey: .sortType))
      guard ids.count == workouts.count else {
        throw DecodingError.dataCorruptedError(
          forKey: .workouts, in: container, debugDescription: Self.duplicateIDs)
      }
    }

    /// Why a list of workouts with two of one id is refused.
    static let duplicateIDs = "two workouts have the same id"

    /// Writes the workouts in the order they were added, and the sort.
    public func encode(to encoder: any Encoder) throws {
      var container = encoder.container(keyedBy: CodingKeys.self)
      try container.encode(workoutsInAddedOrder, forKey: .workouts)
      try container.encodeIfPresent(sortType, forKey: .sortType)
    }

    /// Keeps the import status, which the file does not hold.
    public mutating func keepMemoryOnlyState(from previous: State) {
      importStatus = previous.importStatus
    }

    /// Adds `workout` last in the order added, and at its sorted place (after the equal
    /// ones) while sorted, unless its id is taken; returns whether it was added. O(1)
    /// amortised unsorted, O(*n*) sorted.
    mutating func add(_ workout: Workout) -> Bool {
      guard ids.insert(workout.id).inserted else { return false }
      guard let sortType else {
        storedWorkouts.append(workout)
        return true
      }
      addedOrder.append(workout)
      storedWorkouts.insert(
        workout, at: WorkoutsStore.upperBound(of: workout, in: workouts, sortType))
      return true
    }

    /// Adds the workouts of `batch` whose ids are not taken, in order (the first of two with
    /// one id); returns whether any was added. O(*m*) for *m* workouts in the batch, plus
    /// O(*n* + *m*) to append and O((*n* + *m*) log (*n* + *m*)) to sort.
    mutating func add(_ batch: [Workout]) -> Bool {
      let new = batch.filter { ids.insert($0.id).inserted }
      guard !new.isEmpty else { return false }
      guard let sortType else {
        storedWorkouts += new
        return true
      }
      addedOrder += new
      storedWorkouts = WorkoutsStore.sorted(addedOrder, by: sortType)
      return true
    }

    /// Removes the workouts with `ids`; returns whether any was there. O(*n*).
    mutating func remove(_ ids: Set<UUID>) -> Bool {
      guard !ids.isEmpty else { return false }
      let count = workouts.count
      storedWorkouts.removeAll { ids.contains($0.id) }
      guard workouts.count != count else { return false }
      if sortType != nil { addedOrder.removeAll { ids.contains($0.id) } }
      self.ids.subtract(ids)
      return true
    }

    /// Replaces the workout with `workout`'s id, moving it to its sorted place while sorted;
    /// returns whether anything changed. O(*n*).
    mutating func update(_ workout: Workout) -> Bool {
      guard let sortType else {
        guard let index = workouts.firstIndex(where: { $0.id == workout.id }),
          workouts[index] != workout
        else { return false }
        storedWorkouts[index] = workout
        return true
      }
      guard let added = addedOrder.firstIndex(where: { $0.id == workout.id }),
        addedOrder[added] != workout
      else { return false }
      if let shown = workouts.firstIndex(of: addedOrder[added]) { storedWorkouts.remove(at: shown) }
      addedOrder[added] = workout
      // Among the equal workouts, the order they were added in: after those added before it.
      let equalAddedBefore = addedOrder[..<added].count {
        !sortType.orders($0, before: workout) && !sortType.orders(workout, before: $0)
      }
      let start = WorkoutsStore.lowerBound(of: workout, in: workouts, sortType)
      storedWorkouts.insert(workout, at: start + equalAddedBefore)
      return true
    }

    /// Adds the rows of `imported` whose ids are not taken — and, for a row without an id,
    /// that are not the same as a workout here (same date, name and distance; same name and
    /// distance for a row without a date) — and records what was added and left out as the
    /// import's status. O(*n* + *m*), plus the sort of a sorted diary.
    /// Whether the import of `file` finished and `error` says its workouts were not saved.
    func isFinished(file: String?, notSaved error: WorkoutsImportError) -> Bool {
      guard case .finished(let summary) = importStatus, summary.file == file,
        case .notSaved = error.problem
      else { return false }
      return true
    }

    mutating func finish(_ imported: WorkoutsImport) {
      let (new, skipped, flagged) = newWorkouts(of: imported)
      _ = add(new)
      importStatus = .finished(
        WorkoutsImportSummary(
          file: imported.file, added: new.count,
          skipped: skipped.sorted { ($0.file ?? "", $0.line) < ($1.file ?? "", $1.line) },
          ignoredColumns: imported.ignoredColumns,
          distancesWithoutUnit: imported.distancesWithoutUnit, flagged: flagged,
          recognized: imported.recognized))
    }

    /// The rows of `imported` that ``finish(_:)`` adds, the rows it leaves out, and the rows
    /// added whose values are outside what people do (``Workout/implausibility``).
    /// O(*n* + *m*).
    func newWorkouts(of imported: WorkoutsImport) -> (
      new: [Workout], skipped: [WorkoutsImport.SkippedRow], flagged: [WorkoutsImport.FlaggedRow]
    ) {
      let taken = ids
      var contents: Set<Content> = []
      var namesAndDistances: Set<Content> = []
      if imported.rows.contains(where: { !$0.hasID }) {
        for workout in workouts {
          contents.insert(Content(workout, withDate: true))
          namesAndDistances.insert(Content(workout, withDate: false))
        }
      }
      var skipped = imported.skipped
      var new: [Workout] = []
      var flagged: [WorkoutsImport.FlaggedRow] = []
      for row in imported.rows {
        if taken.contains(row.workout.id) {
          skipped.append(
            WorkoutsImport.SkippedRow(
              line: row.line, reason: WorkoutsImport.SkippedRow.idInDiary, file: row.file))
        } else if !row.hasID,
          row.hasDate
            ? contents.contains(Content(row.workout, withDate: true))
            : namesAndDistances.contains(Content(row.workout, withDate: false))
        {
          skipped.append(
            WorkoutsImport.SkippedRow(
              line: row.line, reason: WorkoutsImport.SkippedRow.inDiary, file: row.file))
        } else {
          new.append(row.workout)
          if let reason = row.workout.implausibility {
            flagged.append(
              WorkoutsImport.FlaggedRow(
                line: row.line, reason: reason, file: row.file, id: row.workout.id))
          }
        }
      }
      return (new, skipped, flagged)
    }

    /// What tells a workout without an id from another: its date, name and distance.
    private struct Content: Hashable {
      var date: Date?
      var name: String
      var distance: Double

      init(_ workout: Workout, withDate: Bool) {
        date = withDate ? workout.date : nil
        name = workout.name
        distance = workout.distance
      }
    }

    /// Whether an import is reading its file.
    var isImporting: Bool {
      if case .importing = importStatus { return true }
      return false
    }

    /// Sets the import status; returns whether it changed.
    mutating func setImportStatus(_ status: WorkoutsImportStatus) -> Bool {
      defer { importStatus = status }
      return importStatus != status
    }

    /// Sorts by `newSortType`, or goes back to the order added for `nil`; returns whether the
    /// state changed. O(*n* log *n*), O(1) when the sort is already the one in effect.
    mutating func sort(by newSortType: SortType?) -> Bool {
      guard newSortType != sortType else { return false }
      let inAddedOrder = workoutsInAddedOrder
      storedSortType = newSortType
      if let newSortType {
        addedOrder = inAddedOrder
        storedWorkouts = WorkoutsStore.sorted(inAddedOrder, by: newSortType)
      } else {
        addedOrder = []
        storedWorkouts = inAddedOrder
      }
      return true
    }
  }

  /// Every change to the diary.
  ///
  /// Workouts are named by id; the offset form (SwiftUI's `onDelete` gives offsets) is
  /// resolved to ids against the list the caller saw before a store on a file applies it
  /// (see ``resolve(_:in:)``), so it removes the workouts that were shown even when another
  /// process changed the file meanwhile.
  ///
  /// Every action that changes the workouts has an inverse, by identity (see
  /// ``inverse(of:in:)``): the last four cases are what undo sends, and are ordinary actions
  /// too.
  public enum Action: Equatable, Sendable {
    /// Adds the workout — at the end, or at its sorted place (after equal ones) while a sort
    /// type is set — unless its id is taken. O(1) amortised in an unsorted diary: the
    /// state keeps a set of the ids.
    case addWorkout(Workout)
    /// Adds the workouts whose ids are not taken (the first of two with one id), in one
    /// change (an import).
    case addWorkouts([Workout])
    /// Replaces the workout with the same id — its name, distance, date and complexity —
    /// moving it to its sorted place while a sort type is set. Ignored for an unknown id.
    case updateWorkout(Workout)
    /// Removes the workouts with these ids; unknown ids are ignored.
    case removeWorkouts(ids: Set<UUID>)
    /// Removes the workouts at these offsets; offsets out of range are ignored.
    case removeWorkoutsAtOffsets(IndexSet)
    /// Sorts descending and stably by the sort type, and remembers it; `nil` forgets the sort
    /// and puts the workouts back in the order they were added.
    case sort(by: SortType?)
    /// Imports the workouts of the CSV or GPX file at `url`, or of the files of the folder
    /// (see ``WorkoutsImporter``), read as `options` say: reads them off the main actor,
    /// reporting progress, then adds them all in one ``finishImport(_:)`` — or none, when a
    /// row is not valid (``WorkoutsImportStatus/failed(_:)``). A new import cancels one still
    /// running.
    case importWorkouts(from: URL, options: WorkoutsImportOptions = WorkoutsImportOptions())
    /// Adds the workouts of an import that are not in the diary (by id, or by date, name
    /// and distance for rows without one), in one change, and records what was added and
    /// left out in ``State/importStatus``.
    case finishImport(WorkoutsImport)
    /// Stops the import that is running; nothing is added.
    case cancelImport
    /// How far the running import is (sent by its effect).
    case importProgress(WorkoutsImportProgress)
    /// The import failed; nothing was added (sent by its effect).
    case failImport(WorkoutsImportError)
    /// Puts back workouts that were removed: the workouts of each run whose ids are not in
    /// the diary, in order, in the order they were added, just before the workout
    /// ``ListRun/before`` there (at the end when it is `nil`) — or, when that one was removed
    /// meanwhile, just after ``ListRun/after``, or when both were, at ``ListRun/offset``;
    /// while sorted, each goes to its sorted place. Workouts whose ids are in the diary are
    /// skipped.
    case restoreWorkouts([WorkoutRun])
    /// Removes each of these workouts that is still exactly as given; a workout changed
    /// since, or gone, is skipped.
    case discardWorkouts([Workout])
    /// ``discardWorkouts(_:)`` of one workout: what undoing ``addWorkout(_:)`` sends.
    case discardWorkout(Workout)
    /// Changes back the workout the edit names by id: each field (name, distance, date,
    /// complexity) that still holds the edit's ``ItemEdit/from`` value gets its
    /// ``ItemEdit/to`` value; a field changed since, or a workout gone, is skipped.
    case editWorkout(WorkoutEdit)
    /// Sorts by the first sort type (`nil`: the order added) when the sort in effect is the
    /// second (`replacing`); otherwise changes nothing.
    case restoreSort(SortType?, replacing: SortType?)
  }

  @ObservationIgnored public let core: StoreCore<WorkoutsStore>

  /// An empty diary in memory, whose effects use `environment`.
  public init(environment: StoreEnvironment = .live) {
    core = StoreCore(state: State(), environment: environment)
  }

  /// A diary of `workouts` in memory, unsorted, whose effects use `environment`. Of
  /// workouts with one id, the first is kept.
  public init(workouts: [Workout], environment: StoreEnvironment = .live) {
    core = StoreCore(state: State(workouts: workouts), environment: environment)
  }

  /// The diary kept in the JSON file at `url`, whose effects use `environment`; a missing
  /// file is an empty diary.
  ///
  /// An action waits at most `lockTimeout` for another process that holds the file's lock,
  /// then fails with ``StoreFileError/Problem/lockTimedOut(lock:holder:waited:)``.
  ///
  /// - Throws: ``StoreFileError`` when the file cannot be read or is invalid.
  public init(
    contentsOf url: URL, environment: StoreEnvironment = .live,
    lockTimeout: Duration = .defaultLockTimeout
  ) throws {
    core = try WorkoutsStore.fileCore(
      contentsOf: url, environment: environment, lockTimeout: lockTimeout)
  }

  /// A store on `core` (such as a file core that keeps no write cache, for `diary`).
  package init(core: StoreCore<WorkoutsStore>) {
    self.core = core
  }

  /// The pure reducer: applies `action` to `state`, returns whether it changed anything.
  ///
  /// - Complexity: O(1) amortised to add to an unsorted diary; O(*n*) to add to a sorted one,
  ///   to update and to remove; O(*n* log *n*) to sort or to add a batch to a sorted diary.
  @discardableResult
  public nonisolated static func reduce(_ state: inout State, _ action: Action) -> Bool {
    switch action {
    case .addWorkout(let workout):
      return state.add(workout)
    case .addWorkouts(let workouts):
      return state.add(workouts)
    case .updateWorkout(let workout):
      return state.update(workout)
    case .removeWorkouts(let ids):
      return state.remove(ids)
    case .removeWorkoutsAtOffsets(let offsets):
      let valid = offsets.valid(forCount: state.workouts.count)
      return state.remove(Set(valid.map { state.workouts[$0].id }))
    case .sort(let sortType):
      return state.sort(by: sortType)
    case .importWorkouts(let url, _):
      return state.setImportStatus(
        .importing(WorkoutsImportProgress(file: url.path, bytesRead: 0, totalBytes: 0, rows: 0)))
    case .finishImport(let imported):
      state.finish(imported)
      return true
    case .cancelImport:
      return state.isImporting && state.setImportStatus(.cancelled)
    case .importProgress(let progress):
      // Late progress of an import that is over is ignored.
      return state.isImporting && state.setImportStatus(.importing(progress))
    case .failImport(let error):
      // An import whose workouts could not be saved failed, though it looked finished (a
      // store saving in the background reports the failed write after the import).
      guard state.isImporting || state.isFinished(file: error.file, notSaved: error) else {
        return false
      }
      return state.setImportStatus(.failed(error))
    case .restoreWorkouts(let runs):
      return state.restore(runs)
    case .discardWorkouts(let workouts):
      return state.discard(workouts)
    case .discardWorkout(let workout):
      return state.discard([workout])
    case .editWorkout(let edit):
      guard let current = state.workout(withID: edit.to.id) else { return false }
      return state.update(edit.applied(to: current))
    case .restoreSort(let sortType, let replacing):
      return state.sortType == replacing && state.sort(by: sortType)
    }
  }

  /// The import actions but the last, which change only the import status: no transaction.
  public nonisolated static func isMemoryOnly(_ action: Action) -> Bool {
    switch action {
    case .importWorkouts, .cancelImport, .importProgress, .failImport: true
    default: false
    }
  }

  /// An import whose workouts could not be saved has failed: its status says so.
  public nonisolated static func failedSave(of action: Action, error: StoreFileError) -> Action? {
    guard case .finishImport(let imported) = action else { return nil }
    return .failImport(WorkoutsImportError(file: imported.file, problem: .notSaved(error)))
  }

  /// The import: read the file, in parts with progress in between, then send the workouts.
  ///
  /// Inlinable, so that for the other actions a store's `send` knows there is no effect and
  /// passes no state to find out.
  @inlinable
  public nonisolated static func effect(
    for action: Action, state: State, environment: StoreEnvironment
  ) -> Effect<Action> {
    switch action {
    case .importWorkouts(let url, let options):
      return importEffect(url, options: options, environment: environment)
    case .cancelImport:
      return cancelImportEffect()
    default:
      return .none
    }
  }

  /// Reads the files at `url` in parts (``WorkoutsImporter/readAll(rowsPerPart:now:makeID:goOn:)``),
  /// sending their progress as it goes, then the workouts (or the failure); a new import
  /// cancels the one running.
  @usableFromInline
  nonisolated static func importEffect(
    _ url: URL, options: WorkoutsImportOptions, environment: StoreEnvironment
  ) -> Effect<Action> {
    .run(id: ImportEffect.id, cancelInFlight: true) { send in
      // The progress goes to the store beside the reading, which does not wait for it; all
      // of it is sent, in order, before the result.
      let (parts, progress) = AsyncStream.makeStream(of: WorkoutsImportProgress.self)
      async let sent: Void = {
        for await part in parts { await send(.importProgress(part)) }
      }()
      let imported = Result { () throws(WorkoutsImportError) -> WorkoutsImport? in
        var importer = try WorkoutsImporter(files: [url], options: options)
        return try importer.readAll(
          rowsPerPart: 2_000, now: environment.now, makeID: environment.uuid
        ) { part in
          progress.yield(part)
          return !Task.isCancelled
        }
      }
      progress.finish()
      await sent
      switch imported {
      case .success(let imported?):
        try Task.checkCancellation()
        await send(.finishImport(imported))
      case .success(nil):
        return  // Cancelled.
      case .failure(let error):
        await send(.failImport(error))
      }
    }
  }

  /// Cancels the import that is running.
  @usableFromInline
  nonisolated static func cancelImportEffect() -> Effect<Action> {
    .cancel(id: ImportEffect.id)
  }

  /// The id of the import's effect.
  private enum ImportEffect: Hashable, Sendable {
    case id
  }

  /// The id form of ``Action/removeWorkoutsAtOffsets(_:)`` against `state`, the list the
  /// caller saw; other actions as they are.
  ///
  /// - Complexity: O(*k*) for *k* offsets, O(1) for other actions.
  public nonisolated static func resolve(_ action: Action, in state: State) -> Action {
    guard case .removeWorkoutsAtOffsets(let offsets) = action else { return action }
    let valid = offsets.valid(forCount: state.workouts.count)
    return .removeWorkouts(ids: Set(valid.map { state.workouts[$0].id }))
  }

  /// `workouts` sorted stably by `sortType`.
  nonisolated static func sorted(_ workouts: [Workout], by sortType: SortType) -> [Workout] {
    // A closure written outside the main actor: one written in `@MainActor` code is isolated
    // to it, and Swift 6 checks the executor on every call — a sort of 1M structs took
    // 1.5–2.0 s instead of 0.3 s.
    switch sortType {
    case .distance: workouts.sorted { $0.distance > $1.distance }
    case .complexity: workouts.sorted { $0.complexity > $1.complexity }
    case .date: workouts.sorted { $0.date > $1.date }
    }
  }

  /// The first position in `workouts`, sorted by `sortType`, whose workout does not sort
  /// before `workout`. O(log *n*).
  nonisolated static func lowerBound(
    of workout: Workout, in workouts: [Workout], _ sortType: SortType
  ) -> Int {
    partition(workouts) { sortType.orders($0, before: workout) }
  }

  /// The first position in `workouts`, sorted by `sortType`, whose workout sorts after
  /// `workout`: its place after the equal ones. O(log *n*).
  nonisolated static func upperBound(
    of workout: Workout, in workouts: [Workout], _ sortType: SortType
  ) -> Int {
    partition(workouts) { !sortType.orders(workout, before: $0) }
  }

  /// The number of leading elements of `workouts` for which `isBefore` holds, for a
  /// predicate that holds for a prefix. O(log *n*).
  private nonisolated static func partition(
    _ workouts: [Workout], _ isBefore: (Workout) -> Bool
  ) -> Int {
    var low = 0
    var high = workouts.count
    while low < high {
      let middle = (low + high) / 2
      if isBefore(workouts[middle]) {
        low = middle + 1
      } else {
        high = middle
      }
    }
    return low
  }
}

extension WorkoutsStore {
  /// Adds `workout`: at the end, or at its sorted place while sorted. Ignored when its id is
  /// taken.
  public func add(_ workout: Workout) { send(.addWorkout(workout)) }
  /// Removes the workouts with `ids`; unknown ids are ignored.
  public func remove(ids: Set<UUID>) { send(.removeWorkouts(ids: ids)) }
  /// Removes the workouts at `offsets` — for SwiftUI's `onDelete`; offsets out of range are
  /// ignored.
  public func delete(atOffsets offsets: IndexSet) { send(.removeWorkoutsAtOffsets(offsets)) }
  /// Replaces the workout with `workout`'s id, keeping its id; an unknown id is ignored.
  public func update(_ workout: Workout) { send(.updateWorkout(workout)) }
  /// Sorts by `sortType`, descending and stably, and keeps new workouts in their place; `nil`
  /// goes back to the order they were added.
  public func sort(by sortType: SortType?) { send(.sort(by: sortType)) }
}
