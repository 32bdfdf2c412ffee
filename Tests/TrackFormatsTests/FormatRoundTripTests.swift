import Decompression
import Foundation
import Testing
import TrackModel
import TrackSynthesis
@testable import TrackFormats

/// Every format written by `TrackSynthesis` reads back to the same fixes: coordinates within
/// 1e-7° (7 written decimals), elevations within 0.1 m (FIT stores 0.2 m steps), times equal.
@Suite struct FormatRoundTripTests {
    static func sampleTrack(segments: Int = 2, fixes: Int = 300) -> Track {
        var result: [TrackSegment] = []
        for index in 0..<segments {
            let recipe = RouteRecipe(
                startLatitude: 46.5 + Double(index) * 0.01, startLongitude: -122.4 + Double(index) * 0.01,
                startTime: 1_714_806_720 + Double(index) * 3_600, fixCount: fixes, intervalSeconds: 1, speedMetersPerSecond: 3,
                headingDegrees: 30, headingJitterDegrees: 3, baseElevation: 120, hillAmplitude: 10)
            result.append(TrackSegment(fixes: RouteSynthesizer.fixes(recipe, seed: UInt64(index + 1))))
        }
        return Track(format: .gpx, name: "Round & trip <1>", segments: result)
    }

    static func expectSameFixes(
        _ read: Track, _ written: Track, elevationTolerance: Double = 0.051, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(read.segments.map(\.fixes.count) == written.segments.map(\.fixes.count), sourceLocation: sourceLocation)
        for (a, b) in zip(read.segments, written.segments) {
            for (x, y) in zip(a.fixes, b.fixes) {
                guard abs(x.latitudeDegrees - y.latitudeDegrees) <= 1e-7, abs(x.longitudeDegrees - y.longitudeDegrees) <= 1e-7,
                    abs(x.elevationMeters - y.elevationMeters) <= elevationTolerance,
                    (x.timeSeconds == y.timeSeconds.rounded() || (x.timeSeconds.isNaN && y.timeSeconds.isNaN))
                else {
                    Issue.record("fix differs: read \(x), written \(y)", sourceLocation: sourceLocation)
                    return
                }
            }
        }
    }

    @Test func tcx() throws {
        let written = Self.sampleTrack()
        let track = try TrackDecoder.decode(Array(TrackWriters.tcx(written, sport: "Biking").utf8))
        #expect(track.format == .tcx)
        #expect(track.activity == "Biking")
        #expect(track.activityIdentifier == "2024-05-04T07:12:00Z")
        Self.expectSameFixes(track, written)
    }

    @Test(arguments: [true, false]) func kml(timed: Bool) throws {
        var written = Self.sampleTrack()
        let track = try TrackDecoder.decode(Array(TrackWriters.kml(written, timed: timed).utf8))
        #expect(track.format == .kml)
        #expect(track.name == "Round & trip <1>")
        if !timed {
            for s in written.segments.indices { for f in written.segments[s].fixes.indices { written.segments[s].fixes[f].timeSeconds = .nan } }
        }
        Self.expectSameFixes(track, written)
    }

    @Test(arguments: [1, 3]) func geoJSON(segments: Int) throws {
        let written = Self.sampleTrack(segments: segments)
        let track = try TrackDecoder.decode(Array(TrackWriters.geoJSON(written).utf8))
        #expect(track.format == .geojson)
        #expect(track.name == "Round & trip <1>")
        Self.expectSameFixes(track, written)
    }

    @Test func kmzStoredAndDeflated() throws {
        let written = Self.sampleTrack()
        for deflated in [true, false] {
            let archive = Compression.zip(
                [("files/readme.txt", Array("hi".utf8)), ("doc.kml", Array(TrackWriters.kml(written).utf8))], deflated: deflated)
            let track = try TrackDecoder.decode(archive, fileName: "trip.kmz")
            #expect(track.format == .kmz)
            Self.expectSameFixes(track, written)
        }
    }

    @Test func gzipAroundEveryTextFormat() throws {
        let written = Self.sampleTrack()
        for text in [TrackWriters.gpx11(written), TrackWriters.tcx(written), TrackWriters.kml(written), TrackWriters.geoJSON(written)] {
            let track = try TrackDecoder.decode(Compression.deflate(Array(text.utf8), gzip: true), fileName: "a.gz")
            #expect(track.wasCompressed)
            Self.expectSameFixes(track, written)
        }
        let fit = try TrackDecoder.decode(Compression.deflate(FITEncoder.encode(written), gzip: true), fileName: "a.fit.gz")
        #expect(fit.format == .fit && fit.wasCompressed)
    }

    @Test func utf16XMLWithAndWithoutBOM() throws {
        let written = Self.sampleTrack(segments: 1, fixes: 20)
        let text = TrackWriters.gpx11(written).replacingOccurrences(of: "encoding=\"UTF-8\"", with: "encoding=\"UTF-16\"")
        let units = Array(text.utf16)
        let littleWithBOM: [UInt8] = [0xFF, 0xFE] + units.flatMap { (unit: UInt16) -> [UInt8] in [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        let bigWithoutBOM: [UInt8] = units.flatMap { (unit: UInt16) -> [UInt8] in [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        for bytes in [littleWithBOM, bigWithoutBOM] {
            let track = try TrackDecoder.decode(bytes)
            #expect(track.format == .gpx)
            Self.expectSameFixes(track, written)
        }
    }
}
