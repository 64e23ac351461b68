import Foundation

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// Workouts from GPX, the files running watches and apps write: one workout per track
/// (`<trk>`), its distance the sum of the great-circle distances between consecutive track
/// points (on a sphere of the WGS-84 mean Earth radius, 6,371.0088 km), its date the time of
/// its first point that has one, its name the track's `<name>` or else the file's name, its
/// sport the track's `<type>` (see ``Sport/init(_:)``; `running`, `cycling`, …) where it has
/// one.
///
/// Its duration: elapsed, from the time of its first point to that of its last; moving, the
/// sum of the intervals between consecutive points of one segment (`<trkseg>`) whose average
/// speed is at least ``movingSpeed`` — slower is standing still, or a GPS drifting at rest —
/// so that neither a stop within a segment nor the time between segments (where a watch
/// paused) counts. A track whose points span no time has no duration; one that never moved
/// has no moving time.
///
/// Only plain GPX is read: a file with a document type or entities (`<!DOCTYPE`,
/// `<!ENTITY`, which GPX never has and which can expand a small file into gigabytes), with
/// elements nested deeper than ``maximumDepth``, that is not well-formed XML, or that has no
/// track is refused, with the line and column, and nothing is imported. So is a track longer
/// than ``maximumDistance``, as a longer distance is refused everywhere else. Any file up to
/// `WorkoutsImporter.maximumFileSize` is read (libxml2's 10 MB limit on one part of its input
/// does not apply: the parser is fed a part at a time).
package enum WorkoutsGPX {
  /// The WGS-84 mean Earth radius, in kilometres.
  package static let earthRadius = 6_371.0088
  /// The slowest average speed between two points that counts as moving, in metres per
  /// second: 0.5 m/s, 1.8 km/h, slower than anyone walks.
  package static let movingSpeed = 0.5
  /// How deep elements may be nested: GPX needs 5 (`gpx/trk/trkseg/trkpt/time`).
  package static let maximumDepth = 32
  /// The longest track imported, in kilometres: the 100,000 that a distance can be typed with
  /// in `diary workouts add` and in a CSV file (`DistanceText.limit`).
  package static let maximumDistance = DistanceText.limit

  /// The great-circle distance in kilometres between two points given in degrees
  /// (haversine formula).
  package static func distance(
    from start: (latitude: Double, longitude: Double), to end: (latitude: Double, longitude: Double)
  ) -> Double {
    let radians = Double.pi / 180
    let dLatitude = (end.latitude - start.latitude) * radians
    let dLongitude = (end.longitude - start.longitude) * radians
    let a =
      sin(dLatitude / 2) * sin(dLatitude / 2)
      + cos(start.latitude * radians) * cos(end.latitude * radians) * sin(dLongitude / 2)
      * sin(dLongitude / 2)
    return 2 * earthRadius * asin(min(1, a.squareRoot()))
  }

  /// The workouts of `data`, the GPX file at `path`, with `makeID` for their ids.
  ///
  /// - Throws: ``WorkoutsImportError`` for a file that is not plain, well-formed GPX with a
  ///   track, or a track without points or times, or longer than ``maximumDistance``.
  /// - Complexity: O(*n*) in the bytes.
  package static func read(_ data: Data, path: String, makeID: () -> UUID)
    throws(WorkoutsImportError)
    -> WorkoutsImport
  {
    func invalid(_ line: Int, _ column: Int, _ message: String) -> WorkoutsImportError {
      WorkoutsImportError(
        file: path, problem: .invalid(line: line, column: column, message: message))
    }
    guard data.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) else {
      throw invalid(1, 1, "the file is empty — a GPX file holds <gpx> with tracks")
    }
    for declaration in ["<!DOCTYPE", "<!ENTITY"] {
      if let range = data.firstRange(of: Data(declaration.utf8)) {
        let before = data[..<range.lowerBound]
        let line = before.count(where: { $0 == 0x0A }) + 1
        let column = before.count - (before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0) + 1
        throw invalid(
          line, column,
          "\(declaration) is not allowed: GPX files have no document type or entities, and "
            + "entities can expand a small file into gigabytes")
      }
    }
    let handler = Handler(maximumDepth: maximumDepth)
    // Fed from a stream, a part at a time: libxml2 refuses ("Huge input lookup") one part of
    // 10 MB or more, which `XMLParser(data:)` hands it whole, and its option to allow that,
    // XML_PARSE_HUGE, is not one XMLParser sets.
    let parser = XMLParser(stream: InputStream(data: data))
    parser.shouldResolveExternalEntities = false
    parser.delegate = handler
    if !parser.parse() || handler.problem != nil {
      if let (line, column, message) = handler.problem { throw invalid(line, column, message) }
      let message = parser.parserError.map { "not well-formed XML (\(Self.describe($0)))" }
      throw invalid(
        max(parser.lineNumber, 1), max(parser.columnNumber, 1),
        (message ?? "not well-formed XML") + " — is it a GPX file?")
    }
    guard handler.isClosed else {
      throw invalid(
        max(parser.lineNumber, 1), max(parser.columnNumber, 1),
        "the file ends inside an element: it was cut short")
    }
    guard handler.sawGPX else {
      throw invalid(1, 1, "the file is XML but not GPX: it has no <gpx> element")
    }
    guard !handler.tracks.isEmpty else {
      throw invalid(1, 1, "the file has no track (<trk>) to import")
    }
    let fileName = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
    var rows: [WorkoutsImport.Row] = []
    for track in handler.tracks {
      guard track.points.count > 0 else {
        throw invalid(track.line, 1, "the track has no points (<trkpt lat=… lon=…>)")
      }
      guard let date = track.date else {
        throw invalid(track.line, 1, "the track has no times (<time> in its points)")
      }
      var distance = 0.0
      for index in track.points.indices.dropFirst() {
        distance += Self.distance(from: track.points[index - 1], to: track.points[index])
      }
      let name = track.name.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      guard distance <= maximumDistance else {
        throw invalid(
          track.line, 1,
          "the track\(name.isEmpty ? "" : " " + quoted(name)) is \(Self.grouped(distance)) km "
            + "long, more than the \(Self.grouped(maximumDistance)) km a workout can be — its "
            + "points are far apart or out of order; remove the stray points, or split it into "
            + "tracks (<trk>) of less than \(Self.grouped(maximumDistance)) km")
      }
      do {
        let workout = try Workout(
          id: makeID(), name: name.isEmpty ? fileName : name, meters: distance * 1_000,
          date: date, duration: Self.duration(of: track), sport: Sport(track.type))
        rows.append(WorkoutsImport.Row(line: track.line, workout: workout, hasID: false))
      } catch {
        throw invalid(track.line, 1, error.description)
      }
    }
    return WorkoutsImport(file: path, rows: rows)
  }

  /// The duration of `track` (see ``WorkoutsGPX``), or `nil` when its points span no time.
  /// O(number of points).
  private static func duration(of track: Handler.Track) -> WorkoutDuration? {
    guard let first = track.times.first(where: { $0 != nil }) ?? nil,
      let last = track.times.last(where: { $0 != nil }) ?? nil, last > first
    else { return nil }
    var moving = 0.0
    for index in track.points.indices.dropFirst()
    where track.segments[index] == track.segments[index - 1] {
      guard let start = track.times[index - 1], let end = track.times[index], end > start
      else { continue }
      let meters = Self.distance(from: track.points[index - 1], to: track.points[index]) * 1_000
      if meters / (end - start) >= movingSpeed { moving += end - start }
    }
    let elapsed = last - first
    return try? WorkoutDuration(
      elapsed: elapsed, moving: moving > 0 && moving <= elapsed ? moving : nil)
  }

  /// `kilometres` rounded to a whole number, its thousands separated by commas: "33,358,413".
  private static func grouped(_ kilometres: Double) -> String {
    let digits = String(Int(kilometres.rounded()))
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return result
  }

  /// The parser's error in words.
  private static func describe(_ error: any Error) -> String {
    let code = (error as NSError).code
    return "XML error \(code)"
  }

  /// What the parser found: the tracks, and the first problem.
  private final class Handler: NSObject, XMLParserDelegate {
    struct Track {
      var line: Int
      var name = ""
      /// The text of its `<type>`.
      var type = ""
      var points: [(latitude: Double, longitude: Double)] = []
      /// The time of each point, in seconds since 2001, where it has one.
      var times: [Double?] = []
      /// The segment of each point: its `<trkseg>`'s number in the track.
      var segments: [Int] = []
      /// How many segments were opened so far.
      var segmentCount = 0
      var date: Date?
    }

    let maximumDepth: Int
    var tracks: [Track] = []
    var sawGPX = false
    var problem: (line: Int, column: Int, message: String)?
    private var path: [String] = []
    private var text = ""

    /// Whether every element opened was closed.
    var isClosed: Bool { path.isEmpty }

    init(maximumDepth: Int) {
      self.maximumDepth = maximumDepth
    }

    private func fail(_ parser: XMLParser, _ message: String) {
      guard problem == nil else { return }
      problem = (max(parser.lineNumber, 1), max(parser.columnNumber, 1), message)
      parser.abortParsing()
    }

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?,
      qualifiedName: String?, attributes: [String: String] = [:]
    ) {
      guard problem == nil else { return }
      path.append(name)
      guard path.count <= maximumDepth else {
        return fail(parser, "elements are nested more than \(maximumDepth) deep")
      }
      text = ""
      switch name {
      case "gpx": sawGPX = true
      case "trk": tracks.append(Track(line: parser.lineNumber))
      case "trkseg":
        if !tracks.isEmpty { tracks[tracks.count - 1].segmentCount += 1 }
      case "trkpt":
        guard !tracks.isEmpty else { return }
        guard let latitude = attributes["lat"].flatMap(Double.init), latitude.isFinite,
          abs(latitude) <= 90, let longitude = attributes["lon"].flatMap(Double.init),
          longitude.isFinite, abs(longitude) <= 180
        else {
          return fail(
            parser,
            "a track point needs lat (-90…90) and lon (-180…180) in degrees, such as "
              + "<trkpt lat=\"48.85\" lon=\"2.35\">")
        }
        tracks[tracks.count - 1].points.append((latitude, longitude))
        tracks[tracks.count - 1].times.append(nil)
        tracks[tracks.count - 1].segments.append(tracks[tracks.count - 1].segmentCount)
      default: break
      }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
      // Only the short texts read are kept: a name or a time.
      if text.utf8.count < 10_000 { text += string }
    }

    func parser(
      _ parser: XMLParser, didEndElement name: String, namespaceURI: String?,
      qualifiedName: String?
    ) {
      guard problem == nil else { return }
      let parent = path.dropLast().last
      path.removeLast()
      guard !tracks.isEmpty else { return }
      if name == "name", parent == "trk" {
        tracks[tracks.count - 1].name = text
      } else if name == "type", parent == "trk" {
        tracks[tracks.count - 1].type = text
      } else if name == "time", parent == "trkpt", !tracks[tracks.count - 1].points.isEmpty {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let date = ISO8601Timestamp.date(from: trimmed) else {
          return fail(
            parser, "expected a time such as 2026-11-29T07:30:00Z, found \(quoted(trimmed))")
        }
        let track = tracks.count - 1
        if tracks[track].date == nil { tracks[track].date = date }
        tracks[track].times[tracks[track].times.count - 1] = date.timeIntervalSinceReferenceDate
      }
    }

    func parser(
      _ parser: XMLParser, foundInternalEntityDeclarationWithName name: String, value: String?
    ) {
      fail(parser, "entities are not allowed in a GPX file")
    }

    func parser(
      _ parser: XMLParser, foundExternalEntityDeclarationWithName name: String, publicID: String?,
      systemID: String?
    ) {
      fail(parser, "entities are not allowed in a GPX file")
    }
  }
}
