import Foundation
import StoreTesting
import Stores
import Testing

/// An app's `Codable` setting with no conformance to `SettingValue`.
struct AppWindow: Codable, Sendable, Equatable {
  var width: Int
  var title: String
}

/// An app's enumeration with raw values, neither `Codable` nor `CaseIterable`.
enum Tempo: String, Sendable {
  case slow, fast
}

/// An app's enumeration with raw values, `CaseIterable` only.
enum AppShade: Int, Sendable, CaseIterable {
  case light = 1
  case dark = 2
}

/// A `Hashable` value kept in a set.
struct AppBadge: Codable, Sendable, Hashable {
  var name: String
}

/// `diary settings` on an app's keys whose types have no conformance of their own.
@MainActor
@Suite("Attack on SettingForm through diary")
struct DiarySettingFormAttackTests {
  let folder = TemporaryFolder()
  /// `diary` on the folder, its tables as wide as they need.
  var diary: DiaryProcess { .wide(on: folder.url) }
  var url: URL { folder.file("settings.json") }

  let window = SettingsKey("window", default: AppWindow(width: 800, title: "Main"), summary: "W")
  let pace = SettingsKey<Tempo>("pace", default: .slow, summary: "P")
  let shade = SettingsKey<AppShade>("shade", default: .light, summary: "S")
  let badges = SettingsKey<Set<AppBadge>>("badges", default: [], summary: "B")

  func app() throws -> SettingsStore {
    try SettingsStore(
      contentsOf: url,
      keys: [
        AnySettingsKey(window), AnySettingsKey(pace), AnySettingsKey(shade),
        AnySettingsKey(badges),
      ])
  }

  @Test("wrong shapes and cases are refused; right ones read by the app; undo puts back")
  func setAndUndo() throws {
    let settings = try app()
    for (key, value) in [
      ("window", #"{"width":"wide","title":"x"}"#), ("window", #"{"title":"x"}"#),
      ("shade", "3"), ("shade", "light"), ("window", "[1]"),
    ] {
      let result = diary.run("settings", "set", key, value)
      #expect(result.exitCode == 65, "\(key) \(value): \(result.errorOutput)")
    }
    #expect(diary.run("settings", "set", "window", #"{"width":640,"title":"Side"}"#).exitCode == 0)
    #expect(diary.run("settings", "set", "pace", "fast").exitCode == 0)
    #expect(diary.run("settings", "set", "shade", "2").exitCode == 0)
    #expect(diary.run("settings", "set", "badges", #"[{"name":"b"},{"name":"a"}]"#).exitCode == 0)
    try settings.refresh()
    #expect(settings.value(for: window) == AppWindow(width: 640, title: "Side"))
    #expect(settings.value(for: pace) == .fast)
    #expect(settings.value(for: shade) == .dark)
    #expect(settings.value(for: badges) == [AppBadge(name: "a"), AppBadge(name: "b")])
    let list = diary.run("settings", "list", "--json")
    #expect(list.exitCode == 0, "\(list.errorOutput)")
    #expect(diary.run("undo").exitCode == 0)
    try settings.refresh()
    #expect(settings.value(for: badges) == [])
    #expect(diary.run("settings", "reset", "window").exitCode == 0)
    try settings.refresh()
    #expect(settings.value(for: window) == AppWindow(width: 800, title: "Main"))
  }
}
