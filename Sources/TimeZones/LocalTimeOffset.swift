#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The offset of local time at a place and moment, and how it was decided.
package struct LocalTimeOffset: Sendable, Equatable {
    /// Seconds east of UTC.
    package var utcOffsetSeconds: Int
    /// The IANA zone the offset comes from ("Europe/Zurich"); nil when it is the nautical estimate
    /// (15° of longitude an hour: at sea, where no zone is known, or without the zone's rules).
    package var zoneName: String?

    /// Creates an offset.
    package init(utcOffsetSeconds: Int, zoneName: String?) {
        self.utcOffsetSeconds = utcOffsetSeconds
        self.zoneName = zoneName
    }

    /// The nautical zone of a longitude: 15° an hour, rounded to the nearest hour.
    package static func nautical(longitudeDegrees: Double) -> LocalTimeOffset {
        let hours = abs(longitudeDegrees) <= 180 ? Int((longitudeDegrees / 15).rounded()) : 0
        return LocalTimeOffset(utcOffsetSeconds: max(-12, min(12, hours)) * 3600, zoneName: nil)
    }

    /// The local time offset at a place and moment: the zone containing the place
    /// (`ZoneBoundaries.embedded`), then that zone's IANA rules from the system's tz database
    /// (`ZoneInfoDirectory.system`) at that moment. At sea (the "Etc/GMT±N" zones), where no zone
    /// is known, or when the system lacks the zone's file, the nautical estimate.
    package static func at(latitudeDegrees: Double, longitudeDegrees: Double, seconds: Double) -> LocalTimeOffset {
        at(
            latitudeDegrees: latitudeDegrees, longitudeDegrees: longitudeDegrees, seconds: seconds,
            boundaries: ZoneBoundaries.embedded, rules: ZoneInfoDirectory.system)
    }

    /// Like `at(latitudeDegrees:longitudeDegrees:seconds:)` with given boundaries and rules.
    package static func at(
        latitudeDegrees: Double, longitudeDegrees: Double, seconds: Double, boundaries: ZoneBoundaries?, rules: ZoneInfoDirectory
    ) -> LocalTimeOffset {
        // Times come from records, which are files: past ±1e12 s (year ±31,000) Int64 conversion
        // and the calendar are not worth trusting.
        guard abs(seconds) < 1e12, let name = boundaries?.zoneName(latitudeDegrees: latitudeDegrees, longitudeDegrees: longitudeDegrees),
            !name.hasPrefix("Etc/"), let zone = rules.rules(for: name)
        else { return nautical(longitudeDegrees: longitudeDegrees) }
        return LocalTimeOffset(utcOffsetSeconds: zone.utcOffsetSeconds(at: Int64(seconds.rounded(.down))), zoneName: name)
    }
}

/// A directory of TZif files (the tz database, `/usr/share/zoneinfo` from Debian's `tzdata`),
/// each read once on first use and kept; safe to use from several threads.
///
/// Lookups take no lock: the rules loaded so far are an immutable table, published through an
/// atomic pointer; a zone not in it is loaded under a lock, which publishes a new table with it.
/// (A cold listing asks once per track from 16 threads: behind a `Mutex` that was a fifth of the
/// records' CPU spent waiting for it and switching threads, `perf`.) Every table published stays
/// alive as long as the directory, as a reader may still hold an earlier one: one table per zone
/// loaded, each a copy of the one before with the new zone (the rules themselves are shared), so
/// memory grows with the square of the zones loaded: a few zones in practice; all ~400 of the
/// embedded data would be 80,000 small entries, a few MB.
package final class ZoneInfoDirectory: Sendable {
    /// The directory.
    package let path: String
    /// Every table published, the newest last (kept alive here; see above).
    private let tables = Mutex<[Table]>([])
    /// The newest table's address (0: none yet), for lookups without the lock. (An address as a
    /// number: `Atomic` of a pointer is not `Sendable`.)
    private let newest = Atomic<UInt>(0)

    /// Zone rules by name; nil: the zone's file is missing or unreadable.
    private final class Table: Sendable {
        let rules: [String: ZoneRules?]
        init(_ rules: [String: ZoneRules?]) { self.rules = rules }
    }

    /// `$TZDIR` when set, else `/usr/share/zoneinfo`.
    package static let system: ZoneInfoDirectory = {
        if let directory = getenv("TZDIR"), directory.pointee != 0 { return ZoneInfoDirectory(path: String(cString: directory)) }
        return ZoneInfoDirectory(path: "/usr/share/zoneinfo")
    }()

    /// A directory of TZif files.
    package init(path: String) { self.path = path }

    /// The rules of a zone ("Europe/Zurich"); nil when its file is missing or unreadable.
    package func rules(for name: String) -> ZoneRules? {
        if let table = UnsafeRawPointer(bitPattern: newest.load(ordering: .acquiring)),
            let known = Unmanaged<Table>.fromOpaque(table)._withUnsafeGuaranteedRef({ $0.rules[name] })
        {
            return known
        }
        return tables.withLock { tables in
            var rules = tables.last?.rules ?? [:]
            // Loaded by another thread since this one looked.
            if let known = rules[name] { return known }
            let loaded = load(name)
            rules[name] = loaded
            let table = Table(rules)
            tables.append(table)
            newest.store(UInt(bitPattern: Unmanaged.passUnretained(table).toOpaque()), ordering: .releasing)
            return loaded
        }
    }

    private func load(_ name: String) -> ZoneRules? {
        // Names come from the boundary data; still, never let one leave the directory.
        guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        guard let file = fopen(path + "/" + name, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return try? ZoneRules(tzif: bytes)
    }
}
