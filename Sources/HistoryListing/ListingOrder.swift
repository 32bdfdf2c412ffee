import FileStore

/// The listing's order as the last complete listing left it, oldest first, in
/// `Output/.tracksnap/listing-order`: what a refresh that only adds newer tracks needs to know of
/// the 100,000 others without reading the per-track cache (`ListingBuilder.appendNewest`). Binary,
/// fixed-size records after the magic `TSLORD1\n`: the 32 bytes of the key, the sort time (float64
/// bit pattern), the JSON digest (`ListingCache.Entry.digest`), where the track's line is in the
/// per-track cache (offset, then length as 32 bits), the length of its card (the line's last
/// field, 32 bits) and its month, UTF-8, padded with zeros to 16 bytes; little-endian throughout. 8 MB at 100,000 tracks, read in a few milliseconds; new
/// tracks at the newest end are written over the end of the file, so one new track writes 80
/// bytes of it. How many records count is kept in the stamp (`ListingStamp.state`), so records a
/// refresh wrote before it was killed are not read.
struct ListingOrder {
    /// One listed track.
    struct Record: Equatable {
        /// The cache key (its 64 hex digits are the track id).
        var key: CacheKeyBytes
        /// The time the listing sorts by.
        var sortTime: Double
        /// `ListingCache.Entry.digest`.
        var digest: UInt64
        /// Where the track's line is in the per-track cache file.
        var cacheLine: Range<Int>
        /// Bytes of its card, which ends its line (before the newline).
        var cardBytes: Int
        /// "2024-05" (`ListingCache.Entry.month`).
        var month: String
    }

    static let magic = Array("TSLORD1\n".utf8)
    static let recordBytes = 80
    /// Bytes of the month field; a month longer than this keeps the listing from writing the order.
    static let monthBytes = 16

    /// The file's bytes (magic included).
    private let bytes: [UInt8]
    /// Records that count (`ListingStamp.State.orderCount`).
    let count: Int

    /// The first `count` records of the file at `path`; nil when it has fewer or is not one.
    static func load(_ path: String, count: Int) -> ListingOrder? {
        guard let bytes = try? FileStore.readFile(path, maximumBytes: 1 << 34), bytes.starts(with: magic),
            bytes.count >= magic.count + count * recordBytes
        else { return nil }
        return ListingOrder(bytes: bytes, count: count)
    }

    /// Record `index` (0: the oldest).
    func record(_ index: Int) -> Record {
        bytes.withUnsafeBytes { raw in
            let base = Self.magic.count + index * Self.recordBytes
            func word(_ offset: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + offset, as: UInt64.self)) }
            let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: base + 56, as: UInt32.self)))
            let card = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: base + 60, as: UInt32.self)))
            let month = raw[(base + 64)..<(base + 80)].prefix { $0 != 0 }
            return Record(
                key: CacheKeyBytes(raw[base..<(base + 32)]), sortTime: Double(bitPattern: word(32)), digest: word(40),
                cacheLine: Int(word(48))..<(Int(word(48)) + length), cardBytes: card, month: String(decoding: month, as: UTF8.self))
        }
    }

    /// What the overview asks of the track of record `index` (`OverviewPublisher.ListedTrack`),
    /// its card cut from its line in the per-track cache file `cache` (the line's last field)
    /// without parsing the line: the overview asks for every listed track. Nil when the line is
    /// not there.
    func overviewTrack(_ index: Int, cache file: MappedFile) -> OverviewPublisher.ListedTrack? {
        let cache = file.bytes
        return bytes.withUnsafeBytes { raw in
            let base = Self.magic.count + index * Self.recordBytes
            func word(_ offset: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: base + offset, as: UInt64.self)) }
            let start = Int(word(48))
            let end = start + Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: base + 56, as: UInt32.self)))
            let cardStart = end - 1 - Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: base + 60, as: UInt32.self)))
            // The bounds only: the bytes around the card (its tab and newline) are checked when it
            // is copied into a page (`CardBytes`), so asking for 40,000 cards touches no page of
            // the 250 MB cache.
            guard start < cardStart, end <= cache.count else { return nil }
            // As `ListingBuilder.overviewTrack` reads it (months are ASCII: `ListingFormat.LocalTime.monthKey`),
            // without making a string of each of 40,000.
            var year = 0
            for byte in raw[(base + 64)..<(base + 68)] {
                guard (0x30...0x39).contains(byte) else {
                    year = byte == 0 ? year : 0
                    break
                }
                year = year * 10 + Int(byte - 0x30)
            }
            return OverviewPublisher.ListedTrack(
                year: year, sortTime: Double(bitPattern: word(32)), card: OverviewPublisher.CardBytes(file, range: cardStart..<(end - 1)),
                digest: word(40))
        }
    }

    /// Every record's key, in the order's order.
    func trackKeys() -> [TrackKey] {
        bytes.withUnsafeBytes { raw in (0..<count).map { TrackKey(raw, at: Self.magic.count + $0 * Self.recordBytes) } }
    }

    /// Where each key's record is, for looking many up: by the key's first 8 bytes, the whole key
    /// compared on a hit. Made from the records' bytes without a string for any of 100,000 keys
    /// (a dictionary by hex id was a tenth of a second of the short refresh).
    struct KeyPositions {
        fileprivate var byLead: [UInt64: Int] = [:]
        /// Further records whose first 8 bytes another record has (none among distinct SHA-256 keys in practice).
        fileprivate var sharingLead: [UInt64: [Int]] = [:]
    }

    /// The positions of every record's key.
    func keyPositions() -> KeyPositions {
        var positions = KeyPositions()
        positions.byLead.reserveCapacity(count)
        bytes.withUnsafeBytes { raw in
            for index in 0..<count {
                let lead = raw.loadUnaligned(fromByteOffset: Self.magic.count + index * Self.recordBytes, as: UInt64.self)
                if positions.byLead[lead] == nil {
                    positions.byLead[lead] = index
                } else {
                    positions.sharingLead[lead, default: []].append(index)
                }
            }
        }
        return positions
    }

    /// The position of the record of `key` (64 hex digits); nil when none holds it.
    func position(of key: String, in positions: KeyPositions) -> Int? {
        guard let wanted = TrackKey(hex: key), let first = positions.byLead[wanted.words.0.bigEndian] else { return nil }
        return bytes.withUnsafeBytes { raw in
            func holds(_ index: Int) -> Bool { TrackKey(raw, at: Self.magic.count + index * Self.recordBytes) == wanted }
            if holds(first) { return first }
            return positions.sharingLead[wanted.words.0.bigEndian]?.first(where: holds)
        }
    }

    /// Whether a record holds one of `keys`: one pass, each record's first 8 bytes looked up
    /// among theirs, the whole key compared only where they match.
    func containsAny(of keys: [CacheKeyBytes]) -> Bool {
        guard !keys.isEmpty else { return false }
        var prefixes: [UInt64: [CacheKeyBytes]] = [:]
        for key in keys { prefixes[key.bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }, default: []].append(key) }
        return bytes.withUnsafeBytes { raw in
            for index in 0..<count {
                let base = Self.magic.count + index * Self.recordBytes
                guard let candidates = prefixes[raw.loadUnaligned(fromByteOffset: base, as: UInt64.self)] else { continue }
                if candidates.contains(where: { $0.bytes.elementsEqual(raw[base..<(base + 32)]) }) { return true }
            }
            return false
        }
    }

    /// Every month with the newest-first position of its newest track, newest first (the index
    /// page's navigation, `IndexPages.months`), from the months of the records and `newer` (the
    /// months of tracks newer than every record, newest first). Compares raw month bytes and looks
    /// a month up only where it differs from the record before.
    func months(after newer: [String]) -> [IndexPages.MonthStart] {
        var starts: [IndexPages.MonthStart] = []
        var seen: Set<String> = []
        for (position, month) in newer.enumerated() where seen.insert(month).inserted {
            starts.append(IndexPages.MonthStart(month: month, position: position))
        }
        bytes.withUnsafeBytes { raw in
            var previous: UnsafeRawBufferPointer.SubSequence?
            for index in stride(from: count - 1, through: 0, by: -1) {
                let base = Self.magic.count + index * Self.recordBytes + 64
                let month = raw[base..<(base + Self.monthBytes)]
                if let previous, previous.elementsEqual(month) { continue }
                previous = month
                let text = String(decoding: month.prefix { $0 != 0 }, as: UTF8.self)
                if seen.insert(text).inserted { starts.append(IndexPages.MonthStart(month: text, position: newer.count + count - 1 - index)) }
            }
        }
        return starts
    }

    /// The bytes of `records` (without the magic); nil when a month does not fit its field.
    static func bytes(of records: some Sequence<Record>) -> [UInt8]? {
        var out: [UInt8] = []
        for record in records {
            let month = Array(record.month.utf8)
            guard month.count <= monthBytes, record.cacheLine.count <= Int(UInt32.max), record.cardBytes < record.cacheLine.count else { return nil }
            out += record.key.bytes
            for word in [record.sortTime.bitPattern, record.digest, UInt64(record.cacheLine.lowerBound)] {
                withUnsafeBytes(of: word.littleEndian) { out += $0 }
            }
            for length in [record.cacheLine.count, record.cardBytes] { withUnsafeBytes(of: UInt32(length).littleEndian) { out += $0 } }
            out += month + [UInt8](repeating: 0, count: monthBytes - month.count)
        }
        return out
    }

    /// Writes `records` as the whole file (atomically); false (nothing written, an old file
    /// removed) when they cannot be kept.
    static func save(_ records: some Sequence<Record>, to path: String) throws(FileError) -> Bool {
        guard let body = bytes(of: records) else {
            try FileStore.remove(path)
            return false
        }
        try FileStore.writeAtomically(magic + body, to: path)
        return true
    }

    /// Writes `records` after the first `count` records of the file at `path` (cutting off any
    /// others); false (nothing written) when they cannot be kept.
    static func append(_ records: [Record], to path: String, after count: Int) throws(FileError) -> Bool {
        guard let body = bytes(of: records) else { return false }
        try FileStore.overwrite(body, in: path, from: magic.count + count * recordBytes)
        return true
    }
}

/// The 32 bytes of a cache key, for the listing's binary state (`ListingOrder`); ordered as their
/// hex digits are.
struct CacheKeyBytes: Equatable, Comparable, Hashable {
    /// The bytes.
    let bytes: [UInt8]

    init(_ bytes: some Sequence<UInt8>) { self.bytes = Array(bytes) }

    /// The bytes of 64 lowercase hex digits; nil for anything else.
    init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 32)
        for (index, digit) in digits.enumerated() {
            let value: UInt8
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = digit - UInt8(ascii: "a") + 10
            default: return nil
            }
            bytes[index / 2] |= index % 2 == 0 ? value << 4 : value
        }
        self.bytes = bytes
    }

    /// The 64 lowercase hex digits.
    var hex: String { Self.hex(bytes) }

    private static let digits = Array("0123456789abcdef".utf8)

    /// The lowercase hex digits of `bytes`.
    static func hex(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            for (offset, byte) in bytes.enumerated() {
                buffer[offset * 2] = digits[Int(byte >> 4)]
                buffer[offset * 2 + 1] = digits[Int(byte & 15)]
            }
            return bytes.count * 2
        }
    }

    static func < (left: CacheKeyBytes, right: CacheKeyBytes) -> Bool { left.bytes.lexicographicallyPrecedes(right.bytes) }
}
