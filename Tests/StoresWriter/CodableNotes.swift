import Foundation
import Observation
import Stores

/// A store of one's own on a `CodableState`, for `stores-writer codable`: the notes of
/// Tests/StoresTests/CodableState/JournalStore.swift's `CodableNotesStore`.
@MainActor @Observable
final class CodableNotesStore: Store {
  struct Note: Codable, Equatable, Sendable {
    var text: String
    var date: Date
  }

  struct State: CodableState {
    var notes: [Note] = []
  }

  enum Action: Sendable { case add(Note) }

  nonisolated static func reduce(_ state: inout State, _ action: Action) -> Bool {
    guard case .add(let note) = action else { return false }
    state.notes.append(note)
    return true
  }

  @ObservationIgnored let core: StoreCore<CodableNotesStore>

  init(contentsOf url: URL) throws {
    core = try CodableNotesStore.fileCore(contentsOf: url)
  }
}
