import ArchiveOverview
import FileStore

/// The tracks added to a picture's kept counts since the counts were last written whole, one id
/// a line, in `Output/.tracksnap/overview/added/<stem>`. A busy city's counts are megabytes
/// (10 MB for 40,000 tracks in the listing bench); a new track appends its id (65 bytes, fsynced)
/// instead of writing them again, and the next refresh adds the listed tracks' routes back on
/// load. Past `OverviewPublisher.journalLimit` ids the counts are written whole and the journal
/// removed.
///
/// Crash safety: counts and journal are each complete or not there (the counts renamed into
/// place, the journal appended line by line, a torn last line not read). Adding a track twice
/// does nothing (`RegionOverview.add`), so a journal left beside counts that already hold its
/// tracks (a refresh killed between writing the counts and removing it) is harmless, and a track
/// whose record is gone is left out, as if it had never been added (its counts and membership
/// go together).
struct CountsJournal {
    /// The journal's file.
    let path: String

    /// The ids in the journal, oldest first; none when there is no journal (complete lines only).
    func ids() -> [String] {
        guard let bytes = try? FileStore.readFile(path, maximumBytes: 1 << 20) else { return [] }
        var ids: [String] = []
        var start = 0
        for (index, byte) in bytes.enumerated() where byte == 0x0A {
            if index > start { ids.append(String(decoding: bytes[start..<index], as: UTF8.self)) }
            start = index + 1
        }
        return ids
    }

    /// Adds `ids` (fsynced before it returns).
    func append(_ ids: [String]) throws(FileError) {
        let bytes = Array(ids.map { $0 + "\n" }.joined().utf8)
        if FileStore.exists(path) {
            try FileStore.append(bytes, to: path)
        } else {
            try FileStore.writeAtomically(bytes, to: path, permissions: 0o600)
        }
    }

    /// Removes the journal (the counts now hold its tracks).
    func remove() throws(FileError) { try FileStore.remove(path) }

    /// `region` with the journal's tracks added from their routes (`route`: nil for a track whose
    /// record is gone, which is left out), and the ids replayed.
    static func replay(_ ids: [String], onto region: consuming RegionOverview, route: (String) -> OverviewRoute?) -> RegionOverview {
        var region = region
        for id in ids {
            if let added = route(id) { region.add(added) }
        }
        return region
    }
}
