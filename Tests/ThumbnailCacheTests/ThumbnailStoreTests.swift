import ContentHash
import Testing
import ThumbnailCache

/// The cache as plain values: image names from the key and the image list, and the record's JSON
/// (index.json's field names, the basemap summary included).
struct ThumbnailStoreTests {
    static let images = [
        ImageSpec(widthPoints: 320, heightPoints: 240, scale: 1), ImageSpec(widthPoints: 320, heightPoints: 240, scale: 2),
        ImageSpec(widthPoints: 1280, heightPoints: 960, scale: 1.5, role: .detail),
    ]

    @Test func imagesAreNamedAfterTheKeyWithSizeAndScaleSuffixes() {
        let store = ThumbnailStore(root: "Output/", images: Self.images, fingerprint: SHA256.hash("settings"))
        let key = store.key(forTrackBytes: Array("track".utf8))
        #expect(store.root == "Output")
        #expect(
            store.imagePaths(key) == ["thumbs/\(key.hex).png", "thumbs/\(key.hex)@2x.png", "thumbs/\(key.hex)-1280x960@1.5x.png"])
        #expect(store.recordPath(key) == "Output/.tracksnap/records/\(key.hex).json")
    }

    @Test func theKeyDependsOnTheContentAndTheFingerprint() {
        let content = SHA256.hash("track")
        let key = CacheKey(content: content, settings: SHA256.hash("a"))
        #expect(key == CacheKey(content: content, settings: SHA256.hash("a")))
        #expect(key != CacheKey(content: content, settings: SHA256.hash("b")))
        #expect(key != CacheKey(content: SHA256.hash("other"), settings: SHA256.hash("a")))
        #expect(CacheKey(hex: key.hex) == key && CacheKey(hex: "not hex") == nil)
    }

    @Test func aRecordRoundTripsWithIndexJSONFieldNames() throws {
        let key = CacheKey(content: SHA256.hash("track"), settings: SHA256.hash("a"))
        var record = TrackRecord(
            key: key, format: "gpx", bbox: [7, 46, 8, 47], startLonLat: [7, 46], segments: 1, fixesDrawn: 10, distanceM: 1234.5, fixes: 12,
            fixesKept: 11,
            images: [.init(path: "thumbs/a.png", width: 320, height: 240, scale: 1, role: "thumbnail", viewportEpsg3857: [0, 0, 1, 1])])
        record.basemap = .init(zoom: 12, tiles: 4, tilesAbsent: 1, tilesFailed: 2, attribution: "© OSM", problems: ["HTTP 503"])
        let text = String(decoding: record.jsonBytes(), as: UTF8.self)
        #expect(text.contains(#""basemap":{"attribution":"© OSM","problems":["HTTP 503"],"tiles":4,"tiles_absent":1,"tiles_failed":2,"zoom":12}"#))
        #expect(text.contains(#""fixes_drawn":10"#) && text.contains(#""viewport_epsg3857":[0,0,1,1]"#))
        #expect(TrackRecord.parse(record.jsonBytes()) == record)
    }
}
