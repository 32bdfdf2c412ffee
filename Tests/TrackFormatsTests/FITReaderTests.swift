import Testing
import TrackModel
import TrackSynthesis
@testable import TrackFormats

/// FIT files from the project's own encoder (`TrackSynthesis.FITEncoder`), in every layout the
/// protocol allows, plus damaged ones.
@Suite struct FITReaderTests {
    static let written = FormatRoundTripTests.sampleTrack(segments: 3, fixes: 200)

    static func options(_ configure: (inout FITEncoder.Options) -> Void) -> FITEncoder.Options {
        var options = FITEncoder.Options()
        configure(&options)
        return options
    }

    static let layouts: [(String, FITEncoder.Options)] = [
        ("little-endian", FITEncoder.Options()),
        ("big-endian", options { $0.bigEndian = true }),
        ("compressed timestamps", options { $0.compressedTimestamps = true }),
        ("developer fields", options { $0.developerFields = true }),
        (
            "12-byte header, legacy altitude",
            options {
                $0.longHeader = false; $0.legacyAltitude = true
            }
        ),
        (
            "chained compressed timestamps rolling over",
            options {
                $0.compressedTimestamps = true; $0.chainedCompressedTimestamps = true
            }
        ),
        (
            "everything",
            options {
                $0.bigEndian = true; $0.compressedTimestamps = true; $0.chainedCompressedTimestamps = true; $0.developerFields = true
            }
        ),
    ]

    @Test(arguments: 0..<layouts.count) func readsLayout(_ index: Int) throws {
        let (name, options) = Self.layouts[index]
        let bytes = FITEncoder.encode(Self.written, options: options)
        let track = try TrackDecoder.decode(bytes, fileName: "x.fit")
        #expect(track.format == .fit, "\(name)")
        #expect(track.activity == "running", "\(name)")
        #expect(track.notes.isEmpty, "\(name): \(track.notes)")
        FormatRoundTripTests.expectSameFixes(track, Self.written, elevationTolerance: 0.11)
    }

    @Test func chainedFilesAreRead() throws {
        let bytes = FITEncoder.encode(Self.written) + FITEncoder.encode(Self.written, options: Self.options { $0.bigEndian = true })
        let track = try TrackDecoder.decode(bytes)
        #expect(track.segments.count == 6)
    }

    @Test func badFileCRCIsReadWithANote() throws {
        var bytes = FITEncoder.encode(Self.written)
        bytes[bytes.count - 1] ^= 0xFF
        let track = try TrackDecoder.decode(bytes)
        #expect(track.fixCount == 600)
        #expect(track.notes.contains { $0.contains("CRC") })
    }

    @Test func invalidPositionsAreNotFixes() throws {
        var bytes = FITEncoder.encode(Self.written)
        // Patch the first record's latitude to the invalid value 0x7FFFFFFF.
        let semicircles = FITEncoder.semicircles(Self.written.segments[0].fixes[0].latitudeDegrees)
        let pattern = withUnsafeBytes(of: semicircles.littleEndian) { Array($0) }
        let at = try #require(bytes.indices.first { bytes[$0..<min($0 + 4, bytes.count)].elementsEqual(pattern) })
        bytes.replaceSubrange(at..<(at + 4), with: [0xFF, 0xFF, 0xFF, 0x7F])
        let read = try TrackDecoder.decode(bytes)
        #expect(read.fixCount == 599)
    }

    @Test(arguments: [13, 40, 200, 1000]) func truncatedFileIsAnErrorWithAnOffset(_ keep: Int) throws {
        let bytes = Array(FITEncoder.encode(Self.written).prefix(keep))
        #expect(throws: TrackDecodingError.self) { try TrackDecoder.decode(bytes) }
        do {
            _ = try TrackDecoder.decode(bytes)
        } catch {
            #expect(error.format == .fit)
            #expect(error.position != nil)
        }
    }

    @Test func undefinedLocalMessageIsAnError() throws {
        var bytes = FITEncoder.encode(Self.written, options: Self.options { $0.longHeader = false })
        bytes[12] = 0x0F  // the first record header: a data message of an undefined local type
        do {
            _ = try TrackDecoder.decode(bytes)
            Issue.record("expected an error")
        } catch {
            #expect(error.position?.byteOffset == 12)
            #expect(error.message.contains("local message type 15"))
        }
    }
}

/// The sliced CRC against the protocol's nibble-wise reference (as `FITEncoder.crc` writes it).
@Suite struct FITChecksumTests {
    @Test func matchesTheReferenceAlgorithm() {
        #expect(Array("123456789".utf8).withUnsafeBufferPointer { FITChecksum.crc($0, 0, $0.count) } == 0xBB3D)
        var generator = SplitMix64(seed: 9)
        for length in [0, 1, 7, 8, 9, 15, 16, 17, 1000] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            #expect(bytes.withUnsafeBufferPointer { FITChecksum.crc($0, 0, $0.count) } == FITEncoder.crc(bytes[...]))
        }
    }
}
