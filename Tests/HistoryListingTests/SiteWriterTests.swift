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

    static func detailPages(_ count: Int, text: String = "page") -> [SitePlan.File] {
        (0..<count).map { index in
            let id = String(repeating: "0", count: 56) + String(format: "%08x", index)
            return SitePlan.File(id: id, digest: UInt64(index), bytes: Array("<p>\(text) \(index)</p>\n".utf8))
        }
    }

    /// A first listing's detail pages go into the empty `tracks/` through the staging folder (one
    /// rename), a killed refresh's staging folder is cleared first, and a folder that holds pages
    /// is written page by page as before; every page is in place and recorded either way.
    @Test func manyPagesIntoAnEmptyFolderArePublishedInOneRenameAndAFullFolderPageByPage() throws {
        let root = NSTemporaryDirectory() + "tracksnap-site-writer-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let writer = SiteWriter(root: root, manifestPath: root + "/.tracksnap/pages")
        try FileStore.createDirectories(root + "/.tracksnap")
        try writer.prepare()
        // What a refresh killed while staging leaves: a partly written staging folder.
        try FileStore.createDirectories(writer.stagingDirectory)
        try FileStore.writeNewFile(Array("half".utf8), to: writer.stagingDirectory + "/" + String(repeating: "0", count: 64) + ".html")
        let first = Self.detailPages(SiteWriter.batchSize + 50)
        var manifest: [String: SiteWriter.Entry] = [:]
        let plan = SitePlan(items: [], pageSize: 10, manifest: [:])
        _ = try writer.apply(plan, detailPages: first, manifest: &manifest, sweepingDetails: false)
        #expect(!FileStore.exists(writer.stagingDirectory))
        #expect(try FileStore.listDirectory(root + "/tracks").count == first.count)
        for file in first {
            #expect(try FileStore.readFile(writer.detailPath(file.id)) == file.bytes)
            #expect(manifest[file.id]?.written == (try FileStore.status(writer.detailPath(file.id))).map(SiteWriter.Written.init))
        }
        #expect(try writer.verify(&manifest) == 0)
        // The folder now holds pages: no staging, each page replaced atomically.
        let second = Self.detailPages(SiteWriter.batchSize + 50, text: "again")
        #expect(try !writer.writeIntoEmptyDetailFolder(second, recordingIn: &manifest))
        try writer.write(second, recordingIn: &manifest)
        for file in second { #expect(try FileStore.readFile(writer.detailPath(file.id)) == file.bytes) }
        #expect(try writer.verify(&manifest) == 0)
        // A batch or fewer into an empty folder: page by page (nothing to gain from staging).
        try FileManager.default.removeItem(atPath: root + "/tracks")
        try writer.prepare()
        #expect(try !writer.writeIntoEmptyDetailFolder(Array(first.prefix(SiteWriter.batchSize)), recordingIn: &manifest))
    }
}
