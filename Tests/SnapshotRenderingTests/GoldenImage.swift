import Foundation
import PNGEncoding
import Testing

/// Compares rendered images with `Tests/Golden/*.png`, or writes them there under `make golden`.
///
/// Tolerance: every channel within 3 levels and at most 0.5% of pixels different at all. Rendering
/// is deterministic on one machine; the slack absorbs floating-point differences between CPUs and
/// compiler versions, not visible changes. Regenerate on purpose with `make golden`
/// (`TRACKSNAP_WRITE_GOLDEN=1`) and look at every image it changed before committing.
enum GoldenImage {
    /// `Tests/Golden/`.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden")

    /// Whether this run writes the goldens instead of comparing with them.
    static var writing: Bool { ProcessInfo.processInfo.environment["TRACKSNAP_WRITE_GOLDEN"] == "1" }

    /// Checks `png` against the golden image `name`.png (writes it instead under `make golden`).
    static func check(_ png: [UInt8], name: String) throws {
        let url = directory.appendingPathComponent(name + ".png")
        if writing {
            try Data(png).write(to: url)
            return
        }
        guard let golden = FileManager.default.contents(atPath: url.path) else {
            Issue.record("no golden image at \(url.path): run 'make golden' and review it")
            return
        }
        let expected = try PNGDecoder.decode(Array(golden)), actual = try PNGDecoder.decode(png)
        guard expected.width == actual.width && expected.height == actual.height else {
            Issue.record("\(name): \(actual.width)x\(actual.height) pixels, the golden has \(expected.width)x\(expected.height)")
            return
        }
        var differing = 0, worst = 0
        for pixel in 0..<(expected.width * expected.height) {
            var pixelDiffers = false
            for channel in 0..<4 {
                let difference = abs(Int(expected.pixels[pixel * 4 + channel]) - Int(actual.pixels[pixel * 4 + channel]))
                worst = max(worst, difference)
                if difference > 0 { pixelDiffers = true }
            }
            if pixelDiffers { differing += 1 }
        }
        #expect(worst <= 3, "\(name): a channel differs by \(worst)")
        #expect(Double(differing) <= 0.005 * Double(expected.width * expected.height), "\(name): \(differing) pixels differ")
    }
}
