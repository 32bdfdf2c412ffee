import Decompression
import TrackModel

/// One member of the reader family: bytes of one format in, a `Track` out. Readers are pure
/// (no I/O) and must never crash or hang on any input: every problem is a `TrackDecodingError`.
public protocol TrackReader: Sendable {
    /// The format this reader reads.
    static var format: TrackFormat { get }
    /// Reads a whole file already in memory (decompressed).
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) throws(TrackDecodingError) -> Track
}

/// Limits that keep a hostile or broken file from using unbounded time or memory.
public struct DecodingLimits: Sendable, Equatable {
    /// Largest input accepted, in bytes. Default: 1 GiB.
    public var maximumInputBytes: Int = 1 << 30
    /// Most fixes read from one file. Default: 20,000,000.
    public var maximumFixes: Int = 20_000_000
    /// Deepest element or object nesting accepted. Default: 256.
    public var maximumNestingDepth: Int = 256
    /// Output limits for gzip and KMZ content. Default: 512 MiB and a 100:1 ratio (see `DecompressionLimits`).
    public var decompression = DecompressionLimits()

    /// The defaults above.
    public init() {}
}

/// Counts the fixes a reader keeps against `DecodingLimits.maximumFixes`; every reader counts
/// through one, so the limit and its message are the same for all formats.
struct FixCounter {
    let maximum: Int
    private(set) var count = 0

    init(_ limits: DecodingLimits) { maximum = limits.maximumFixes }

    /// Counts one more fix; past the limit, throws an error at `position` (computed only then).
    @inline(__always)
    mutating func add(_ format: TrackFormat, at position: @autoclosure () -> SourcePosition?) throws(TrackDecodingError) {
        count += 1
        if count > maximum {
            throw TrackDecodingError(.limitExceeded, format: format, position: position(), "more than \(maximum) fixes (the configured limit)")
        }
    }
}
