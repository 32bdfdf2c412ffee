import FileStore
import Foundation
import Synchronization
import Testing

@testable import HistoryListing

/// `SiteWriter.write`: every file in place, whole, and recorded as written, whether it writes a
/// batch with an fsync each or, past a batch, many files with one `syncfs` at the end.
@Suite struct SiteWriterTests {
    /// A writer over a fresh folder (the caller removes it).
    private func makeWriter() throws -> (root: String, writer: SiteWriter) {
        let root = NSTemporaryDirectory() + "tracksnap-site-writer-\(UUID().uuidString)"
        let writer = SiteWriter(root: root, manifestPath: root + "/manifest")
        try FileStore.createDirectories(root)
        try writer.prepare()
        return (root, writer)
    }

    @Test(arguments: [3, SiteWriter.batchSize * 2 + 7])
    func everyFileIsInPlaceAndRecordedHoweverManyAreWritten(count: Int) throws {
        let (root, writer) = try makeWriter()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let files = (0..<count).map { index in
            let id = String(repeating: "0", count: 56) + String(format: "%08x", index)
            return SitePlan.File(id: id, digest: UInt64(index), bytes: Array("<p>page \(index)</p>\n".utf8))
        }
        var manifest: [String: SiteWriter.Entry] = [:]
        try writer.write(files, recordingIn: &manifest)
        #expect(manifest.count == count)
        for file in files {
            #expect(try FileStore.readFile(root + "/tracks/" + file.id + ".html") == file.bytes)
            #expect(manifest[file.id]?.digest == file.digest && manifest[file.id]?.written != nil)
        }
        // No temporary left behind.
        #expect(try FileStore.listDirectory(root + "/tracks").count == count)
    }

    /// Detail pages made a chunk at a time (the next while this one is written): every page in
    /// place and recorded, each chunk made once, in order, and a page the maker leaves out (a
    /// track whose record is gone) simply not written.
    @Test(arguments: [5, DetailPages.chunkSize * 2 + 300])
    func detailPagesMadeChunkByChunkAreAllWritten(count: Int) throws {
        let (root, writer) = try makeWriter()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let id: @Sendable (Int) -> String = { String(repeating: "0", count: 56) + String(format: "%08x", $0) }
        let made = Mutex<[Range<Int>]>([])
        let pages = DetailPages(count: count) { range in
            made.withLock { $0.append(range) }
            return range.filter { $0 % 97 != 13 }.map { SitePlan.File(id: id($0), digest: UInt64($0), bytes: Array("<p>\($0)</p>".utf8)) }
        }
        var manifest: [String: SiteWriter.Entry] = [:]
        let written = try writer.write(pages, recordingIn: &manifest)
        let expected = (0..<count).filter { $0 % 97 != 13 }
        #expect(written.files == expected.count && manifest.count == expected.count)
        #expect(made.withLock { $0 } == stride(from: 0, to: count, by: DetailPages.chunkSize).map { $0..<min($0 + DetailPages.chunkSize, count) })
        for index in expected {
            #expect(try FileStore.readFile(root + "/tracks/" + id(index) + ".html") == Array("<p>\(index)</p>".utf8))
            #expect(manifest[id(index)]?.digest == UInt64(index))
        }
        #expect(try FileStore.listDirectory(root + "/tracks").count == expected.count)
    }
}
