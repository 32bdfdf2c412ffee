import ArchiveOverview
import ContentHash
import FileStore
import Foundation
import MapGeometry
import StyleFile
import Testing
import ThumbnailCache

@testable import HistoryListing

/// A refresh told that only tracks were added (`cardsUnchanged`) shows the regions the new tracks
/// do not touch as kept, without asking the listing for their members, and publishes what a
/// refresh from nothing publishes; new tracks' catalog entries are written over the catalog's end.
@Suite struct OverviewPublisherAppendTests {
    /// A store under a fresh folder with a record for each of `tracks` (a loop of points around a
    /// centre, degrees), and what the listing shows of each.
    private final class Archive {
        let root = NSTemporaryDirectory() + "tracksnap-overview-append-\(UUID().uuidString)"
        let store: ThumbnailStore
        var listing: [String: OverviewPublisher.ListedTrack] = [:]

        init() throws {
            store = ThumbnailStore(root: root + "/Output", settings: ThumbnailSettings())
            try store.prepare()
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// Adds a track `name` looping around (`latitude`, `longitude`), started at `start`.
        @discardableResult
        func add(_ name: String, latitude: Double, longitude: Double, start: Double) throws -> String {
            let key = store.key(content: SHA256.hash(Array(name.utf8)))
            let center = WebMercator.project(latitudeDegrees: latitude, longitudeDegrees: longitude)
            let points = (0...12).map { step in
                let angle = Double(step) / 12 * 2 * Double.pi
                return MercatorPoint(xMeters: center.xMeters + 600 * cos(angle), yMeters: center.yMeters + 600 * sin(angle))
            }
            let southWest = WebMercator.unproject(MercatorPoint(xMeters: center.xMeters - 600, yMeters: center.yMeters - 600))
            let northEast = WebMercator.unproject(MercatorPoint(xMeters: center.xMeters + 600, yMeters: center.yMeters + 600))
            var record = TrackRecord(
                key: key, format: "gpx",
                bbox: [southWest.longitudeDegrees, southWest.latitudeDegrees, northEast.longitudeDegrees, northEast.latitudeDegrees],
                startLonLat: [longitude, latitude], segments: 1, fixesDrawn: 13, distanceM: 2500, fixes: 13, fixesKept: 13, images: [])
            record.startTime = start
            record.overviewRoute = RouteCoding.encode([points])
            try FileStore.writeAtomically(record.jsonBytes(), to: store.recordPath(key))
            listing[key.hex] = OverviewPublisher(store: store).listedTrack(key.hex)
            return key.hex
        }

        /// Every file the overview published, by path under Output/.
        func published() throws -> [String: [UInt8]] {
            var files: [String: [UInt8]] = [:]
            for name in try FileStore.listDirectory(store.root) where name.hasSuffix(".html") {
                files[name] = try FileStore.readFile(store.root + "/" + name)
            }
            for name in try FileStore.listDirectory(store.root + "/overview") {
                files["overview/" + name] = try FileStore.readFile(store.root + "/overview/" + name)
            }
            files["index/overview.json"] = try FileStore.readFile(store.root + "/index/overview.json")
            return files
        }
    }

    @Test func aRegionNoNewTrackJoinsIsShownAsKeptWithoutAskingForItsCards() throws {
        let archive = try Archive()
        var zurich: [String] = [], vienna: [String] = []
        for index in 0..<5 {
            zurich.append(
                try archive.add("z\(index)", latitude: 47.37, longitude: 8.54 + Double(index) * 0.001, start: 1.7e9 + Double(index) * 86_400))
            vienna.append(try archive.add("v\(index)", latitude: 48.2, longitude: 16.37, start: 1.7e9 + Double(index) * 90_000))
        }
        var publisher = OverviewPublisher(store: archive.store)
        publisher.cardsPerPage = 2
        let first = try publisher.refresh(listed: Set(archive.listing.keys)) { archive.listing[$0] }
        #expect(first.regions == 2)
        let catalog = try FileStore.readFile(publisher.stateDirectory + "/tracks")

        let newest = try archive.add("z-new", latitude: 47.37, longitude: 8.541, start: 1.8e9)
        var asked: Set<String> = []
        let years = Set(archive.listing.values.map(\.year))
        let report = try publisher.refresh(listed: Set(archive.listing.keys), years: years, cardsUnchanged: true) { id in
            asked.insert(id)
            return archive.listing[id]
        }
        #expect(report.regions == 2 && report.regionsUpdated >= 1)
        #expect(asked.isDisjoint(with: vienna), "Vienna's cards were asked for")
        #expect(asked.isSuperset(of: zurich + [newest]))
        // The new track's entry was written over the catalog's end, the rest left as it was.
        let grown = try FileStore.readFile(publisher.stateDirectory + "/tracks")
        #expect(grown.count == catalog.count + OverviewCatalog.entryBytes && grown.starts(with: catalog))
        let appended = try archive.published()
        #expect(appended.keys.contains("region-\(OverviewPublisher.fileStem(zurich[0])).3.html"), "\(appended.keys.sorted())")

        // From nothing: the same files.
        try FileManager.default.removeItem(atPath: publisher.stateDirectory)
        for name in appended.keys { try FileStore.remove(archive.store.root + "/" + name) }
        _ = try publisher.refresh(listed: Set(archive.listing.keys)) { archive.listing[$0] }
        let fromNothing = try archive.published()
        #expect(fromNothing.keys.sorted() == appended.keys.sorted())
        for (name, bytes) in fromNothing { #expect(appended[name] == bytes, "\(name) differs") }
    }

    /// The short refresh's way (`added` given): a new track's id is appended to its pictures'
    /// counts journals instead of the counts being written whole, the journal is folded into the
    /// counts past `journalLimit`, and every step publishes what a refresh from nothing does.
    @Test func newTracksAreJournaledThenFoldedAndEachStepEqualsARefreshFromNothing() throws {
        let archive = try Archive()
        for index in 0..<4 {
            try archive.add("z\(index)", latitude: 47.37, longitude: 8.54 + Double(index) * 0.001, start: 1.7e9 + Double(index) * 86_400)
        }
        var publisher = OverviewPublisher(store: archive.store)
        publisher.cardsPerPage = 2
        publisher.journalLimit = 2
        _ = try publisher.refresh(listed: Set(archive.listing.keys)) { archive.listing[$0] }
        let states = try FileStore.listDirectory(publisher.regionsDirectory)
        #expect(states.count == 1, "\(states)")
        let counts = publisher.regionsDirectory + "/" + states[0]
        let journal = publisher.journalDirectory + "/" + states[0]
        let keptCounts = try FileStore.readFile(counts)
        var journaled: [Int] = []
        for step in 0..<3 {
            let new = try archive.add("new\(step)", latitude: 47.37, longitude: 8.5405, start: 1.7e9 + 5 * 86_400 + Double(step) * 3600)
            let report = try publisher.refresh(
                listed: Set(archive.listing.keys), years: Set(archive.listing.values.map(\.year)), cardsUnchanged: true, added: [new]
            ) {
                archive.listing[$0]
            }
            #expect(report.regionsUpdated == 1 && report.regionsRebuilt == 0, "step \(step): \(report)")
            #expect(Set(archive.listing.values.map(\.year)).count == 1)
            journaled.append(CountsJournal(path: journal).ids().count)
            let published = try archive.published()
            // From nothing, in a copy of the site without the overview's state.
            let copy = try Archive()
            for (id, track) in archive.listing { copy.listing[id] = track }
            try FileManager.default.removeItem(atPath: copy.store.root)
            try FileManager.default.copyItem(atPath: archive.store.root, toPath: copy.store.root)
            try FileManager.default.removeItem(atPath: copy.store.root + "/.tracksnap/overview")
            var fresh = OverviewPublisher(store: copy.store)
            fresh.cardsPerPage = 2
            _ = try fresh.refresh(listed: Set(copy.listing.keys)) { copy.listing[$0] }
            let fromNothing = try copy.published()
            #expect(fromNothing.keys.sorted() == published.keys.sorted())
            for (name, bytes) in fromNothing { #expect(published[name] == bytes, "step \(step): \(name) differs") }
            if step < 2 { #expect(try FileStore.readFile(counts) == keptCounts, "step \(step): the counts were written whole") }
        }
        // One id, two, then past the limit: folded into the counts, the journal gone.
        #expect(journaled == [1, 2, 0])
        #expect(try FileStore.readFile(counts) != keptCounts)
        #expect(!FileStore.exists(journal))
    }

    /// A catalog that holds a track the listing no longer has (a refresh killed after saving the
    /// catalog, the track gone before the next) and lacks one it has (its record was not there
    /// yet) has the listing's count, but not its set digest: the short refresh's word that only
    /// tracks were added does not keep the gone track on the overview.
    @Test func aCatalogWithTheListingsCountButAnotherTrackIsMadeTheListings() throws {
        let archive = try Archive()
        let kept = try (0..<3).map { try archive.add("z\($0)", latitude: 47.37, longitude: 8.54, start: 1.7e9 + Double($0) * 86_400) }
        let gone = try archive.add("far", latitude: 40.4, longitude: -3.7, start: 1.6e9)
        var publisher = OverviewPublisher(store: archive.store)
        publisher.cardsPerPage = 2
        let first = try publisher.refresh(listed: Set(archive.listing.keys)) { archive.listing[$0] }
        #expect(first.regions == 2)
        archive.listing[gone] = nil
        let late = try archive.add("z-late", latitude: 47.37, longitude: 8.541, start: 1.65e9)
        let years = Set(archive.listing.values.map(\.year))
        let report = try publisher.refresh(listed: Set(kept + [late]), years: years, cardsUnchanged: true, added: []) { archive.listing[$0] }
        #expect(report.regions == 1)
        let published = try archive.published()
        #expect(!published.keys.contains { $0.contains(OverviewPublisher.fileStem(gone)) }, "\(published.keys.sorted())")
        #expect(published.keys.contains("region-\(OverviewPublisher.fileStem(late)).html"), "\(published.keys.sorted())")
    }
}
