/// An RGBA8 image in memory, rows top to bottom, 4 bytes per pixel in R, G, B, A order.
///
/// Alpha convention: straight (not premultiplied). Every layer TrackSnap draws is composited onto
/// an opaque background, so the canvas stays opaque and the PNG encoder may drop alpha.
public struct Canvas: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes.
    public var pixels: [UInt8]

    /// Bytes per row.
    public var rowStride: Int { width * 4 }

    /// A canvas filled with `color`.
    public init(width: Int, height: Int, fill color: RGBAColor) {
        precondition(width > 0 && height > 0, "canvas size must be positive")
        self.width = width
        self.height = height
        let pattern = (UInt32(color.red) | UInt32(color.green) << 8 | UInt32(color.blue) << 16 | UInt32(color.alpha) << 24).littleEndian
        let count = width * height
        // One pass writing whole pixels (not a byte array built from a word array: that copied twice).
        pixels = [UInt8](unsafeUninitializedCapacity: count * 4) { buffer, initialized in
            UnsafeMutableRawPointer(buffer.baseAddress!).bindMemory(to: UInt32.self, capacity: count).initialize(repeating: pattern, count: count)
            initialized = count * 4
        }
    }

    /// A canvas filled with `color`, in the memory of `storage` (taken; left empty), which a
    /// caller keeps from image to image: a fresh 2560×1920 canvas is 19.7 MB of new pages, and
    /// their faults were 5% of a raster-map run.
    public init(width: Int, height: Int, fill color: RGBAColor, reusing storage: inout [UInt8]) {
        precondition(width > 0 && height > 0, "canvas size must be positive")
        self.width = width
        self.height = height
        let count = width * height
        var pixels: [UInt8] = []
        swap(&pixels, &storage)
        // Shrinking keeps the capacity, so a smaller image after a larger one reuses its pages.
        if pixels.count > count * 4 {
            pixels.removeLast(pixels.count - count * 4)
        } else if pixels.count < count * 4 {
            pixels.append(contentsOf: repeatElement(0, count: count * 4 - pixels.count))
        }
        let pattern = (UInt32(color.red) | UInt32(color.green) << 8 | UInt32(color.blue) << 16 | UInt32(color.alpha) << 24).littleEndian
        pixels.withUnsafeMutableBytes { $0.bindMemory(to: UInt32.self).update(repeating: pattern) }
        self.pixels = pixels
    }

    /// A canvas in the memory of `storage` (taken; left empty) with its pixels as they were
    /// there (zeros where it grew): for a caller that draws every pixel over (a basemap that
    /// covers the image), so a 2560×1920 image is not filled with 19.7 MB of paper first.
    public init(width: Int, height: Int, unpaintedReusing storage: inout [UInt8]) {
        precondition(width > 0 && height > 0, "canvas size must be positive")
        self.width = width
        self.height = height
        let count = width * height * 4
        var pixels: [UInt8] = []
        swap(&pixels, &storage)
        if pixels.count > count {
            pixels.removeLast(pixels.count - count)
        } else if pixels.count < count {
            pixels.append(contentsOf: repeatElement(0, count: count - pixels.count))
        }
        self.pixels = pixels
    }

    /// The colour at a pixel.
    public func color(x: Int, y: Int) -> RGBAColor {
        let index = (y * width + x) * 4
        return RGBAColor(red: pixels[index], green: pixels[index + 1], blue: pixels[index + 2], alpha: pixels[index + 3])
    }
}
