import MapGeometry

/// Road-width strokes with round joins and caps and analytic anti-aliasing.
///
/// A pixel's coverage is `clamp(r + 0.5 − d, 0, 1)`, where d is the exact distance from the pixel
/// centre to the nearest segment of the polyline. Taking the maximum over segments gives round
/// joins and caps for free (the union of capsules), and self-crossings are covered once, so a
/// translucent colour blended once per pixel never darkens where the route meets itself. The ramp
/// is a unit box filter across the edge: a straight stroke of width w sums to exactly w per column.
///
/// The route and its casing are filled in one pass (the distance is computed once per pixel).
/// This is the hot loop; it works on raw pointers and stays in this file.
public enum StrokeRasterizer {
    /// Adds the polylines' stroke (half width `radiusPixels`) to `mask`. A one-point polyline is a dot.
    /// Points are in canvas pixels; the mask's origin places it on the canvas.
    public static func stroke(_ polylines: [[PixelPoint]], radiusPixels: Double, into mask: inout CoverageMask) {
        let area = Area(mask)
        let touched = mask.values.withUnsafeMutableBufferPointer { values in
            rasterize(polylines, area, radiusPixels, values.baseAddress!, 0, nil)
        }
        if let touched { mask.touch(minX: touched.minX, minY: touched.minY, maxX: touched.maxX, maxY: touched.maxY) }
    }

    /// Adds the polylines' stroke to `mask` and a wider stroke (half width `casingRadiusPixels`) to
    /// `casing`, in one pass.
    public static func stroke(
        _ polylines: [[PixelPoint]], radiusPixels: Double, into mask: inout CoverageMask,
        casingRadiusPixels: Double, casing: inout CoverageMask
    ) {
        let area = Area(mask)
        precondition(area == Area(casing), "route and casing masks must cover the same pixels")
        let touched = mask.values.withUnsafeMutableBufferPointer { values in
            casing.values.withUnsafeMutableBufferPointer { casingValues in
                rasterize(polylines, area, radiusPixels, values.baseAddress!, casingRadiusPixels, casingValues.baseAddress!)
            }
        }
        if let touched {
            mask.touch(minX: touched.minX, minY: touched.minY, maxX: touched.maxX, maxY: touched.maxY)
            casing.touch(minX: touched.minX, minY: touched.minY, maxX: touched.maxX, maxY: touched.maxY)
        }
    }

    /// The pixels a mask covers on the canvas.
    private struct Area: Equatable {
        var width: Int, height: Int, originX: Double, originY: Double
        init(_ mask: CoverageMask) {
            width = mask.width
            height = mask.height
            originX = Double(mask.originX)
            originY = Double(mask.originY)
        }
    }

    private struct Touched {
        var minX: Int, minY: Int, maxX: Int, maxY: Int
    }

    private static func rasterize(
        _ polylines: [[PixelPoint]], _ area: Area,
        _ radius: Double, _ values: UnsafeMutablePointer<UInt8>,
        _ casingRadius: Double, _ casingValues: UnsafeMutablePointer<UInt8>?
    ) -> Touched? {
        let (width, height) = (area.width, area.height)
        var touched = Touched(minX: width, minY: height, maxX: -1, maxY: -1)
        // Canvas pixels to mask pixels.
        func local(_ point: PixelPoint) -> PixelPoint { PixelPoint(x: point.x - area.originX, y: point.y - area.originY) }
        for polyline in polylines where !polyline.isEmpty {
            polyline.withUnsafeBufferPointer { points in
                if points.count == 1 {
                    let a = local(points[0])
                    segment(a, a, width, height, radius, values, casingRadius, casingValues, &touched)
                }
                for index in points.indices.dropFirst() {
                    segment(local(points[index - 1]), local(points[index]), width, height, radius, values, casingRadius, casingValues, &touched)
                }
            }
        }
        return touched.minX <= touched.maxX ? touched : nil
    }

    @inline(__always)
    private static func segment(
        _ a: PixelPoint, _ b: PixelPoint, _ width: Int, _ height: Int,
        _ radius: Double, _ values: UnsafeMutablePointer<UInt8>,
        _ casingRadius: Double, _ casingValues: UnsafeMutablePointer<UInt8>?,
        _ touched: inout Touched
    ) {
        let outer = (casingValues == nil ? radius : max(radius, casingRadius)) + 0.5
        let outerSquared = outer * outer
        let dx = b.x - a.x, dy = b.y - a.y
        let lengthSquared = dx * dx + dy * dy
        let inverseLengthSquared = lengthSquared > 0 ? 1 / lengthSquared : 0
        let boxMinX = min(a.x, b.x) - outer, boxMaxX = max(a.x, b.x) + outer
        let lowY = min(a.y, b.y) - outer - 0.5, highY = max(a.y, b.y) + outer - 0.5
        guard highY >= 0, lowY < Double(height), boxMaxX >= 0, boxMinX <= Double(width) else { return }
        let rowStart = max(0, Int(lowY.rounded(.down)))
        let rowEnd = min(height - 1, Int(highY.rounded(.up)))
        // On one row, the band |distance to the infinite line| < outer spans ±rowHalfExtent around
        // the line's crossing; intersected with the segment's box it bounds the capsule.
        let steep = abs(dy) > 1e-9
        let rowHalfExtent = steep ? outer * lengthSquared.squareRoot() / abs(dy) : 0
        let slope = steep ? dx / dy : 0
        // Coverage in 1/255 units: (r + 0.5 − d) · 255.
        let bias = (radius + 0.5) * 255
        let casingBias = (casingRadius + 0.5) * 255
        for row in rowStart...rowEnd {
            let yc = Double(row) + 0.5
            var lo = boxMinX, hi = boxMaxX
            if steep {
                let xAtRow = a.x + (yc - a.y) * slope
                lo = max(lo, xAtRow - rowHalfExtent)
                hi = min(hi, xAtRow + rowHalfExtent)
            }
            let columnStart = max(0, Int((lo - 0.5).rounded(.down)))
            let columnEnd = min(width - 1, Int((hi - 0.5).rounded(.up)))
            if columnStart > columnEnd { continue }
            touched.minX = min(touched.minX, columnStart)
            touched.maxX = max(touched.maxX, columnEnd)
            touched.minY = min(touched.minY, row)
            touched.maxY = max(touched.maxY, row)
            let py = yc - a.y
            let rowBase = row * width
            for column in columnStart...columnEnd {
                let px = Double(column) + 0.5 - a.x
                var t = (px * dx + py * dy) * inverseLengthSquared
                t = t < 0 ? 0 : (t > 1 ? 1 : t)
                let ex = px - t * dx, ey = py - t * dy
                let distanceSquared = ex * ex + ey * ey
                if distanceSquared >= outerSquared { continue }
                let distance255 = distanceSquared.squareRoot() * 255
                let value = bias - distance255
                if value > 0 {
                    let coverage: UInt8 = value >= 255 ? 255 : UInt8(value + 0.5)
                    if coverage > values[rowBase + column] { values[rowBase + column] = coverage }
                }
                if let casingValues {
                    let casingValue = casingBias - distance255
                    if casingValue > 0 {
                        let coverage: UInt8 = casingValue >= 255 ? 255 : UInt8(casingValue + 0.5)
                        if coverage > casingValues[rowBase + column] { casingValues[rowBase + column] = coverage }
                    }
                }
            }
        }
    }
}
