import FileStore
import Foundation
import Testing

@testable import HistoryListing

/// The overview's catalog: keys as numbers that sort as their hex ids, a file appended to and
/// read back, a track written twice (a refresh killed before its stamp) counted once.
@Suite struct OverviewCatalogTests {
    private func key(_ seed: Int) -> String {
        var state = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<4).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            let hex = String(state, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    private func entry(_ value: Double) -> OverviewCatalog.Entry {
        OverviewCatalog.Entry(west: value, south: 1, east: value + 1, north: 2, startTime: value == 0 ? nil : value, hasRoute: value != 3)
    }

    @Test func keysRoundTripAndSortAsTheirIds() throws {
        let ids = (0..<200).map(key) + [String(repeating: "0", count: 64), String(repeating: "f", count: 64)]
        let keys = try ids.map { try #require(TrackKey(hex: $0)) }
        #expect(keys.map(\.hex) == ids)
        #expect(keys.sorted().map(\.hex) == ids.sorted())
        for bad in ["", "abc", String(repeating: "0", count: 63), String(repeating: "0", count: 63) + "g", String(repeating: "A", count: 64)] {
            #expect(TrackKey(hex: bad) == nil, "\(bad)")
        }
    }

    @Test func entriesAppendedReadBackAndATrackWrittenTwiceCountsOnce() throws {
        let path = NSTemporaryDirectory() + "tracksnap-catalog-\(UUID().uuidString)"
        defer { try? FileStore.remove(path) }
        let keys = (0..<5).map { TrackKey(hex: key($0))! }
        var catalog = OverviewCatalog()
        for (index, key) in keys.prefix(3).enumerated() { catalog.insert(key, entry(Double(index))) }
        catalog.settle()
        try FileStore.writeAtomically(catalog.bytes(), to: path)

        var loaded = OverviewCatalog.load(path)
        #expect(loaded.count == 3 && loaded.sortedKeys == keys.prefix(3).sorted() && loaded.tracksWithoutRoute == 0)
        #expect(loaded.entry(keys[1]) == entry(1) && loaded.entry(keys[0])?.startTime == nil)
        loaded.insert(keys[3], entry(3))
        loaded.settle()
        #expect(try loaded.save(path, added: [keys[3]]))
        // A torn entry after the end is not read.
        try FileStore.append([1, 2, 3], to: path)
        let again = OverviewCatalog.load(path)
        #expect(again.count == 4 && again.tracksWithoutRoute == 1 && again.entry(keys[3]) == entry(3))
        #expect(again.routedInIDOrder().map(\.id) == keys.prefix(3).sorted().map(\.hex))

        // A track's entry twice in the file: one track, the later entry; a save then writes the
        // file whole (nothing is appended to a file that does not hold each entry once).
        var doubled = OverviewCatalog()
        doubled.insert(keys[3], entry(9))
        doubled.settle()
        try FileStore.overwrite(
            Array(doubled.bytes().dropFirst(OverviewCatalog.magic.count)), in: path,
            from: OverviewCatalog.magic.count + 4 * OverviewCatalog.entryBytes)
        let twice = OverviewCatalog.load(path)
        #expect(twice.entriesInFile == 5 && twice.count == 4 && twice.entry(keys[3]) == entry(9))
        #expect(try twice.save(path, added: []) == false)
        #expect(OverviewCatalog.setDigest(twice.sortedKeys) == OverviewCatalog.setDigest(keys.prefix(4).reversed()))
        #expect(OverviewCatalog.setDigest(keys.prefix(4)) != OverviewCatalog.setDigest(keys.prefix(3) + [keys[4]]))

        var smaller = twice
        #expect(smaller.keepOnly { $0 != keys[0] })
        #expect(smaller.count == 3 && !smaller.contains(keys[0]) && smaller.contains(keys[3]))
        #expect(try smaller.save(path, added: []) == false, "a removal is written whole")
        #expect(smaller.keepOnly { _ in false })
        #expect(smaller.count == 0 && smaller.bytes() == OverviewCatalog.magic)
    }
}
