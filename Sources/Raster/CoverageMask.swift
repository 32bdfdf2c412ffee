/// How much of each pixel a shape covers, 0 (none) ... 255 (all), plus the rectangle that has been
/// touched so compositing can skip the rest. Shapes are combined by maximum, which makes a mask
/// the *union* of its shapes: overlaps never count twice. A mask may cover only part of a canvas:
/// its pixel (0, 0) is the canvas pixel (originX, originY), so a marker needs no canvas-sized mask.
public struct CoverageMask: Sendable {
    /// Width in pixels.
    public private(set) var width: Int
    /// Height in pixels.
    public private(set) var height: Int
    /// Canvas column of the mask's first column.
    public let originX: Int
    /// Canvas row of the mask's first row.
    public let originY: Int
    /// Row-major coverage values.
    public var values: [UInt8]
    /// Touched rectangle, inclusive; empty when `minX > maxX`.
    public var minX: Int, minY: Int, maxX: Int, maxY: Int
    /// The block map (`CoverageMask+Blocks.swift`): one byte per 64×8-pixel block, nonzero where
    /// a writer drew; empty when the mask does not track blocks.
    @usableFromInline var blocks: [UInt8] = []
    /// Blocks per block row; 0 when the mask does not track blocks.
    @usableFromInline var blockColumns = 0

    /// An empty mask, placed at (originX, originY) on the canvas.
    public init(width: Int, height: Int, originX: Int = 0, originY: Int = 0) {
        self.width = width
        self.height = height
        self.originX = originX
        self.originY = originY
        values = [UInt8](repeating: 0, count: width * height)
        minX = width
        minY = height
        maxX = -1
        maxY = -1
    }

    /// Erases everything drawn (only the touched rectangle is written), to reuse the mask.
    public mutating func clear() {
        guard !isEmpty else { return }
        let width = self.width
        if tracksBlocks {
            var values = self.values
            self.values = []
            values.withUnsafeMutableBufferPointer { buffer in
                forEachCoveredRun { row, first, last in (buffer.baseAddress! + row * width + first).update(repeating: 0, count: last - first + 1) }
            }
            self.values = values
        } else {
            let left = minX, rows = minY...maxY, count = maxX - minX + 1
            values.withUnsafeMutableBufferPointer { buffer in
                for row in rows { (buffer.baseAddress! + row * width + left).update(repeating: 0, count: count) }
            }
        }
        markCleared()
    }

    /// Makes an empty mask at the canvas origin `width`×`height`, keeping the storage when it is
    /// large enough: every value is zero whenever the mask is empty, so nothing from a previous
    /// (larger or differently shaped) image can show through.
    public mutating func reshape(width: Int, height: Int) {
        precondition(isEmpty && originX == 0 && originY == 0, "only an empty canvas-sized mask is reshaped")
        if values.count < width * height { values = LargeBuffer.zeroed(UInt8.self, count: width * height) }
        self.width = width
        self.height = height
        if tracksBlocks { trackBlocks() }
        minX = width
        minY = height
        maxX = -1
        maxY = -1
    }

    /// Marks the mask empty after a caller zeroed every value it had drawn.
    public mutating func markCleared() {
        minX = width
        minY = height
        maxX = -1
        maxY = -1
        if tracksBlocks { blocks.withUnsafeMutableBufferPointer { $0.update(repeating: 0) } }
    }

    /// Whether nothing has been drawn.
    public var isEmpty: Bool { minX > maxX }

    /// Coverage at a mask pixel as a fraction 0...1.
    public func coverage(x: Int, y: Int) -> Double { Double(values[y * width + x]) / 255 }

    /// Grows the touched rectangle.
    @inlinable
    public mutating func touch(minX: Int, minY: Int, maxX: Int, maxY: Int) {
        self.minX = Swift.min(self.minX, minX)
        self.minY = Swift.min(self.minY, minY)
        self.maxX = Swift.max(self.maxX, maxX)
        self.maxY = Swift.max(self.maxY, maxY)
    }
}
