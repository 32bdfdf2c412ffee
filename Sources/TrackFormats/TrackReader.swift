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
public struct DecodingLimits: Sendable, Equatable, Codable {
    /// Largest input accepted, in bytes. Default: 1 GiB.
    public var maximumInputBytes: Int = 1 << 30
    /// Most fixes read from one file. Default: 20,000,000 (the memory ceiling below binds first
    /// at the defaults: about 5 million fixes of a compact file).
    public var maximumFixes: Int = 20_000_000
    /// The per-job memory ceiling, in bytes. A track is refused (`limitExceeded`) when the input,
    /// what gzip, KMZ or UTF-16 expand it to, and `estimatedBytesPerFix` for every fix read would
    /// pass it: the cost is counted from what the reader holds, not from the file's size, so a
    /// small gzip of millions of identical points is refused as soon as it passes the line. Text
    /// fields are held to `maximumTextBytes` each, so text never adds more than a few KiB.
    /// Default: 512 MiB.
    public var maximumMemoryBytes: Int = 512 << 20
    /// Deepest element or object nesting accepted. Default: 256.
    public var maximumNestingDepth: Int = 256
    /// Output limits for gzip and KMZ content. Default: 512 MiB and a 100:1 ratio (see `DecompressionLimits`).
    public var decompression = DecompressionLimits()
    /// Bytes the decoder holds beside the bytes a reader is given: the compressed file while its
    /// decompressed content is read, the UTF-16 original of transcoded text. Set by `TrackDecoder`.
    var bytesHeldBeside = 0

    /// What one fix costs at the peak of a render (the decoded fix with its array's spare
    /// capacity, the cleaned copy, the projected and simplified points of the images), measured
    /// as the peak resident size of `tracksnap render` less the input, over 1 and 3 million fixes
    /// (performance-notes.md): 100 bytes.
    public static let estimatedBytesPerFix = 100
    /// The most bytes of one text field (a name, an activity) a reader decodes; the rest is not
    /// read (the record keeps 200 characters anyway). 4 KiB.
    public static let maximumTextBytes = 4096

    /// The defaults above.
    public init() {}

    /// Kept for the renderer under the ceiling: the canvases, masks and encoder buffers of the
    /// default images and the program itself (a 100-fix track rendered at 2560×1920 peaks at
    /// 21 MB resident). Images far larger than the defaults (a 64-megapixel poster) need more,
    /// which the worker's memory fence (twice the ceiling) still bounds. 32 MiB.
    public static let rendererReserveBytes = 32 << 20

    /// The memory still free for a reader given `inputBytes`, under `maximumMemoryBytes`.
    func memoryLeft(inputBytes: Int) -> Int { maximumMemoryBytes - DecodingLimits.rendererReserveBytes - bytesHeldBeside - inputBytes }

    /// The limit's wording in messages: "the 512 MiB per-job memory limit".
    var memoryLimitText: String { "the \(DecodingLimits.mebibytes(maximumMemoryBytes)) per-job memory limit" }

    /// Bytes as MiB for messages, one decimal below 10 MiB ("0.4 MiB", "512 MiB").
    static func mebibytes(_ bytes: Int) -> String {
        let value = Double(bytes) / 1_048_576
        if value >= 10 { return "\(Int(value.rounded())) MiB" }
        return "\(Double(Int((value * 10).rounded())) / 10) MiB"
    }
}

/// Counts the fixes a reader keeps against `DecodingLimits.maximumFixes` and the memory ceiling;
/// every reader counts through one, so the limits and their messages are the same for all formats.
struct FixCounter {
    /// The most fixes this reader may keep: the smaller of the two limits.
    let maximum: Int
    private let reason: String
    private(set) var count = 0

    /// A counter for a reader of `inputBytes` bytes under `limits`.
    init(_ limits: DecodingLimits, inputBytes: Int) {
        let byMemory = max(0, limits.memoryLeft(inputBytes: inputBytes) / DecodingLimits.estimatedBytesPerFix)
        if byMemory < limits.maximumFixes {
            maximum = byMemory
            let held = inputBytes + limits.bytesHeldBeside
            reason =
                "with the \(DecodingLimits.mebibytes(held)) of input held, more would pass \(limits.memoryLimitText) (about \(DecodingLimits.estimatedBytesPerFix) bytes a fix)"
        } else {
            maximum = limits.maximumFixes
            reason = "the configured limit"
        }
    }

    /// Counts one more fix; past the limit, throws an error at `position` (computed only then).
    @inline(__always)
    mutating func add(_ format: TrackFormat, at position: @autoclosure () -> SourcePosition?) throws(TrackDecodingError) {
        count += 1
        if count > maximum {
            throw TrackDecodingError(.limitExceeded, format: format, position: position(), "more than \(maximum) fixes (\(reason))")
        }
    }
}
