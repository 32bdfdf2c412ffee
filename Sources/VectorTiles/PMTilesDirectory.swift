/// One entry of a PMTiles directory: a run of tiles sharing one blob, or a pointer to a leaf directory.
public struct PMTilesEntry: Sendable, Equatable {
    /// The first tile id the entry covers.
    public var tileID: UInt64
    /// Where the blob starts: in the tile data section for tiles, in the leaf directories section
    /// for a leaf pointer.
    public var offset: UInt64
    /// The blob's length in bytes (> 0).
    public var length: UInt32
    /// How many consecutive tile ids share the blob; 0 marks a pointer to a leaf directory that
    /// covers the ids from `tileID` up to the next entry's.
    public var runLength: UInt32

    /// Creates an entry.
    public init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
        self.tileID = tileID
        self.offset = offset
        self.length = length
        self.runLength = runLength
    }

    /// Whether the entry points at a leaf directory.
    public var isLeafPointer: Bool { runLength == 0 }
}

/// The directory encoding (PMTiles v3 spec, "Directories"): the entry count, then each column as
/// varints: tile ids as deltas from the previous id, run lengths, lengths, and offsets, where 0
/// means "right after the previous entry's blob" and any other value is the offset plus one.
enum PMTilesDirectory {
    /// Decodes the (inflated) directory bytes; `at` is the directory's offset in the archive, for errors.
    static func decode(_ bytes: [UInt8], at archiveOffset: UInt64) throws(PMTilesError) -> [PMTilesEntry] {
        try bytes.withUnsafeBufferPointer { buffer throws(PMTilesError) in
            var reader = WireReader(buffer, range: 0..<buffer.count)
            func varint() throws(PMTilesError) -> UInt64 {
                do throws(VectorTileProblem) {
                    return try reader.readVarint()
                } catch {
                    throw PMTilesError(.malformedDirectory, at: archiveOffset, "directory byte \(error.byteOffset): \(error.message)")
                }
            }
            let count = try varint()
            // Each entry takes at least four bytes (one varint per column).
            guard count <= UInt64(buffer.count / 4) else {
                throw PMTilesError(
                    .malformedDirectory, at: archiveOffset,
                    "expected at most \(buffer.count / 4) entries in \(buffer.count) bytes, found a count of \(count)")
            }
            var entries = [PMTilesEntry](repeating: PMTilesEntry(tileID: 0, offset: 0, length: 0, runLength: 0), count: Int(count))
            var id: UInt64 = 0
            for k in entries.indices {
                let delta = try varint()
                guard k == 0 || delta > 0 else {
                    throw PMTilesError(.malformedDirectory, at: archiveOffset, "expected increasing tile ids, found entry \(k) repeating id \(id)")
                }
                let (next, overflow) = id.addingReportingOverflow(delta)
                guard !overflow else {
                    throw PMTilesError(.malformedDirectory, at: archiveOffset, "expected tile ids below 2^64, found an overflow at entry \(k)")
                }
                id = next
                entries[k].tileID = id
            }
            for k in entries.indices {
                let run = try varint()
                guard run <= UInt64(UInt32.max) else {
                    throw PMTilesError(.malformedDirectory, at: archiveOffset, "expected a 32-bit run length, found \(run)")
                }
                entries[k].runLength = UInt32(run)
            }
            for k in entries.indices {
                let length = try varint()
                guard length > 0, length <= UInt64(UInt32.max) else {
                    throw PMTilesError(.malformedDirectory, at: archiveOffset, "expected a length of 1…2^32−1 at entry \(k), found \(length)")
                }
                entries[k].length = UInt32(length)
            }
            for k in entries.indices {
                let stored = try varint()
                if stored == 0 {
                    guard k > 0 else {
                        throw PMTilesError(.malformedDirectory, at: archiveOffset, "expected an explicit offset for the first entry, found 0")
                    }
                    let (next, overflow) = entries[k - 1].offset.addingReportingOverflow(UInt64(entries[k - 1].length))
                    guard !overflow else {
                        throw PMTilesError(.malformedDirectory, at: archiveOffset, "expected offsets below 2^64, found an overflow at entry \(k)")
                    }
                    entries[k].offset = next
                } else {
                    entries[k].offset = stored - 1
                }
            }
            guard reader.isAtEnd else {
                throw PMTilesError(
                    .malformedDirectory, at: archiveOffset,
                    "expected the directory to end after \(count) entries, found \(buffer.count - reader.position) more bytes")
            }
            return entries
        }
    }

    /// Encodes `entries` (ordered by tile id), writing 0 for an offset right after the previous blob.
    static func encode(_ entries: [PMTilesEntry]) -> [UInt8] {
        var bytes: [UInt8] = []
        func varint(_ value: UInt64) {
            var rest = value
            while rest >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }
        varint(UInt64(entries.count))
        var previous: UInt64 = 0
        for entry in entries {
            varint(entry.tileID - previous)
            previous = entry.tileID
        }
        for entry in entries { varint(UInt64(entry.runLength)) }
        for entry in entries { varint(UInt64(entry.length)) }
        for (k, entry) in entries.enumerated() {
            if k > 0, entry.offset == entries[k - 1].offset + UInt64(entries[k - 1].length) {
                varint(0)
            } else {
                varint(entry.offset + 1)
            }
        }
        return bytes
    }

    /// The entry covering `tileID`: the last entry at or before it when that is a leaf pointer or a
    /// run reaching it; nil when no entry covers it.
    static func find(_ tileID: UInt64, in entries: [PMTilesEntry]) -> PMTilesEntry? {
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].tileID <= tileID { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let entry = entries[low - 1]
        if entry.isLeafPointer || tileID - entry.tileID < UInt64(entry.runLength) { return entry }
        return nil
    }
}
