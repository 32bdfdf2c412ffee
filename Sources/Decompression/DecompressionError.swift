/// Limits that keep a compressed file from expanding into unbounded memory (a "zip bomb").
public struct DecompressionLimits: Sendable, Equatable, Codable {
    /// Most bytes one stream may expand to. Default: 512 MiB.
    public var maximumOutputBytes: Int = 512 << 20
    /// Largest accepted ratio of output to input bytes. Default: 100 (real GPS tracks compress
    /// 5–25:1; a stream of one repeated byte reaches 1000:1).
    public var maximumRatio: Int = 100
    /// Output below this size is never refused for its ratio, so a tiny file of repetitive text
    /// is not mistaken for a bomb. Default: 1 MiB.
    public var ratioFloorBytes: Int = 1 << 20

    /// The defaults above.
    public init() {}

    /// The most output `inputBytes` of compressed data may produce under both limits.
    public func outputBudget(inputBytes: Int) -> Int {
        let (scaled, overflow) = inputBytes.multipliedReportingOverflow(by: maximumRatio)
        let byRatio = overflow ? Int.max : max(scaled, ratioFloorBytes)
        return min(maximumOutputBytes, byRatio)
    }
}

/// A compressed container or stream could not be expanded.
public struct DecompressionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The failure class.
    public enum Kind: String, Sendable, Equatable {
        /// The bytes are not a valid stream or archive (bad header, broken data, bad checksum, truncated).
        case malformed
        /// The output would exceed `DecompressionLimits`.
        case limitExceeded
        /// A valid archive uses a feature this reader does not implement (ZIP64, encryption, a method other than deflate).
        case unsupported
    }

    /// The failure class.
    public var kind: Kind
    /// Offset in the compressed input where the problem was found.
    public var byteOffset: Int
    /// Expected versus found.
    public var message: String

    /// Creates an error.
    public init(_ kind: Kind, at byteOffset: Int, _ message: String) {
        self.kind = kind
        self.byteOffset = byteOffset
        self.message = message
    }

    /// "byte 12: …".
    public var description: String { "byte \(byteOffset): \(message)" }
}
