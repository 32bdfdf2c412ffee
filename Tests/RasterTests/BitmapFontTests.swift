import Raster
import Testing

/// The 5×7 font's letters must read as what they are at thumbnail size.
@Suite struct BitmapFontTests {
    /// The rows of one glyph as strings of '#' and '.', top first.
    private func rows(_ character: Character) -> [String] {
        var grid = Array(repeating: Array(repeating: Character("."), count: BitmapFont.glyphWidthDots), count: BitmapFont.glyphHeightDots)
        BitmapFont.forEachDot(String(character)) { column, row in grid[row][column] = "#" }
        return grid.map { String($0) }
    }

    /// Lower-case letters without an ascender start at the x-height (row 2), as a, c, e and o do:
    /// a 'p' whose bowl starts on row 1 is read as 'P' (issue 21 item 13).
    @Test(arguments: Array("acegmnopqrsuvwxyz"))
    func lowerCaseLettersWithoutAscendersStayBelowTheXHeight(letter: Character) {
        let glyph = rows(letter)
        #expect(glyph[0] == ".....", "'\(letter)' row 0: \(glyph.joined(separator: " "))")
        #expect(glyph[1] == ".....", "'\(letter)' row 1: \(glyph.joined(separator: " "))")
        #expect(glyph[2] != ".....", "'\(letter)' has nothing at the x-height: \(glyph.joined(separator: " "))")
    }
}
