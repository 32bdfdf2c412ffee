import PNGEncoding
import Raster
import Testing
import TrackModel
import TrackSynthesis
@testable import SnapshotRendering

/// The palette images against the unquantized RGBA rendering of the same scene, and buffer reuse.
@Suite struct PaletteRenderingTests {
    /// The default product's four sizes.
    private static let sizes: [(Int, Int, Double)] = [(320, 240, 1), (320, 240, 2), (1280, 960, 1), (1280, 960, 2)]

    private static func options(_ size: (Int, Int, Double), trueColor: Bool = false) -> RenderOptions {
        var options = RenderOptions()
        options.widthPoints = size.0
        options.heightPoints = size.1
        options.scale = size.2
        if trueColor { options.png.layout = .trueColor }
        return options
    }

    /// Largest and mean per-channel difference between two decoded images of one size.
    static func difference(_ a: Canvas, _ b: Canvas) -> (largest: Int, mean: Double, differing: Int) {
        var largest = 0, total = 0, differing = 0
        for pixel in 0..<(a.width * a.height) {
            var any = false
            for channel in 0..<3 {
                let delta = abs(Int(a.pixels[pixel * 4 + channel]) - Int(b.pixels[pixel * 4 + channel]))
                largest = max(largest, delta)
                total += delta
                any = any || delta > 0
            }
            if any { differing += 1 }
        }
        return (largest, Double(total) / Double(a.width * a.height * 3), differing)
    }

    /// ARCHITECTURE.md "Image quality of the palette images": the bound stated there. Twelve
    /// generated tracks (300 to 18,000 fixes), each at the four default sizes, palette against
    /// RGBA: every channel of every pixel within 10 levels, and a mean difference under 0.05
    /// levels (measured: 9 and 0.019, 46 of the 48 images as palettes).
    @Test func paletteImagesStayWithinTheStatedBoundOfTheRGBAImage() throws {
        var worst = 0, meanSum = 0.0, images = 0, palettes = 0
        let scratch = RenderScratch()
        for (index, fixes) in [300, 700, 1_200, 2_000, 3_000, 4_500, 6_000, 7_200, 9_000, 12_000, 15_000, 18_000].enumerated() {
            let track = try SnapshotRenderer.decode(trackBytes: Array(SampleCatalog.benchmarkRun(fixCount: fixes, seed: UInt64(index) + 77).utf8))
            for size in Self.sizes {
                let palette = try SnapshotRenderer.render(track: track, options: Self.options(size), scratch: scratch).png
                let reference = try SnapshotRenderer.render(track: track, options: Self.options(size, trueColor: true)).png
                if palette[25] == 3 { palettes += 1 }
                let result = Self.difference(try PNGDecoder.decode(palette), try PNGDecoder.decode(reference))
                worst = max(worst, result.largest)
                meanSum += result.mean
                images += 1
            }
        }
        #expect(palettes >= images * 9 / 10, "most default images are palette images: \(palettes) of \(images)")
        #expect(worst <= 10, "largest channel difference \(worst)")
        #expect(meanSum / Double(images) < 0.05, "mean channel difference \(meanSum / Double(images))")
    }

    /// One scratch drawing different sizes in turn gives the same bytes as a fresh one each time:
    /// nothing of a larger (or smaller) earlier image shows through.
    @Test func reusedBuffersLeakNothingBetweenImagesOfDifferentSizes() throws {
        let first = try SnapshotRenderer.decode(trackBytes: Array(SampleCatalog.benchmarkRun(fixCount: 4_000, seed: 1).utf8))
        let second = try SnapshotRenderer.decode(trackBytes: Array(SampleCatalog.benchmarkRun(fixCount: 900, seed: 2).utf8))
        let scratch = RenderScratch()
        let order = Self.sizes.reversed() + Self.sizes + [(512, 512, 1.0), (100, 700, 1.0)]
        for (step, size) in order.enumerated() {
            let track = step % 2 == 0 ? first : second
            let reused = try SnapshotRenderer.render(track: track, options: Self.options(size), scratch: scratch).png
            let fresh = try SnapshotRenderer.render(track: track, options: Self.options(size)).png
            #expect(reused == fresh ? true : false, "size \(size) after other sizes")
        }
    }

    /// The four images share one simplification (ranked down to the finest image's tolerance),
    /// which keeps slightly different vertices than simplifying for each image alone; both stay
    /// within 0.5 px of every fix (`SimplificationRanksTests`), so the images barely differ.
    @Test func theSharedSimplificationDrawsWhatEachImageAloneDraws() throws {
        let track = try SnapshotRenderer.decode(trackBytes: Array(SampleCatalog.benchmarkRun(fixCount: 5_000, seed: 9).utf8))
        let all = try SnapshotRenderer.render(track: track, images: Self.sizes.map { Self.options($0) })
        for (size, snapshot) in zip(Self.sizes, all) {
            let alone = try SnapshotRenderer.render(track: track, options: Self.options(size))
            let vertices = Double(snapshot.info.verticesDrawn), aloneVertices = Double(alone.info.verticesDrawn)
            #expect(abs(vertices - aloneVertices) <= aloneVertices * 0.05, "\(size): \(vertices) vs \(aloneVertices) vertices")
            let result = Self.difference(try PNGDecoder.decode(snapshot.png), try PNGDecoder.decode(alone.png))
            #expect(result.mean < 0.2, "\(size): mean difference \(result.mean)")
        }
    }
}
