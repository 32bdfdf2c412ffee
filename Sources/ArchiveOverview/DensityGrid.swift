/// How many tracks passed each pixel of one picture: a track adds 1 to every pixel of its
/// footprint (`TrackFootprint`, each pixel once), and subtracting it takes exactly that away, so
/// adding then removing a track leaves the grid as it was, bit for bit.
///
/// Counts are 32-bit: exact for any archive (16-bit counts would halve the memory but cap a pixel
/// at 65,535 tracks, and a capped count cannot be subtracted exactly). Memory: 4 bytes a pixel.
package struct DensityGrid: Sendable, Equatable {
    /// Width in pixels.
    package let width: Int
    /// Height in pixels.
    package let height: Int
    /// Row-major counts.
    package private(set) var counts: [UInt32]
    /// Tracks added and not subtracted.
    package private(set) var trackCount = 0

    /// An empty grid.
    package init(width: Int, height: Int) {
        precondition(width > 0 && height > 0, "grid size must be positive")
        self.width = width
        self.height = height
        counts = [UInt32](repeating: 0, count: width * height)
    }

    /// A grid with counts already made (a kept state).
    init(width: Int, height: Int, counts: [UInt32], trackCount: Int) {
        precondition(counts.count == width * height, "one count a pixel")
        self.width = width
        self.height = height
        self.counts = counts
        self.trackCount = trackCount
    }

    /// The tracks that passed pixel (x, y).
    package func count(x: Int, y: Int) -> UInt32 { counts[y * width + x] }

    /// The largest count (0 for an empty grid).
    package var maximumCount: UInt32 {
        // Over the buffer, not through the array's iterator: a tight loop over 5 million counts
        // for a @2x picture, read for every picture drawn.
        counts.withUnsafeBufferPointer { counts in counts.reduce(0) { Swift.max($0, $1) } }
    }

    /// Bytes of count storage.
    package var memoryBytes: Int { counts.count * MemoryLayout<UInt32>.stride }

    /// Adds one track.
    package mutating func add(_ footprint: TrackFootprint) {
        counts.withUnsafeMutableBufferPointer { counts in
            for index in footprint.pixelIndices { counts[Int(index)] += 1 }
        }
        trackCount += 1
    }

    /// Takes away one track added before with the same footprint. A pixel already at 0 means the
    /// footprint was never added: that is a programming error, and it stops here rather than wrap.
    package mutating func subtract(_ footprint: TrackFootprint) {
        precondition(trackCount > 0, "subtracting a track from an empty grid")
        counts.withUnsafeMutableBufferPointer { counts in
            for index in footprint.pixelIndices { counts[Int(index)] -= 1 }
        }
        trackCount -= 1
    }
}
