import PNGEncoding
import TrackFormats
import TrackModel

/// Why a render failed. `description` is the one line a user sees (the caller adds the file name).
public enum SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be decoded.
    case decoding(TrackDecodingError)
    /// The file was read but no fix survived cleaning.
    case noValidFixes(format: TrackFormat, fixesRead: Int, invalid: Int, duplicates: Int, spikes: Int)
    /// An option is out of range.
    case invalidOptions(String)
    /// libpng failed.
    case encoding(PNGError)

    /// Whether the input itself is at fault (rather than the options or the machine).
    public var isInvalidInput: Bool {
        switch self {
        case .decoding, .noValidFixes: return true
        case .invalidOptions, .encoding: return false
        }
    }

    /// Whether the input passed a configured limit (memory, size, fixes, nesting, expansion):
    /// the file may be fine, only too big for these settings.
    public var isLimit: Bool {
        if case .decoding(let error) = self { return error.kind == .limitExceeded }
        return false
    }

    /// One line naming the format and the position where there is one.
    public var description: String {
        switch self {
        case .decoding(let error):
            return error.description
        case let .noValidFixes(format, read, invalid, duplicates, spikes):
            return
                "\(format.rawValue.uppercased()): no valid fixes (read \(read); dropped \(invalid) invalid, \(duplicates) repeated, \(spikes) spikes)"
        case .invalidOptions(let message):
            return "invalid options: \(message)"
        case .encoding(let error):
            return error.description
        }
    }
}
