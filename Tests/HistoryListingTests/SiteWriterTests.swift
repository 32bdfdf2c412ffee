import FileStore
import Foundation
import Testing

@testable import HistoryListing

/// `SiteWriter.write`: every file in place, whole, and recorded as written, whether it writes a
/// batch with an fsync each or, past a batch, many files with one `syncfs` at the end.
@Suite struct SiteWriterTests {
    @Test(arguments: [3, SiteWriter.batchSize * 2 + 7])
    func everyFileIsInPlaceAndRecordedHoweverManyAreWritten(count: Int) throws {
        let root = NSTemporaryDirectory() + "tracksnap-site-writer-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let writer = SiteWriter(root: root, manifestPath: root + "/manifest")
        try FileStore.createDirectories(root)
        try writer.prepare()
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
}
