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
