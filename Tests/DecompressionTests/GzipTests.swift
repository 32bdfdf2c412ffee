import Decompression
import Testing
import TrackSynthesis

/// gzip: members, trailing bytes, damage and the bomb limits.
@Suite struct GzipTests {
    let text = Array(String(repeating: "<trkpt lat=\"1.0\" lon=\"2.0\"/>\n", count: 2_000).utf8)

    private func decompress(_ bytes: [UInt8], limits: DecompressionLimits = DecompressionLimits()) throws(DecompressionError) -> [UInt8] {
        try bytes.withUnsafeBufferPointer { buffer throws(DecompressionError) in try Gzip.decompress(buffer, limits: limits) }
    }

    @Test func roundTripsAndJoinsConcatenatedMembers() throws {
        let one = Compression.deflate(text, gzip: true)
        #expect(try decompress(one) == text)
        #expect(try decompress(one + one) == text + text)
        #expect(try decompress(one + [0, 0, 0, 0]) == text)
    }

    @Test func trailingJunkTruncationAndCorruptionAreErrorsWithOffsets() throws {
        let one = Compression.deflate(text, gzip: true)
        #expect(throws: DecompressionError.self) { try decompress(one + [1, 2, 3]) }
        do {
            _ = try decompress(Array(one.prefix(one.count / 2)))
            Issue.record("expected truncation")
        } catch {
            #expect(error.kind == .malformed && error.message.contains("truncated"))
        }
        var corrupt = one
        corrupt[corrupt.count - 6] ^= 0x55  // inside the CRC-32 trailer
        do {
            _ = try decompress(corrupt)
            Issue.record("expected a check error")
        } catch {
            #expect(error.kind == .malformed)
        }
    }

    @Test func bombIsRefusedByRatioAndBySize() throws {
        let zeros = [UInt8](repeating: 0, count: 8 << 20)
        let bomb = Compression.deflate(zeros, gzip: true, level: 9)  // ~1000:1
        do {
            _ = try decompress(bomb)
            Issue.record("expected the ratio guard")
        } catch {
            #expect(error.kind == .limitExceeded)
        }
        var limits = DecompressionLimits()
        limits.maximumRatio = 10_000
        limits.maximumOutputBytes = 1 << 20
        do {
            _ = try decompress(bomb, limits: limits)
            Issue.record("expected the size limit")
        } catch {
            #expect(error.kind == .limitExceeded && error.message.contains("1048576"))
        }
        limits.maximumOutputBytes = 16 << 20
        #expect(try decompress(bomb, limits: limits).count == zeros.count)
    }

    @Test func smallRepetitiveFilesAreUnderTheRatioFloor() throws {
        let small = [UInt8](repeating: 0x41, count: 500_000)
        #expect(try decompress(Compression.deflate(small, gzip: true)).count == small.count)
    }
}

/// Zip: the central directory, both methods, damage.
@Suite struct ZipArchiveTests {
    @Test func listsAndExtractsEntries() throws {
        let files: [(path: String, contents: [UInt8])] = [("doc.kml", Array("<kml/>".utf8)), ("images/a.png", [1, 2, 3])]
        for deflated in [true, false] {
            let bytes = Compression.zip(files, deflated: deflated)
            try bytes.withUnsafeBufferPointer { buffer in
                let archive = try ZipArchive(buffer)
                #expect(archive.entries.map(\.path) == ["doc.kml", "images/a.png"])
                #expect(try archive.contents(of: archive.entries[0]) == files[0].contents)
                #expect(try archive.contents(of: archive.entries[1]) == files[1].contents)
            }
        }
    }

    @Test func truncatedOrCorruptArchivesAreErrors() throws {
        let bytes = Compression.zip([("doc.kml", Array(String(repeating: "<kml/>", count: 100).utf8))])
        for cut in [0, 10, bytes.count - 5] {
            let part = Array(bytes.prefix(cut))
            #expect(throws: DecompressionError.self) { try part.withUnsafeBufferPointer { _ = try ZipArchive($0) } }
        }
        var corrupt = bytes
        corrupt[40] ^= 0xFF  // inside the deflated data
        let error = #expect(throws: DecompressionError.self) {
            try corrupt.withUnsafeBufferPointer { buffer in
                let archive = try ZipArchive(buffer)
                _ = try archive.contents(of: archive.entries[0])
            }
        }
        // The offset is in the archive (the entry's data starts after its 30 + 7-byte header),
        // not counted from the entry's own data (issue 13, item 10: it always said byte 0).
        #expect((error?.byteOffset ?? 0) >= 37, "\(error.map { "\($0)" } ?? "")")
    }
}
