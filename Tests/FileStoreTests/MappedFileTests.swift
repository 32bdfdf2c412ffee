import Foundation
import Testing
@testable import FileStore

/// `MappedFile`: the bytes are the file's, releasing pages never changes what is read.
@Suite struct MappedFileTests {
    @Test func mapsReleasesAndRereads() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mapped-\(getpid()).bin").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let contents = (0..<(3 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try FileStore.writeAtomically(contents, to: path)
        let file = try MappedFile(path)
        #expect(file.bytes.elementsEqual(contents))
        file.release(upTo: 2 << 20)
        #expect(file.bytes.elementsEqual(contents))  // released pages read back from the page cache
        file.release(upTo: 1 << 20)  // a second pass
        file.release(upTo: 3 << 20)
        #expect(file.bytes[12345] == contents[12345])
    }

    @Test func emptyFileMapsToNoBytesAndDirectoriesAreRefused() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("mapped-empty-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileStore.writeAtomically([], to: path)
        #expect(try MappedFile(path).bytes.isEmpty)
        #expect(throws: FileError.self) { try MappedFile(FileManager.default.temporaryDirectory.path) }
        #expect(throws: FileError.self) { try MappedFile(path + "-missing") }
    }
}
