import MapGeometry

/// Paints the paper and grid of `GridPainter` into an `IndexedCanvas`, with line coverage
/// quantized to eighths: at most 8 × 8 shades, an error of at most 1/16 of a line's opacity
/// (1.8 levels of 255 for the default major lines, 0.8 for minor ones). Every pixel of the image
/// is written, so a reused canvas keeps nothing of the previous image.
public enum IndexedGridPainter {
    /// Coverage steps per line kind.
    public static let coverageSteps: Float = 8

    /// Paints the background for `viewport`; returns the spacing used, or nil when the palette
    /// had no room (it cannot happen on an empty palette: at most 81 shades).
    @discardableResult
    public static func paint(_ canvas: inout IndexedCanvas, viewport: Viewport, latitudeDegrees: Double, style: GridStyle, scale: Double)
        -> GridSpacing?
    {
        let width = canvas.width, height = canvas.height
        let (spacing, columns, rows) = GridPainter.profiles(
            width: width, height: height, viewport: viewport, latitudeDegrees: latitudeDegrees, style: style, scale: scale)
        let steps = Int(coverageSteps) + 1
        func step(_ coverage: Float) -> Int { Int((coverage * coverageSteps).rounded()) }
        // Palette index + 1 per (minor step, major step), filled on first use.
        var shades = [Int](repeating: 0, count: steps * steps)
        func shade(_ minor: Int, _ major: Int) -> UInt8? {
            let key = minor * steps + major
            if shades[key] == 0 {
                let color = GridPainter.shade(style, minor: Float(minor) / coverageSteps, major: Float(major) / coverageSteps)
                guard let index = canvas.index(of: color) else { return nil }
                shades[key] = Int(index) + 1
            }
            return UInt8(shades[key] - 1)
        }
        let columnMinor = columns.minor.map(step), columnMajor = columns.major.map(step)
        var template = [UInt8](repeating: 0, count: width)
        for x in 0..<width {
            guard let index = shade(columnMinor[x], columnMajor[x]) else { return nil }
            template[x] = index
        }
        // Rows differ only by the horizontal line they are on (none, minor or major with snapped
        // lines): each kind of row is computed once and copied.
        var rowsByKind = [[UInt8]?](repeating: nil, count: steps * steps)
        rowsByKind[0] = template
        for y in 0..<height {
            let rowMinor = step(rows.minor[y]), rowMajor = step(rows.major[y])
            let kind = rowMinor * steps + rowMajor
            if rowsByKind[kind] == nil {
                var row = [UInt8](repeating: 0, count: width)
                for x in 0..<width {
                    guard let index = shade(max(columnMinor[x], rowMinor), max(columnMajor[x], rowMajor)) else { return nil }
                    row[x] = index
                }
                rowsByKind[kind] = row
            }
            rowsByKind[kind]!.withUnsafeBufferPointer { row in
                canvas.indices.withUnsafeMutableBufferPointer { indices in
                    (indices.baseAddress! + y * width).update(from: row.baseAddress!, count: width)
                }
            }
        }
        return spacing
    }
}
