// Stand-ins for Foundation's `NSFileCoordinator` and `NSFilePresenter`, which
// swift-corelibs-foundation lacks: the declarations the iCloud adapter uses, as the Apple SDKs
// declare them (https://developer.apple.com/documentation/foundation/nsfilecoordinator), and
// what iCloud Drive does behind them (a coordinated read of a file not downloaded downloads
// it first; presenters hear of other writers' changes), so that the adapter is tested here.
#if !canImport(Darwin)
  import Foundation

  /// A pointer to an error the call sets. (SDK: `AutoreleasingUnsafeMutablePointer<NSError?>?`,
  /// which only exists with Objective-C; a caller passes `&error` to either.)
  public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

  /// An object that is told of coordinated accesses to a file by others. (SDK: `protocol
  /// NSFilePresenter : NSObjectProtocol`, whose methods other than the two properties are
  /// optional: here, requirements with empty defaults.)
  public protocol NSFilePresenter: NSObjectProtocol {
    /// (SDK: `var presentedItemURL: URL? { get }`.)
    var presentedItemURL: URL? { get }
    /// (SDK: `var presentedItemOperationQueue: OperationQueue { get }`.)
    var presentedItemOperationQueue: OperationQueue { get }
    /// (SDK: `optional func presentedItemDidChange()`.)
    func presentedItemDidChange()
    /// (SDK: `optional func presentedItemDidGain(_ version: NSFileVersion)`.)
    func presentedItemDidGain(_ version: NSFileVersion)
    /// (SDK: `optional func presentedItemDidMove(to newURL: URL)`.)
    func presentedItemDidMove(to newURL: URL)
  }

  extension NSFilePresenter {
    public func presentedItemDidChange() {}
    public func presentedItemDidGain(_ version: NSFileVersion) {}
    public func presentedItemDidMove(to newURL: URL) {}
  }

  /// Coordinates the reading and writing of files among processes and their presenters.
  open class NSFileCoordinator {
    /// (SDK: `struct NSFileCoordinator.ReadingOptions : OptionSet`.)
    public struct ReadingOptions: OptionSet, Sendable {
      public let rawValue: UInt
      public init(rawValue: UInt) { self.rawValue = rawValue }
      public static let withoutChanges = ReadingOptions(rawValue: 1 << 0)
      public static let resolvesSymbolicLink = ReadingOptions(rawValue: 1 << 1)
      public static let immediatelyAvailableMetadataOnly = ReadingOptions(rawValue: 1 << 2)
      public static let forUploading = ReadingOptions(rawValue: 1 << 3)
    }

    /// (SDK: `struct NSFileCoordinator.WritingOptions : OptionSet`.)
    public struct WritingOptions: OptionSet, Sendable {
      public let rawValue: UInt
      public init(rawValue: UInt) { self.rawValue = rawValue }
      public static let forDeleting = WritingOptions(rawValue: 1 << 0)
      public static let forMoving = WritingOptions(rawValue: 1 << 1)
      public static let forMerging = WritingOptions(rawValue: 1 << 2)
      public static let forReplacing = WritingOptions(rawValue: 1 << 3)
      public static let contentIndependentMetadataOnly = WritingOptions(rawValue: 1 << 4)
    }

    private let presenter: (any NSFilePresenter)?
    private let cancelled = NSLock()
    nonisolated(unsafe) private var isCancelled = false

    /// (SDK: `init(filePresenter filePresenterOrNil: (any NSFilePresenter)?)`.)
    public init(filePresenter filePresenterOrNil: (any NSFilePresenter)?) {
      presenter = filePresenterOrNil
    }

    /// (SDK: `class func addFilePresenter(_ filePresenter: any NSFilePresenter)`.)
    open class func addFilePresenter(_ filePresenter: any NSFilePresenter) {
      ICloudDrive.add(filePresenter)
    }

    /// (SDK: `class func removeFilePresenter(_ filePresenter: any NSFilePresenter)`.)
    open class func removeFilePresenter(_ filePresenter: any NSFilePresenter) {
      ICloudDrive.remove(filePresenter)
    }

    /// Cancels the coordinated accesses whose accessor has not started, those waiting included
    /// (for a download): they return `NSUserCancelledError`. (SDK: `func cancel()`.)
    open func cancel() {
      cancelled.withLock { isCancelled = true }
    }

    /// (SDK: `func coordinate(readingItemAt url: URL, options: NSFileCoordinator.ReadingOptions
    /// = [], error outError: NSErrorPointer, byAccessor reader: (URL) -> Void)`.) A file not
    /// downloaded is downloaded first.
    open func coordinate(
      readingItemAt url: URL, options: NSFileCoordinator.ReadingOptions = [],
      error outError: NSErrorPointer, byAccessor reader: (URL) -> Void
    ) {
      access([(url, .read(options))], outError) { reader(url) }
    }

    /// (SDK: `func coordinate(writingItemAt url: URL, options: NSFileCoordinator.WritingOptions
    /// = [], error outError: NSErrorPointer, byAccessor writer: (URL) -> Void)`.)
    open func coordinate(
      writingItemAt url: URL, options: NSFileCoordinator.WritingOptions = [],
      error outError: NSErrorPointer, byAccessor writer: (URL) -> Void
    ) {
      access([(url, .write(options))], outError) { writer(url) }
    }

    /// (SDK: `func coordinate(readingItemAt readingURL: URL, options readingOptions:
    /// NSFileCoordinator.ReadingOptions = [], writingItemAt writingURL: URL, options
    /// writingOptions: NSFileCoordinator.WritingOptions = [], error outError: NSErrorPointer,
    /// byAccessor readerWriter: (URL, URL) -> Void)`.)
    open func coordinate(
      readingItemAt readingURL: URL, options readingOptions: NSFileCoordinator.ReadingOptions = [],
      writingItemAt writingURL: URL, options writingOptions: NSFileCoordinator.WritingOptions = [],
      error outError: NSErrorPointer, byAccessor readerWriter: (URL, URL) -> Void
    ) {
      access([(readingURL, .read(readingOptions)), (writingURL, .write(writingOptions))], outError)
      {
        readerWriter(readingURL, writingURL)
      }
    }

    /// Downloads what is read (waiting while a test holds the download, failing as a test
    /// made it fail), records the accesses, runs `accessor`, and tells the other presenters of
    /// what was written.
    private func access(
      _ accesses: [(URL, ICloudDrive.Access)], _ outError: NSErrorPointer,
      _ accessor: () -> Void
    ) {
      let isCancelled = { self.cancelled.withLock { self.isCancelled } }
      if isCancelled() {
        outError?.pointee = NSError(domain: NSCocoaErrorDomain, code: NSUserCancelledError)
        return
      }
      for (url, access) in accesses {
        guard case .read = access else { continue }
        if let error = ICloudDrive.downloadForRead(url, isCancelled: isCancelled) {
          outError?.pointee = error
          return
        }
      }
      ICloudDrive.begin(accesses)
      accessor()
      ICloudDrive.end(accesses, by: presenter)
    }
  }
#endif
