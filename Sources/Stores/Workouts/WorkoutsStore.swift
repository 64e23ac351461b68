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
  /// The workouts and how they are sorted.
  public struct State: PersistentState {
    /// The workouts, in order: sorted by ``sortType`` while it is set.
    public var workouts: [Workout]
    /// The sort chosen last; while set, added and updated workouts go to their sorted place.
    public var sortType: SortType?

    public init() {
      workouts = []
      sortType = nil
    }

    /// A state with `workouts`, sorted by `sortType` when it is given.
    public init(workouts: [Workout], sortType: SortType? = nil) {
      self.workouts = workouts
      self.sortType = sortType
      if let sortType { WorkoutsStore.sort(&self.workouts, by: sortType) }
    }

    private enum CodingKeys: String, CodingKey {
      case workouts, sortType
    }

    /// Reads the state, sorting it when a file holds workouts out of the order it names.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      self.init(
        workouts: try container.decode([Workout].self, forKey: .workouts),
        sortType: try container.decodeIfPresent(SortType.self, forKey: .sortType))
    }
  }

  /// Every change to the diary.
  public enum Action: Equatable, Sendable {
    /// Adds the workout — at the end, or at its sorted place (after equal ones) while a sort
    /// type is set. Adding is O(1) and does not look for the id among the workouts: add each
    /// workout once (ids made by `UUID()` are unique).
    case addWorkout(Workout)
    /// Removes the workouts at these offsets; offsets out of range are ignored.
    case removeWorkout(at: IndexSet)
    /// Sorts descending and stably by `SortType`, and remembers it.
    case sort(by: SortType)
    /// Replaces the first workout with the same id, moving it to its sorted place while a
    /// sort type is set. Ignored for an unknown id.
    case updateWorkout(Workout)
  }

  @ObservationIgnored public let core: StoreCore<WorkoutsStore>

  /// An empty diary in memory.
  public init() {
    core = StoreCore(state: State())
  }

  /// A diary of `workouts` in memory, unsorted.
  public init(workouts: [Workout]) {
    core = StoreCore(state: State(workouts: workouts))
  }

  /// The diary kept in the JSON file at `url`; a missing file is an empty diary.
  ///
  /// - Throws: ``StoreFileError`` when the file cannot be read or is invalid.
  public init(contentsOf url: URL) throws {
    core = try WorkoutsStore.fileCore(contentsOf: url)
  }

  /// The pure reducer: applies `action` to `state`, returns whether it changed anything.
  ///
  /// - Complexity: O(log *n*) to find a sorted place plus O(*n*) to insert there; O(1)
  ///   amortised to append; O(*n* log *n*) to sort, O(*n*) when the list is already sorted.
  @discardableResult
  public nonisolated static func reduce(_ state: inout State, _ action: Action) -> Bool {
    switch action {
    case .addWorkout(let workout):
      insert(workout, into: &state)
      return true
    case .removeWorkout(let offsets):
      let valid = offsets.valid(forCount: state.workouts.count)
      guard !valid.isEmpty else { return false }
      state.workouts.remove(atOffsets: valid)
      return true
    case .sort(let sortType):
      let changedType = state.sortType != sortType
      state.sortType = sortType
      let isSorted = zip(state.workouts, state.workouts.dropFirst()).allSatisfy {
        !isOrdered($1, before: $0, by: sortType)
      }
      if !isSorted { sort(&state.workouts, by: sortType) }
      return changedType || !isSorted
    case .updateWorkout(let workout):
      guard let index = state.workouts.firstIndex(where: { $0.id == workout.id }),
        state.workouts[index] != workout
      else { return false }
      if state.sortType == nil {
        state.workouts[index] = workout
      } else {
        state.workouts.remove(at: index)
        insert(workout, into: &state)
      }
      return true
    }
  }

  /// Adds `workout` at the end, or after the last workout that sorts before or with it.
  private nonisolated static func insert(_ workout: Workout, into state: inout State) {
    guard let sortType = state.sortType else {
      state.workouts.append(workout)
      return
    }
    var low = 0
    var high = state.workouts.count
    while low < high {
      let middle = (low + high) / 2
      if isOrdered(workout, before: state.workouts[middle], by: sortType) {
        high = middle
      } else {
        low = middle + 1
      }
    }
    state.workouts.insert(workout, at: low)
  }

  /// Whether `first` sorts strictly before `second`: longer, or harder.
  private nonisolated static func isOrdered(
    _ first: Workout, before second: Workout, by sortType: SortType
  ) -> Bool {
    switch sortType {
    case .distance: first.distance > second.distance
    case .complexity: first.complexity > second.complexity
    }
  }

  private nonisolated static func sort(_ workouts: inout [Workout], by sortType: SortType) {
    switch sortType {
    case .distance: workouts.sort { $0.distance > $1.distance }
    case .complexity: workouts.sort { $0.complexity > $1.complexity }
    }
  }
}
