extension SettingsStore.State {
  /// The settings file's own key: `"values"`, an object of any JSON values, kept as they
  /// are (numbers with their digits).
  public static func jsonFields<Coder: JSONFieldCoder<Self> & ~Copyable>(
    _ coder: inout Coder
  ) throws(JSONCodingError) -> Coder.Result {
    let values = try coder.field("values", \.values)
    return try coder.object { Self(values) }
  }

  /// Version 0 is a bare object of keys and values.
  public static func migrate(
    fromVersion version: Int, reader: inout JSONReader
  ) throws(JSONCodingError) -> Self {
    guard version == 0 else { throw JSONCodingError("file version \(version) is not supported") }
    return Self(try [String: JSONValue](from: &reader))
  }
}
