/// A 5×7-dot bitmap font built into the binary, for scale-bar labels: digits, space, '.', 'k', 'm'
/// (every label `ScaleBar` makes). No font file, no font rendering library, identical output on
/// every machine. Each dot is drawn as a square of `dotPixels`, so labels stay crisp at any scale.
public enum BitmapFont {
    /// Dots per glyph row and column.
    public static let glyphWidthDots = 5
    /// Dots per glyph column.
    public static let glyphHeightDots = 7
    /// Empty dots between glyphs.
    public static let spacingDots = 1

    /// Rows top to bottom, bit 4 the leftmost dot.
    private static let glyphs: [Character: [UInt8]] = [
        "0": [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E],
        "1": [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        "2": [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F],
        "3": [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        "4": [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02],
        "5": [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        "6": [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E],
        "7": [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        "8": [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E],
        "9": [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        " ": [0, 0, 0, 0, 0, 0, 0],
        ".": [0, 0, 0, 0, 0, 0x0C, 0x0C],
        "k": [0x10, 0x10, 0x12, 0x14, 0x18, 0x14, 0x12],
        "m": [0x00, 0x00, 0x1A, 0x15, 0x15, 0x11, 0x11],
    ]

    /// Whether every character of `text` has a glyph.
    public static func canDraw(_ text: String) -> Bool { text.allSatisfy { glyphs[$0] != nil } }

    /// Width of `text` in dots.
    public static func widthDots(_ text: String) -> Int {
        text.isEmpty ? 0 : text.count * (glyphWidthDots + spacingDots) - spacingDots
    }

    /// Calls `dot(column, row)` for every set dot of `text`, in dot coordinates from its top-left.
    /// Characters without a glyph are drawn as blanks.
    public static func forEachDot(_ text: String, _ dot: (Int, Int) -> Void) {
        for (index, character) in text.enumerated() {
            guard let rows = glyphs[character] else { continue }
            let left = index * (glyphWidthDots + spacingDots)
            for (row, bits) in rows.enumerated() {
                for column in 0..<glyphWidthDots where bits & (0x10 >> UInt8(column)) != 0 {
                    dot(left + column, row)
                }
            }
        }
    }
}
