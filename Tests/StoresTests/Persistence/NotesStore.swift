import Foundation
import Observation
import Stores

/// A small persistent store for the persistence tests: a list of notes with dates, and a
/// version-0 format (a bare list of notes) to migrate from.
@MainActor @Observable
final class NotesStore: Store {
  struct Note: Codable, Equatable, Sendable {
    var text: String
    var date: Date
  }

  struct State: PersistentState {
    var notes: [Note] = []

    static func migrate(fromVersion version: Int, decoder: any Decoder) throws -> State {
      State(notes: try [Note](from: decoder))
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
