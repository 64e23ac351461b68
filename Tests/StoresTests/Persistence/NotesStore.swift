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
  }

  nonisolated static func reduce(_ state: inout State, _ action: Action) -> Bool {
    switch action {
    case .add(let note):
      state.notes.append(note)
      return true
    case .clear:
      defer { state.notes.removeAll() }
      return !state.notes.isEmpty
    }
  }

  @ObservationIgnored let core: StoreCore<NotesStore>

  init(contentsOf url: URL) throws {
    core = try NotesStore.fileCore(contentsOf: url)
  }
}
