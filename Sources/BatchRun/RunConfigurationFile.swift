import FileStore
import FoundationEssentials
import JobQueue

/// A run's configuration as a file in the queue's private folder, `<queue>/.run/<host>~<pid>~<start>.json`
/// (named after the supervisor that wrote it): written once, atomically, as the run starts; each
/// worker is started with its path and decodes it. Removed when the run ends; a file left by a
/// supervisor that died is swept by the next run on its host.
package enum RunConfigurationFile {
    /// Private: the file may hold a URL template with an API key.
    static let permissions: mode_t = 0o600
    /// Far more than a configuration needs (a style's values, a few paths).
    static let maximumBytes = 1 << 20

    /// The private folder of run configurations in the queue at `queueRoot`.
    package static func directory(queueRoot: String) -> String { QueueLayout(root: queueRoot).root + "/.run" }

    /// The file of the run supervised by `owner`.
    package static func path(queueRoot: String, owner: ProcessIdentity) -> String {
        directory(queueRoot: queueRoot) + "/" + owner.fileNameSuffix + ".json"
    }

    /// The bytes of `configuration` (sorted keys, so equal values give equal files).
    package static func encode(_ configuration: RunConfiguration) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Every field is a plain value (numbers are finite: the options were validated); encoding
        // cannot fail.
        return Array(try! encoder.encode(configuration))
    }

    /// A configuration from `bytes` read from `file`; refuses another format version by name.
    package static func decode(_ bytes: [UInt8], file: String) throws(RunConfigurationFileError) -> RunConfiguration {
        struct Versioned: Decodable { var formatVersion: Int }
        let decoder = JSONDecoder()
        let version: Int
        do {
            version = try decoder.decode(Versioned.self, from: Data(bytes)).formatVersion
        } catch {
            throw RunConfigurationFileError(path: file, message: "not a run configuration (no formatVersion): \(error)")
        }
        guard version == RunConfiguration.currentFormatVersion else {
            throw RunConfigurationFileError(
                path: file,
                message: "format version \(version), but this tracksnap reads version \(RunConfiguration.currentFormatVersion)"
                    + " (a supervisor and workers from different builds?)")
        }
        do {
            return try decoder.decode(RunConfiguration.self, from: Data(bytes))
        } catch {
            throw RunConfigurationFileError(path: file, message: "cannot decode version \(version): \(error)")
        }
    }

    /// Writes `configuration` for the run supervised by `owner`; returns the file's path.
    package static func write(_ configuration: RunConfiguration, owner: ProcessIdentity) throws(FileError) -> String {
        let path = path(queueRoot: configuration.jobsDirectory, owner: owner)
        try FileStore.createDirectories(directory(queueRoot: configuration.jobsDirectory), permissions: 0o700)
        try FileStore.writeAtomically(encode(configuration), to: path, permissions: permissions)
        return path
    }

    /// Reads the configuration at `path`.
    package static func read(_ path: String) throws(RunConfigurationFileError) -> RunConfiguration {
        let bytes: [UInt8]
        do {
            bytes = try FileStore.readFile(path, maximumBytes: maximumBytes)
        } catch {
            throw RunConfigurationFileError(path: path, message: "cannot read it: \(error)", isEnvironmental: error.isEnvironmental)
        }
        return try decode(bytes, file: path)
    }

    /// Removes the files of supervisors on this host that are gone (killed before they could
    /// remove their own); returns how many. Other hosts' files are left to their own runs.
    @discardableResult
    package static func sweep(queueRoot: String, identity: ProcessIdentity = .current) throws(FileError) -> Int {
        let folder = directory(queueRoot: queueRoot)
        guard FileStore.exists(folder) else { return 0 }
        var removed = 0
        for name in try FileStore.listDirectory(folder) where name.hasSuffix(".json") {
            guard let owner = ProcessIdentity(fileNameSuffix: name.dropLast(".json".count)), owner.host == identity.host,
                !ProcessIdentity.isAlive(pid: owner.pid, startTicks: owner.startTicks)
            else { continue }
            try FileStore.remove(folder + "/" + name)
            removed += 1
        }
        return removed
    }
}

/// A run configuration file that cannot be used, with the file and what is wrong.
package struct RunConfigurationFileError: Error, Sendable, CustomStringConvertible {
    /// The file.
    package var path: String
    /// What is wrong.
    package var message: String
    /// Whether reading failed for a reason outside the file (I/O error, no permission to a
    /// mount): the run may work later.
    package var isEnvironmental = false

    /// "run configuration PATH: MESSAGE".
    package var description: String { "run configuration \(FileStore.quoted(path)): \(message)" }
}

#if canImport(Glibc)
import Glibc
#endif
