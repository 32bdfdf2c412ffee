import FileStore

/// The manifest on disk: two journals of lines `id \t digest [\t size \t mtime-ns \t inode]`, where
/// a later line for an id replaces an earlier one and `id \t -` removes it. `pages` holds the index
/// pages, parts and top files (≈ 3,400 lines at 100,000 tracks), `pages-tracks` the detail pages
/// (one line a track): an unchanged refresh reads only the first (`includingDetails: false`), which
/// at 100,000 tracks is 0.4 MB instead of 12 MB. (A manifest from before the split keeps detail
/// lines in `pages`: the first full refresh moves them.)
extension SiteWriter {
    /// What the manifest files held when loaded (see `saveManifest(_:over:lines:)`).
    struct ManifestLines {
        /// Lines in `pages`, live or not.
        var pages = 0
        /// Lines in `pages-tracks`, live or not.
        var details = 0
        /// Whether `pages` held detail-page lines (a manifest from before the split).
        var detailsInPages = false
        /// Whether `pages-tracks` was read (else the manifest holds only the detail pages written since).
        var detailsLoaded = true
    }

    /// The detail pages' journal.
    var detailManifestPath: String { manifestPath + "-tracks" }

    /// The manifest, with the detail pages' entries unless `includingDetails` is false.
    func loadManifest(includingDetails: Bool = true) -> (manifest: [String: Entry], lines: ManifestLines) {
        var manifest: [String: Entry] = [:]
        var lines = ManifestLines()
        lines.pages = Self.replay(manifestPath, into: &manifest)
        lines.detailsInPages = manifest.keys.contains(where: Self.isDetailID)
        if includingDetails { lines.details = Self.replay(detailManifestPath, into: &manifest) }
        lines.detailsLoaded = includingDetails
        return (manifest, lines)
    }

    /// Saves the manifest as journals: appends a line for each file written or re-checked since
    /// `previous` (the manifest as loaded, its files holding `lines`) and `id \t -` for each file
    /// gone, to the journal of its kind, so one new track appends a few lines instead of
    /// rewriting 100,000. (An append cut short by a crash leaves a line that does not parse or does
    /// not match its file: that file is written again.) A journal is rewritten whole instead when
    /// more than a third of its lines would be stale, or it is missing; both are, detail pages
    /// first, when `pages` still holds detail lines.
    func saveManifest(_ manifest: [String: Entry], over previous: [String: Entry], lines: ManifestLines) throws(FileError) {
        var pageChanges = "", detailChanges = ""
        for (id, entry) in manifest where previous[id] != entry {
            if Self.isDetailID(id) { detailChanges += Self.line(id, entry) } else { pageChanges += Self.line(id, entry) }
        }
        for id in previous.keys where manifest[id] == nil {
            if Self.isDetailID(id) { detailChanges += id + "\t-\n" } else { pageChanges += id + "\t-\n" }
        }
        if lines.detailsInPages { return try saveManifest(manifest) }
        let detailCount = manifest.keys.count(where: Self.isDetailID)
        if !lines.detailsLoaded {
            // Detail pages of new tracks only (`ListingBuilder.appendNewest`): lines to add, none stale.
            if !detailChanges.isEmpty && FileStore.exists(detailManifestPath) {
                try FileStore.append(Array(detailChanges.utf8), to: detailManifestPath)
            } else if !detailChanges.isEmpty {
                try FileStore.writeAtomically(Array(detailChanges.utf8), to: detailManifestPath)
            }
        } else if try !Self.appended(detailChanges, to: detailManifestPath, linesOnDisk: lines.details, live: detailCount) {
            try Self.write(manifest.filter { Self.isDetailID($0.key) }, to: detailManifestPath)
        }
        if try !Self.appended(pageChanges, to: manifestPath, linesOnDisk: lines.pages, live: manifest.count - detailCount) {
            try Self.write(manifest.filter { !Self.isDetailID($0.key) }, to: manifestPath)
        }
    }

    /// Writes both journals whole (atomically, sorted), the detail pages' first.
    func saveManifest(_ manifest: [String: Entry]) throws(FileError) {
        try Self.write(manifest.filter { Self.isDetailID($0.key) }, to: detailManifestPath)
        try Self.write(manifest.filter { !Self.isDetailID($0.key) }, to: manifestPath)
    }

    /// Appends `changes` to the journal at `path`; false (nothing done) when it is to be rewritten
    /// instead: a third of its lines would then be stale (`live` entries in it), or it has none.
    private static func appended(_ changes: String, to path: String, linesOnDisk: Int, live: Int) throws(FileError) -> Bool {
        guard !changes.isEmpty else { return true }
        let lines = linesOnDisk + changes.utf8.count { $0 == 0x0A }
        guard linesOnDisk > 0, (lines - live) * 3 <= lines, FileStore.exists(path) else { return false }
        try FileStore.append(Array(changes.utf8), to: path)
        return true
    }

    private static func write(_ entries: [String: Entry], to path: String) throws(FileError) {
        var text = ""
        text.reserveCapacity(entries.count * 120)
        for (id, entry) in entries.sorted(by: { $0.key < $1.key }) { text += line(id, entry) }
        try FileStore.writeAtomically(Array(text.utf8), to: path)
    }

    /// Reads the journal at `path` into `manifest`; returns its line count.
    private static func replay(_ path: String, into manifest: inout [String: Entry]) -> Int {
        var lines = 0
        guard let bytes = try? FileStore.readFile(path, maximumBytes: 1 << 30) else { return lines }
        manifest.reserveCapacity(manifest.count + bytes.count / 128)  // ~115 bytes a line
        TabSeparated.forEachRecord(in: bytes) { fields in
            lines += 1
            guard fields.count == 2 || fields.count == 5 else { return }
            func text(_ index: Int) -> String { String(decoding: bytes[fields[index]], as: UTF8.self) }
            if fields.count == 2 && text(1) == "-" {
                manifest[text(0)] = nil
                return
            }
            guard let digest = UInt64(text(1), radix: 16) else { return }
            let written = fields.count == 5 ? Written([text(2), text(3), text(4)]) : nil
            if fields.count == 5 && written == nil { return }
            manifest[text(0)] = Entry(digest: digest, written: written)
        }
        return lines
    }

    private static func line(_ id: String, _ entry: Entry) -> String {
        var text = id + "\t" + String(entry.digest, radix: 16)
        if let written = entry.written { text += "\t\(written.sizeBytes)\t\(written.modificationNanoseconds)\t\(written.inode)" }
        return text + "\n"
    }
}
