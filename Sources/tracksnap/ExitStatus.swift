#if canImport(Glibc)
import Glibc
#endif
import BatchRun
import FileStore
import FoundationEssentials
import SnapshotRendering
import TileSources

/// Every exit code `tracksnap` uses, and the one place that turns errors into them.
enum ExitStatus: Int32 {
    /// Everything asked for was done.
    case success = 0
    /// Something unexpected failed (a bug, or an error with no better class), or `enqueue` could
    /// not queue some of the files (it says which and why, and queues the rest).
    case unexpected = 1
    /// The command line or configuration is wrong.
    case usage = 2
    /// The input file is not a readable track: missing, unreadable, not a regular file, or not a
    /// track (EX_DATAERR).
    case invalidInput = 65
    /// The output file cannot be written: its folder is missing or not writable (EX_CANTCREAT).
    case cannotCreate = 73
    /// A temporary condition (disk full, read-only file system, a basemap file locked by its
    /// writer); retrying later may succeed (EX_TEMPFAIL).
    case temporary = 75

    /// Prints one line for `error` on stderr and returns its exit status.
    static func report(_ error: any Error) -> ExitStatus {
        let (status, message): (ExitStatus, String) = {
            switch error {
            case let error as UsageError: return (.usage, error.message)
            case let error as OutputFileError:
                return (
                    error.error.isEnvironmental ? .temporary : .cannotCreate,
                    "cannot write \(error.path): \(error.error.reason ?? String(cString: strerror(error.error.code)))"
                )
            case let error as UnreadableInputError:
                return (error.error.isEnvironmental ? .temporary : .invalidInput, error.error.description)
            case let error as InputFileError: return (error.error.isInvalidInput ? .invalidInput : .unexpected, "\(error.path): \(error.error)")
            case let error as FileError:
                return (error.isEnvironmental ? .temporary : (error.isNotFound ? .invalidInput : .unexpected), error.description)
            case let error as TileProblem:
                return error.isTemporary ? (.temporary, "--basemap: \(error)") : (.unexpected, "--basemap: \(error)")
            case let error as RunError:
                switch error {
                case .busy(let lockPath): return (.temporary, "another run is active on this queue (\(lockPath) is locked); try again later")
                case .file(let error): return (error.isEnvironmental ? .temporary : (error.isNotFound ? .usage : .unexpected), error.description)
                case .spawn(let error): return (.unexpected, error.message)
                }
            default: return (.unexpected, "\(error)")
            }
        }()
        // Paths and excerpts inside may hold control characters: one line, no escape codes.
        let hint = status == .usage ? "\nRun 'tracksnap --help' for usage." : ""
        StandardError.write("tracksnap: error: " + FileStore.escapingControls(message) + hint + "\n")
        return status
    }
}

/// A command line that cannot be run as written.
struct UsageError: Error {
    var message: String
}

/// The output of `render` could not be written; the message names the user's path, never the
/// temporary one the write went through.
struct OutputFileError: Error {
    var path: String
    var error: FileError
}

/// The input of `render` could not be read (missing, unreadable, not a regular file).
struct UnreadableInputError: Error {
    var error: FileError
}

/// A render failure tied to the input file it came from.
struct InputFileError: Error {
    var path: String
    var error: SnapshotError
}
