import BatchRun
import FileStore
import Foundation
import JobQueue
import Testing

/// Issue 22 item 1: a run's configuration goes to its workers whole, as one versioned file, and
/// the basemap's content stamp is the library's to take.
@Suite struct RunConfigurationFileTests {
    /// A configuration that differs from the defaults in every part a worker uses.
    static func changedConfiguration(root: String) -> RunConfiguration {
        var configuration = RunConfiguration()
        configuration.jobsDirectory = root + "/Jobs"
        configuration.outputDirectory = root + "/Output"
        configuration.shard = ShardSelection(index: 1, count: 3)!
        configuration.settleSeconds = 0.25
        configuration.leaseSeconds = 42.5
        configuration.jobTimeoutSeconds = 7
        configuration.maxAttempts = 5
        configuration.maxRunDeaths = 9
        configuration.memoryLimitBytes = 96 << 20
        configuration.offlineTiles = true
        configuration.tileCacheDirectory = root + "/tiles"
        configuration.version = "test-version"
        configuration.settings.rendererVersion = "renderer-x"
        configuration.settings.images.removeLast(2)
        configuration.settings.options.paddingFraction = 0.3
        configuration.settings.options.style.coloring = .speed
        configuration.settings.options.style.strokeWidthPoints = 3.7
        configuration.settings.options.basemap = .init(source: "https://tiles.example.org/{z}/{x}/{y}.png?key=secret")
        configuration.settings.options.basemap?.opacity = 0.55
        configuration.settings.options.basemap?.attribution = "© Test"
        configuration.settings.options.basemap?.subdomains = ["a", "b"]
        return configuration
    }

    @Test func aConfigurationComesBackFromItsFileUnchanged() throws {
        let root = NSTemporaryDirectory() + "tracksnap-runconfig-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let configuration = Self.changedConfiguration(root: root)
        let path = try RunConfigurationFile.write(configuration, owner: .current)
        #expect(path.hasPrefix(root + "/Jobs/.run/"))
        let read = try RunConfigurationFile.read(path)
        #expect(read == configuration)
        #expect(read.settings.fingerprint == configuration.settings.fingerprint)
        // Equal values, equal bytes: the file is deterministic.
        #expect(RunConfigurationFile.encode(read) == RunConfigurationFile.encode(configuration))
        // It may hold a URL template's key: readable by its owner only.
        #expect(try FileStore.status(path).map { $0.mode & 0o777 } == 0o600)
    }

    @Test func aFileOfAnotherFormatVersionIsRefusedByName() throws {
        var configuration = RunConfiguration()
        configuration.formatVersion = 99
        let bytes = RunConfigurationFile.encode(configuration)
        #expect {
            try RunConfigurationFile.decode(bytes, file: "Jobs/.run/future.json")
        } throws: { error in
            let text = "\(error)"
            return text.contains("Jobs/.run/future.json") && text.contains("format version 99") && text.contains("reads version 1")
        }
        #expect(throws: RunConfigurationFileError.self) { try RunConfigurationFile.decode(Array("{}".utf8), file: "empty.json") }
    }

    @Test func aWorkerGivenAFileOfAnotherVersionStopsAndSaysWhy() throws {
        let sandbox = try RunSandbox()
        var configuration = RunConfiguration()
        configuration.formatVersion = 2
        let path = sandbox.root + "/future.json"
        try FileStore.writeAtomically(RunConfigurationFile.encode(configuration), to: path)
        let result = try sandbox.run(["__worker", path])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("format version 2") && result.stdout.contains(path), "\(result.stdout)")
    }

    @Test func aLibraryBuiltConfigurationKeysByTheBasemapFilesContent() throws {
        let root = NSTemporaryDirectory() + "tracksnap-runconfig-\(UUID().uuidString)"
        try FileStore.createDirectories(root)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let mbtiles = root + "/replaced.mbtiles"
        try FileStore.writeAtomically(Array(repeating: 1, count: 4096), to: mbtiles)
        var configuration = RunConfiguration()
        configuration.jobsDirectory = root + "/Jobs"
        configuration.outputDirectory = root + "/Output"
        configuration.settings.options.basemap = .init(source: mbtiles)
        let stamped = configuration.stampingBasemap().settings.options.basemap?.contentStamp ?? ""
        #expect(stamped.hasPrefix("size 4096 mtime "), "\(stamped)")
        let before = configuration.makeStore().fingerprint
        #expect(before == configuration.stampingBasemap().makeStore().fingerprint)
        // A new file in its place (another size, another time): every key changes.
        try FileStore.writeAtomically(Array(repeating: 2, count: 8192), to: mbtiles)
        #expect(configuration.makeStore().fingerprint != before)
        // A stamp already taken (a worker's, from the run's file) is kept.
        let workers = configuration.stampingBasemap()
        try FileStore.writeAtomically(Array(repeating: 3, count: 100), to: mbtiles)
        #expect(workers.renderSettings().options.basemap?.contentStamp == workers.settings.options.basemap?.contentStamp)
    }

    @Test func filesOfSupervisorsThatAreGoneAreSwept() throws {
        let root = NSTemporaryDirectory() + "tracksnap-runconfig-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        var configuration = RunConfiguration()
        configuration.jobsDirectory = root + "/Jobs"
        let me = ProcessIdentity.current
        let mine = try RunConfigurationFile.write(configuration, owner: me)
        let dead = try RunConfigurationFile.write(configuration, owner: ProcessIdentity(host: me.host, pid: me.pid, startTicks: me.startTicks + 1))
        let foreign = try RunConfigurationFile.write(configuration, owner: ProcessIdentity(host: me.host + "-elsewhere", pid: 1, startTicks: 1))
        #expect(try RunConfigurationFile.sweep(queueRoot: configuration.jobsDirectory) == 1)
        #expect(FileStore.exists(mine) && !FileStore.exists(dead) && FileStore.exists(foreign))
    }

    @Test func aRunLeavesNoConfigurationFileBehind() throws {
        let sandbox = try RunSandbox()
        try sandbox.writeTracks(2)
        try sandbox.enqueueArchive()
        let result = try sandbox.runQueue(["--style", sandbox.thumbnailsOnlyStyle, "--workers", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(sandbox.jobs(in: "done").count == 2)
        let left = (try? FileStore.listDirectory(RunConfigurationFile.directory(queueRoot: sandbox.jobs))) ?? []
        #expect(left.isEmpty, "\(left)")
    }
}
