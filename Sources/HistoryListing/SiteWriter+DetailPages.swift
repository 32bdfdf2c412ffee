import FileStore

/// The detail pages a refresh writes, made a chunk at a time (`SiteWriter.write(_:recordingIn:)`).
///
/// A cold listing made all 100,000 pages before writing the first: 250 MB of page bytes held at
/// once (2.5 GB at a million tracks, where a cold listing that also drew the overview peaked at
/// 14.6 GB), and the rendering on every core before the writing on one, where it could fill the
/// core the writing leaves idle. Now the next chunk is made while this one is written (a cold
/// listing at a million tracks with the overview's state kept peaked at 12.2 GB).
struct DetailPages: Sendable {
    /// Pages planned (the last chunk may make fewer: a track whose record is gone has none).
    let count: Int
    /// Makes the pages of `range` (indices of the plan's detail pages), in order.
    let make: @Sendable (Range<Int>) -> [SitePlan.File]

    /// Pages made a chunk at a time by `make`.
    init(count: Int, make: @escaping @Sendable (Range<Int>) -> [SitePlan.File]) {
        self.count = count
        self.make = make
    }

    /// Pages already made.
    init(_ files: [SitePlan.File]) {
        self.init(count: files.count) { Array(files[$0]) }
    }

    /// Pages made and written per chunk: a few MB of bytes, and enough files that making the
    /// next on the other cores outlasts starting its thread.
    static let chunkSize = 2_048
}

extension SiteWriter {
    /// Writes `pages` as `write(_:recordingIn:)` writes files (one `syncfs` after them all when
    /// they are more than a batch), making each chunk while the one before is written. Returns
    /// the files and bytes written.
    func write(_ pages: DetailPages, recordingIn manifest: inout [String: Entry]) throws(FileError) -> (files: Int, bytes: Int) {
        let durability = Self.durability(writing: pages.count)
        var written = (files: 0, bytes: 0)
        var current = pages.make(0..<min(DetailPages.chunkSize, pages.count))
        var start = DetailPages.chunkSize
        while true {
            // The next chunk made on another thread while this one is written (a short refresh's
            // few pages are one chunk: no thread).
            var next: [SitePlan.File]?
            if start < pages.count {
                let (upcoming, make) = (start..<min(start + DetailPages.chunkSize, pages.count), pages.make)
                let (made, result) = EveryCore.alongside(
                    { make(upcoming) }, { Result { () throws(FileError) in try write(current, durability: durability, recordingIn: &manifest) } })
                try result.get()
                next = made
            } else {
                try write(current, durability: durability, recordingIn: &manifest)
            }
            written.files += current.count
            written.bytes += current.reduce(0) { $0 + $1.bytes.count }
            guard let next else { break }
            current = next
            start += DetailPages.chunkSize
        }
        if durability == .byCaller { try FileStore.syncFileSystem(containing: root) }
        return written
    }
}
