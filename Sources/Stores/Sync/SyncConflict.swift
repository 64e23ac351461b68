import Foundation

/// A change made on one device that lost to a change another device made at the same time
/// — without seeing it — kept so that nobody's value disappears silently: a field's value
/// or a setting's that lost to a later stamp (a setting's reset too), or an item's removal
/// that a later edit undid.
///
/// A synced store lists those still open in ``SyncStatus/conflicts``; ``Store/resolve(_:choosing:)``
/// settles one, choosing its value or the current one. A resolution is an ordinary change:
/// it syncs, and every device drops the conflicts it settled. Until then a conflict is kept
/// beside the value that won — a later ordinary change of the field keeps it too, unless its
/// own device changes the field again, superseding it — for as long as a tombstone is: 90
/// days after every device that wrote the file has written it again. A value that equals the
/// field's current value, or a later value kept, is not listed.
public struct SyncConflict: Hashable, Sendable, Identifiable, CustomStringConvertible {
  /// The item whose field or removal lost; `nil` for a setting.
  public var item: UUID?
  /// The field's key in the file (`"title"`), or the setting's (`"sleepGoal"`); `nil` for the
  /// item's removal.
  public var field: String?
  /// The value that lost, as JSON text (`"Buy oat milk"`, `true`); `nil` for a removal — of
  /// the item, or of the setting (reset to its default).
  public var value: String?
  /// The device that made the change (its id, as stamps write it).
  public var device: String
  /// When it was made, by that device's clock (or later, when it had seen later stamps).
  public var date: Date
  /// The change's stamp, which names it among every device's changes.
  public var stamp: String

  /// The conflict's identity: its item (or `settings`), field and change.
  public var id: String { "\(item?.uuidString ?? "settings") \(field ?? "-") \(stamp)" }

  /// A conflict with these fields (for a preview or a test).
  public init(
    item: UUID?, field: String?, value: String?, device: String, date: Date, stamp: String
  ) {
    self.item = item
    self.field = field
    self.value = value
    self.device = device
    self.date = date
    self.stamp = stamp
  }

  /// The conflict of the change stamped `stamp`: its device, time and stamp from the stamp.
  package init(item: UUID?, field: String?, value: String?, stamp: Stamp) {
    self.init(
      item: item, field: field, value: value, device: stamp.device.text,
      date: Date(timeIntervalSince1970: Double(stamp.milliseconds) / 1000),
      stamp: stamp.description)
  }

  public var description: String {
    let change =
      switch (field, value) {
      case (let field?, let value?): "\(field) = \(value)"
      case (let field?, nil): "\(field) reset"
      case (nil, _): "removed"
      }
    return (item.map { "\($0): " } ?? "") + change + " on \(device)"
  }

  /// The value to keep when resolving a conflict.
  public enum Choice: Hashable, Sendable {
    /// The conflict's: its value is set (a removal removes the item or resets the setting).
    case conflict
    /// The current value: the field (or the item) stays as it is.
    case current
  }
}
