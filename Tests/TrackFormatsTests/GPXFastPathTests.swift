import Foundation
import Testing
import TrackModel
@testable import TrackFormats

/// The fast path may only change speed: every file must give the same track (or the same error)
/// with and without it.
@Suite struct GPXFastPathTests {
    private func both(_ bytes: [UInt8]) -> (fast: Result<Track, TrackDecodingError>, slow: Result<Track, TrackDecodingError>) {
        bytes.withUnsafeBufferPointer { buffer in
            let fast = Result { () throws(TrackDecodingError) in try GPXReader.read(buffer, limits: DecodingLimits(), usesFastPath: true) }
            let slow = Result { () throws(TrackDecodingError) in try GPXReader.read(buffer, limits: DecodingLimits(), usesFastPath: false) }
            return (fast, slow)
        }
    }

    static let gpxFixtures: [String] = {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".gpx") }.sorted()
    }()

    @Test(arguments: gpxFixtures)
    func fixturesReadTheSame(name: String) throws {
        let (fast, slow) = both(try fixture(name))
        switch (fast, slow) {
        case let (.success(a), .success(b)): #expect(a == b)
        case let (.failure(a), .failure(b)): #expect(a == b)
        default: Issue.record("\(name): fast \(fast) vs slow \(slow)")
        }
    }

    @Test func shippedSamplesReadTheSame() throws {
        let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Jobs/samples")
        let names = try FileManager.default.contentsOfDirectory(atPath: samples.path).filter { $0.hasSuffix(".gpx") }
        #expect(names.count >= 5)
        for name in names {
            let bytes = Array(try Data(contentsOf: samples.appendingPathComponent(name)))
            let (fast, slow) = both(bytes)
            #expect(try fast.get() == slow.get(), "\(name)")
        }
    }

    @Test(arguments: [
        // Each point below leaves the fast path somewhere; the results must still agree.
        #"<trkpt lat="1" lon="2"><!-- c --><ele>5</ele></trkpt>"#,
        #"<trkpt lat="1" lon="2"><ele><![CDATA[5]]></ele></trkpt>"#,
        #"<trkpt lat="1" lon="2"><ele>&#53;</ele></trkpt>"#,
        #"<trkpt lat="1" lon="2">text<ele>5</ele></trkpt>"#,
        #"<trkpt lat="1" lon="2"><extensions><a><b><c/></b></a></extensions><time>2024-01-01T00:00:00Z</time></trkpt>"#,
        #"<trkpt lat="1" lon="2"><extensions><a></b></extensions></trkpt>"#,
        #"<trkpt lat="1" lon="2"><ele>5</elevation></trkpt>"#,
        #"<trkpt lat="1" lat="3" lon="2"/>"#,
        #"<trkpt lon="2"/>"#,
        #"<trkpt lat="x" lon="2"/>"#,
        #"<trkpt lat="1" lon="2" note='a>b'><ele/></trkpt>"#,
        #"<p:trkpt lat="1" lon="2"><p:ele>7</p:ele></p:trkpt>"#,
        #"<trkpt lat="1" lon="2"><ele>5</ele>"#,
        // Numbers and times next to the one-pass readers' edges: each must read as the general path does.
        #"<trkpt lat="1e1" lon="-2."><ele>5E0</ele></trkpt>"#,
        #"<trkpt lat=" 1" lon="2 "><ele> 5 </ele></trkpt>"#,
        #"<trkpt lat="+1" lon=".5"><ele>-.5</ele></trkpt>"#,
        #"<trkpt lat="1.2345678901234567" lon="-0"><ele>-</ele></trkpt>"#,
        #"<trkpt lat="1&#46;5" lon="2"><ele>5&#46;0</ele></trkpt>"#,
        #"<trkpt lat="1" lat="1" lon="2"/>"#,
        #"<trkpt lat="1" lon="2" lon="3"/>"#,
        #"<trkpt lat="1" lon="2"><ele></ele><time></time></trkpt>"#,
        #"<trkpt lat="1" lon="2"><time>2024-05-01T07:30:00Z </time></trkpt>"#,
        #"<trkpt lat="1" lon="2"><time>2024-05-01T07:30:00Z</ele></trkpt>"#,
        #"<trkpt lat="1" lon="2"><time>2024-13-01T07:30:00Z</time></trkpt>"#,
        #"<trkpt lat="1" lon="2"><time>2024-05-01T07:30:00+01:00</time><ele>3</ele></trkpt>"#,
        #"<trkpt lat="0.00000000000000000000001" lon="2"/>"#,
        // Next to the word-compared opening `<trkpt lat="…" lon="…"`.
        #"<trkpt lat="1" lon="2" lat="3"/>"#,
        #"<trkpt lat="1" lon="2" lon="3"><ele>5</ele></trkpt>"#,
        #"<trkpt  lat="1" lon="2"/>"#,
        #"<trkpt lat="1"  lon="2"/>"#,
        #"<trkpt lat="1"\#tlon="2"/>"#,
        #"<trkpt lat='1' lon="2"/>"#,
        #"<trkpt lat="1" lon='2'/>"#,
        #"<trkpt lat="1" lon="2'/>"#,
        #"<trkpt lat="1" lon="2e0"/>"#,
        #"<trkpt lat="1" lon="-2" note="x"/>"#,
        #"<trkpt lat="-0" lon="-0.0"><ele>1</ele></trkpt>"#,
        #"<trkpt lat="1" lonx="2" lon="3"/>"#,
        #"<trkpt lat="1" lon="2"x="3"/>"#,
        #"<trkptx lat="1" lon="2"/>"#,
        #"<rtept lat="1" lon="2"/>"#,
    ])
    func oddPointsReadTheSame(point: String) {
        let file = "<gpx xmlns:p=\"x\"><trk><trkseg>\(point)<trkpt lat=\"1.5\" lon=\"2.5\"/></trkseg></trk></gpx>"
        let (fast, slow) = both(Array(file.utf8))
        switch (fast, slow) {
        case let (.success(a), .success(b)): #expect(a == b, "\(point)")
        case let (.failure(a), .failure(b)): #expect(a == b, "\(point)")
        default: Issue.record("\(point): fast \(fast) vs slow \(slow)")
        }
    }

    /// A file cut after every byte, most cuts inside a point's opening or its numbers: the fast
    /// path must give up (or read) exactly where the general one does.
    @Test func truncatedPointsReadTheSame() {
        let file = Array(#"<gpx><trk><trkseg><trkpt lat="47.5" lon="-8.25"><ele>5</ele></trkpt><trkpt lat="1" lon="2"/></trkseg></trk></gpx>"#.utf8)
        for length in 0...file.count {
            let (fast, slow) = both(Array(file[0..<length]))
            switch (fast, slow) {
            case let (.success(a), .success(b)): #expect(a == b, "cut at \(length)")
            case let (.failure(a), .failure(b)): #expect(a == b, "cut at \(length)")
            default: Issue.record("cut at \(length): fast \(fast) vs slow \(slow)")
            }
        }
    }
}
