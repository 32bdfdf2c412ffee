import FileStore
import Foundation
import Testing

@testable import HistoryListing

/// The region index kept as a whole file and a journal of changed lines: what a save writes, and
/// what a load makes of journals cut short, left from before a compaction, or of version 1's file.
@Suite struct OverviewRegionIndexJournalTests {
    /// An index of two pictures, two pages and a region.
    static var sample: OverviewRegionIndex {
        var index = OverviewRegionIndex()
        for picture in [OverviewPageTests.picture("home", tracks: 3), OverviewPageTests.picture("home.2023", tracks: 2, thumbnails: false)] {
            index.entries[picture.stem] = OverviewRegionIndex.Entry(digest: "d-" + picture.stem, picture: picture)
        }
        index.pages = ["region-home.html": "front", "region-home.1.html": "first"]
        index.regions["home"] = OverviewRegionIndex.Summary(
            digest: "d-home", years: [2023], oneYear: false, pageCount: 1, cardsPerPage: 60, yearLinks: [2023: "region-home.1.html#y-2023"])
        return index
    }

    /// A fresh state directory.
    static func directory() throws -> OverviewRegionIndex.Files {
        let path = NSTemporaryDirectory() + "tracksnap-region-index-\(UUID().uuidString)"
        try FileStore.createDirectories(path)
        return OverviewRegionIndex.Files(directory: path)
    }

    /// Whether two indexes hold the same pictures, pages and regions.
    static func same(_ left: OverviewRegionIndex, _ right: OverviewRegionIndex) -> Bool { left.bytes() == right.bytes() }

    /// `index` changed as one new track changes it: a picture's count, the front page, the region's
    /// summary, a numbered page added and one removed.
    static func changed(_ index: OverviewRegionIndex, tracks: Int) -> OverviewRegionIndex {
        var index = index
        index.entries["home"]?.picture.trackCount = tracks
        index.entries["home"]?.digest = "d-home-\(tracks)"
        index.pages["region-home.html"] = "front-\(tracks)"
        index.pages["region-home.\(tracks).html"] = "page-\(tracks)"
        index.pages["region-home.1.html"] = nil
        index.regions["home"]?.pageCount = tracks
        return index
    }

    @Test func aChangeIsAppendedAndReadsBackAsTheIndex() throws {
        let files = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: files.directory) }
        // The first save writes the whole index: there is none.
        try Self.sample.save(files, thenWrite: [])
        #expect(FileStore.exists(files.wholePath) && !FileStore.exists(files.journalPath))
        let loaded = OverviewRegionIndex.load(files)
        #expect(Self.same(loaded, Self.sample) && loaded.generation == 1)
        // Nothing changed: nothing written.
        #expect(loaded.saving() == nil)
        let whole = try FileStore.readFile(files.wholePath)
        var current = loaded
        for tracks in 4...6 {
            let next = Self.changed(current, tracks: tracks)
            try next.save(files, thenWrite: [])
            current = OverviewRegionIndex.load(files)
            #expect(Self.same(current, next), "after \(tracks) tracks")
        }
        // Appended, not written whole: the whole file is as it was, the journal holds three blocks of changed lines only.
        #expect(try FileStore.readFile(files.wholePath) == whole)
        let journal = String(decoding: try FileStore.readFile(files.journalPath), as: UTF8.self)
        #expect(journal.components(separatedBy: "begin\t1\n").count == 4 && !journal.contains("home.2023\t"))
        #expect(journal.contains("drop\tpage\tregion-home.1.html\n"))
    }

    @Test func aBlockCutShortIsNotReadAndTheNextSaveWritesTheIndexWhole() throws {
        let files = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: files.directory) }
        try Self.sample.save(files, thenWrite: [])
        let four = Self.changed(OverviewRegionIndex.load(files), tracks: 4)
        try four.save(files, thenWrite: [])
        let five = Self.changed(OverviewRegionIndex.load(files), tracks: 5)
        try five.save(files, thenWrite: [])
        let journal = try FileStore.readFile(files.journalPath)
        // Cut anywhere inside the second block (a kill during its append): the first block still reads.
        let secondBlock = journal.count - Array(String(decoding: journal, as: UTF8.self).components(separatedBy: "begin\t1\n").last!.utf8).count - 8
        for cut in stride(from: secondBlock, to: journal.count - 1, by: 7) {
            try FileStore.writeAtomically(Array(journal[..<cut]), to: files.journalPath)
            let loaded = OverviewRegionIndex.load(files)
            #expect(Self.same(loaded, four), "cut at \(cut)")
            #expect(loaded.journalStale || cut <= secondBlock + 1, "cut at \(cut)")
        }
        // A block whose lines do not match its digest is not read either.
        let altered = String(decoding: journal, as: UTF8.self).replacingOccurrences(of: "front-5", with: "front-6")
        try FileStore.writeAtomically(Array(altered.utf8), to: files.journalPath)
        var loaded = OverviewRegionIndex.load(files)
        #expect(Self.same(loaded, four) && loaded.journalStale)
        // The next save writes the whole index of the next generation and removes the journal.
        try Self.changed(loaded, tracks: 5).save(files, thenWrite: [])
        loaded = OverviewRegionIndex.load(files)
        #expect(!FileStore.exists(files.journalPath) && loaded.generation == 2 && Self.same(loaded, five))
    }

    @Test func aJournalLeftFromBeforeACompactionIsNotRead() throws {
        let files = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: files.directory) }
        try Self.sample.save(files, thenWrite: [])
        try Self.changed(OverviewRegionIndex.load(files), tracks: 4).save(files, thenWrite: [])
        let oldJournal = try FileStore.readFile(files.journalPath)
        // The journal grows past its limit: the index is written whole (generation 2).
        var current = OverviewRegionIndex.load(files)
        var tracks = 5
        while current.generation == 1 {
            let next = Self.changed(current, tracks: tracks)
            try next.save(files, thenWrite: [])
            current = OverviewRegionIndex.load(files)
            #expect(Self.same(current, next))
            tracks += 1
        }
        #expect(tracks - 5 >= 10 && !FileStore.exists(files.journalPath), "compacted after \(tracks - 5) blocks")
        // A kill between the whole file and the journal's removal leaves generation 1's blocks: not applied.
        try FileStore.writeAtomically(oldJournal, to: files.journalPath)
        let loaded = OverviewRegionIndex.load(files)
        #expect(Self.same(loaded, current) && loaded.journalStale)
    }

    @Test func versionOnesIndexIsReadThenWrittenAsVersionTwoAndRemoved() throws {
        let files = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: files.directory) }
        try FileStore.writeAtomically(Self.sample.bytes(), to: files.legacyPath)
        let loaded = OverviewRegionIndex.load(files)
        #expect(Self.same(loaded, Self.sample) && loaded.legacyKept)
        // Even unchanged, it is written as version 2, and version 1's file goes.
        let saving = try #require(loaded.saving())
        #expect(saving.whole)
        try loaded.save(files, thenWrite: [])
        #expect(!FileStore.exists(files.legacyPath) && Self.same(OverviewRegionIndex.load(files), Self.sample))
        // Version 1 wrote its file again (it ran after this version): neither file is read, and the next save writes version 2 whole.
        try FileStore.writeAtomically(Self.sample.bytes(), to: files.legacyPath)
        let both = OverviewRegionIndex.load(files)
        #expect(both.entries.isEmpty && both.pages.isEmpty && both.legacyKept)
        try both.save(files, thenWrite: [])
        #expect(!FileStore.exists(files.legacyPath) && FileStore.exists(files.wholePath) && OverviewRegionIndex.load(files).generation == 1)
        // A whole file without its generation line (not one this version wrote) is not read.
        try FileStore.writeAtomically(Self.sample.bytes(), to: files.wholePath)
        #expect(OverviewRegionIndex.load(files).entries.isEmpty)
    }
}
