import ContentHash
import FileStore

/// The published thumbnails and their records under `Output/`:
///
///     thumbs/<key>.png, thumbs/<key>@2x.png      images (content-derived names)
///     .tracksnap/records/<key>.json               one record per key, written after its images
///     .tracksnap/records/<key>.incomplete.json    present while the key's images lack map tiles
///     .tracksnap/locks/<xx>                       256 striped render locks (flock)
///
/// A record's presence means every image of its key is published: the cache check is one `stat`,
/// plus one for the incomplete marker (so a run finds images to redraw without reading records;
/// named like a record, it is pruned with it).
package struct ThumbnailStore: Sendable {
    /// The output folder.
    package let root: String
    /// The images published for every key, thumbnails first (they name the files).
    package let images: [ImageSpec]
    /// The fingerprint of the settings the images are drawn with (`ThumbnailSettings.fingerprint`):
    /// with a track's content hash, it makes the key.
    package let fingerprint: SHA256Digest

    /// A store in `root` for images drawn under settings with `fingerprint`.
    package init(root: String, images: [ImageSpec], fingerprint: SHA256Digest) {
        self.root = root.count > 1 && root.hasSuffix("/") ? String(root.dropLast()) : root
        self.images = images
        self.fingerprint = fingerprint
    }

    /// Folder of the images.
    package var thumbsDirectory: String { root + "/thumbs" }
    /// Folder of TrackSnap's own state (dot-prefixed: not part of the published site's listing).
    package var stateDirectory: String { root + "/.tracksnap" }
    /// Folder of the records.
    package var recordsDirectory: String { stateDirectory + "/records" }
    /// Folder of the render locks.
    package var locksDirectory: String { stateDirectory + "/locks" }
    /// Where the fingerprint of the settings last rendered with is kept.
    package var settingsStampPath: String { stateDirectory + "/settings" }
    /// Folders that may hold staging files.
    package var stagingDirectories: [String] { [root, thumbsDirectory, recordsDirectory, stateDirectory] }

    /// Creates the folders.
    package func prepare() throws(FileError) {
        try FileStore.createDirectories([thumbsDirectory, recordsDirectory, locksDirectory])
    }

    /// The key of a track's bytes under these settings.
    package func key(forTrackBytes bytes: [UInt8]) -> CacheKey {
        CacheKey(content: SHA256.hash(bytes), settings: fingerprint)
    }

    /// The key of a track whose bytes hash to `content`.
    package func key(content: SHA256Digest) -> CacheKey {
        CacheKey(content: content, settings: fingerprint)
    }

    /// The record path of a key.
    package func recordPath(_ key: CacheKey) -> String { recordsDirectory + "/" + key.hex + ".json" }

    /// Whether every image of `key` is published: its record, and (belt and braces, two `stat`s)
    /// the images the record promises, so a file lost in a crash is rendered again.
    package func isPublished(_ key: CacheKey) -> Bool {
        FileStore.exists(recordPath(key)) && imagePaths(key).allSatisfy { FileStore.exists(root + "/" + $0) }
    }

    /// The marker of a key whose published images were drawn with map tiles missing.
    package func incompletePath(_ key: CacheKey) -> String { recordsDirectory + "/" + key.hex + ".incomplete.json" }

    /// Whether `key`'s published images were drawn with map tiles missing (to be redrawn).
    package func isIncomplete(_ key: CacheKey) -> Bool { FileStore.exists(incompletePath(key)) }

    /// Whether `key` is published and complete: what a job may take from the cache instead of
    /// rendering (an incomplete image is redrawn, never reused).
    package func isComplete(_ key: CacheKey) -> Bool { isPublished(key) && !isIncomplete(key) }

    /// Reads a key's record.
    package func record(_ key: CacheKey) -> TrackRecord? {
        guard let bytes = try? FileStore.readFile(recordPath(key), maximumBytes: 1 << 20) else { return nil }
        return TrackRecord.parse(bytes)
    }

    /// The image paths (relative to `root`) of a key, in the settings' order.
    package func imagePaths(_ key: CacheKey) -> [String] {
        images.map { "thumbs/" + key.hex + $0.fileSuffix(primary: images[0]) + ".png" }
    }

    /// Publishes a render: each image atomically (temporary, fsync, rename, directory fsync), then
    /// the record. On failure nothing new is visible under a final name except complete images,
    /// and a previous version of each file stays intact.
    package func publish(key: CacheKey, pngs: [[UInt8]], record: TrackRecord) throws(FileError) {
        let images = zip(pngs, imagePaths(key)).map { (bytes: $0, path: root + "/" + $1) }
        // The record is renamed last: its presence promises the images. The incomplete marker
        // goes before it and is removed after a complete one, so a crash in between errs
        // towards drawing the track again.
        if let cause = record.incomplete {
            let marker = IncompleteMarker(cause: cause, tilesFailed: record.basemap?.tilesFailed ?? 0).jsonBytes()
            try FileStore.writeAtomically(images + [(marker, incompletePath(key)), (record.jsonBytes(), recordPath(key))])
        } else {
            try FileStore.writeAtomically(images + [(record.jsonBytes(), recordPath(key))])
            try FileStore.remove(incompletePath(key))
        }
    }

    /// Takes the render lock of `key`'s stripe, so two workers (or machines) given the same track
    /// under two names render it once: the second waits, then finds it published. 256 stripes by
    /// the key's first byte; an unrelated key shares a stripe 1 time in 256.
    package func acquireRenderLock(_ key: CacheKey) throws(FileError) -> ExclusiveLock {
        try ExclusiveLock.acquire(locksDirectory + "/" + String(key.hex.prefix(2)))
    }
}
