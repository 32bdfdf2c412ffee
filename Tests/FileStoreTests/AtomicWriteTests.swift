import Foundation
import Testing
@testable import FileStore

// Serialized: one test switches process-wide behaviour (`linkRefusedForTesting`) for its duration.
@Suite(.serialized) struct AtomicWriteTests {
    private func temporaryDirectory() throws -> String {
        let path = NSTemporaryDirectory() + "tracksnap-tests-\(UUID().uuidString)"
        try FileStore.createDirectories(path)
        return path
    }

    @Test func replacesTheFileAndLeavesNoTemporary() throws {
        let directory = try temporaryDirectory()
        let path = directory + "/out.png"
        try FileStore.writeAtomically([1, 2, 3], to: path)
        try FileStore.writeAtomically([4, 5], to: path)
        #expect(try FileStore.readFile(path) == [4, 5])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.png"])
    }

    /// New files (named by `linkat` from an unnamed temporary where the file system has them)
    /// and existing ones (replaced by a rename) in one batch: all published, nothing else left,
    /// and each returned status is what `lstat` then says of the path.
    @Test func aBatchOfNewAndExistingFilesReturnsTheirStatuses() throws {
        let directory = try temporaryDirectory()
        let paths = (0..<6).map { directory + "/page-\($0).html" }
        try FileStore.writeAtomically(Array("old".utf8), to: paths[1])
        try FileStore.writeAtomically(Array("old".utf8), to: paths[4])
        let files = paths.enumerated().map {
            (bytes: Array("page \($0.offset) ".utf8) + [UInt8](repeating: 42, count: $0.offset * 100), path: $0.element)
        }
        let statuses = try FileStore.writeAtomically(files, durability: .byCaller)
        #expect(statuses.count == files.count)
        for (file, status) in zip(files, statuses) {
            #expect(try FileStore.readFile(file.path) == file.bytes)
            let found = try #require(try FileStore.status(file.path))
            #expect(found.sizeBytes == status.sizeBytes && found.modificationNanoseconds == status.modificationNanoseconds)
            #expect(found.inode == status.inode && found.linkCount == 1)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == paths.map { FileStore.split($0).name }.sorted())
    }

    /// The mode asked for, whether or not the umask would have taken bits of it (0666 under the
    /// usual 022 needs the `fchmod`; 0600 does not).
    @Test(arguments: [0o666, 0o600, 0o644] as [mode_t])
    func filesGetTheModeAskedFor(permissions: mode_t) throws {
        let directory = try temporaryDirectory()
        try FileStore.writeAtomically([1], to: directory + "/new", permissions: permissions)
        try FileStore.writeAtomically([2], to: directory + "/new", permissions: permissions)
        #expect(try #require(try FileStore.status(directory + "/new")).mode & 0o777 == UInt32(permissions))
    }

    /// A batch that fails before publishing (its second folder is missing) publishes nothing
    /// and leaves no temporary in the first one.
    @Test func aFailedBatchPublishesNothing() throws {
        let directory = try temporaryDirectory()
        #expect(throws: FileError.self) {
            try FileStore.writeAtomically([(bytes: [1], path: directory + "/a"), (bytes: [2], path: directory + "/missing/b")])
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    /// Where unnamed files are made but cannot be named, each file is written again to a named
    /// temporary and renamed (its status the new file's), and the process uses named temporaries
    /// from then on.
    @Test func unnamedFilesThatCannotBeNamedAreWrittenAgain() throws {
        let directory = try temporaryDirectory()
        try FileStore.writeAtomically(Array("old".utf8), to: directory + "/b")
        let unnamedBefore = FileStore.unnamedFilesWork.load(ordering: .relaxed)
        FileStore.linkRefusedForTesting.store(true, ordering: .relaxed)
        defer {
            FileStore.linkRefusedForTesting.store(false, ordering: .relaxed)
            FileStore.unnamedFilesWork.store(unnamedBefore, ordering: .relaxed)
        }
        let files = ["a", "b", "c"].map { (bytes: Array("page \($0)".utf8), path: directory + "/" + $0) }
        let statuses = try FileStore.writeAtomically(files)
        for (file, status) in zip(files, statuses) {
            #expect(try FileStore.readFile(file.path) == file.bytes)
            #expect(try #require(try FileStore.status(file.path)).inode == status.inode)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["a", "b", "c"])
    }

    @Test func failureNamesThePathAndKeepsNothing() throws {
        let error = #expect(throws: FileError.self) { try FileStore.writeAtomically([1], to: "/nonexistent-dir/x.png") }
        #expect(error?.description.contains("/nonexistent-dir") == true)
        #expect(error?.isNotFound == true)
    }

    @Test func readingAMissingFileSaysSo() throws {
        let error = #expect(throws: FileError.self) { try FileStore.readFile("/nonexistent/track.gpx") }
        #expect(error?.description == "cannot open /nonexistent/track.gpx: No such file or directory")
    }

    @Test func readingADirectoryIsRefused() throws {
        let directory = try temporaryDirectory()
        #expect(throws: FileError.self) { try FileStore.readFile(directory) }
    }

    @Test func refusesFilesOverTheLimitBeforeReading() throws {
        let directory = try temporaryDirectory()
        try FileStore.writeAtomically([UInt8](repeating: 7, count: 100), to: directory + "/big")
        let error = #expect(throws: FileError.self) { try FileStore.readFile(directory + "/big", maximumBytes: 99) }
        #expect(error?.operation == "read")
    }
}
