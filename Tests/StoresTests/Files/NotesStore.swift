import Foundation
import Observation
import Stores

/// A small persistent store for the persistence tests: a list of notes with dates, and a
/// version-0 format (a bare list of notes) to migrate from.
@MainActor @Observable
final class NotesStore: Store {
  struct Note: Codable, Equatable, Sendable, JSONObjectCodable {
    var text: String
    var date: Date

    static func jsonFields<Coder: JSONFieldCoder<Note> & ~Copyable>(
      _ coder: inout Coder
    ) throws(JSONCodingError) -> Coder.Result {
      let date = try coder.field("date", \.date)
      let text = try coder.field("text", \.text)
      return try coder.object { Note(text: text, date: date) }
    }
  }

  struct State: PersistentState {
    var notes: [Note] = []

    static func jsonFields<Coder: JSONFieldCoder<State> & ~Copyable>(
      _ coder: inout Coder
    ) throws(JSONCodingError) -> Coder.Result {
      let notes = try coder.field("notes", \.notes)
      return try coder.object { State(notes: notes) }
    }

    static func migrate(
      fromVersion version: Int, reader: inout JSONReader
    ) throws(JSONCodingError) -> State {
      State(notes: try [Note](from: &reader))
    }
  }

  enum Action: Sendable {
    case add(Note)
    case clear
    /// Adds the note a second later, through an effect.
    case addLater(Note)
  }

  nonisolated static func reduce(_ state: inout State, _ action: Action) -> Bool {
    switch action {
    case .add(let note):
      state.notes.append(note)
      return true
    case .clear:
      defer { state.notes.removeAll() }
      return !state.notes.isEmpty
    case .addLater:
      return false
    }
  }

  nonisolated static func effect(
    for action: Action, state: State, environment: StoreEnvironment
  ) -> Effect<Action> {
    guard case .addLater(let note) = action else { return .none }
    return .run { send in
      try await environment.sleep(.seconds(1))
      await send(.add(note))
    }
  }

  @ObservationIgnored let core: StoreCore<NotesStore>

  init(contentsOf url: URL, environment: StoreEnvironment = .live) throws {
    core = try NotesStore.fileCore(contentsOf: url, environment: environment)
  }
}
