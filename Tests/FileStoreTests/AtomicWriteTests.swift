import Foundation
import Testing
@testable import FileStore

@Suite struct AtomicWriteTests {
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
