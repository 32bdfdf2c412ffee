import MapGeometry
import MapTiles
import PNGEncoding
import Raster
import SnapshotRendering
import TrackModel
import TrackSynthesis

/// Tiles made in memory on demand (no I/O): the resampler's tests need no file at all.
final class GeneratedTiles: TileProvider {
    let sourceDescription: TileSourceDescription
    let make: (Int, Int, Int) -> [UInt8]
    private(set) var requested: [TileCoordinate] = []

    init(
        minimumZoom: Int = 0, maximumZoom: Int = 22, attribution: String? = nil, boundsLonLat: [Double]? = nil,
        make: @escaping (Int, Int, Int) -> [UInt8] = { SyntheticTiles.positionField(z: $0, x: $1, y: $2) }
    ) {
        var description = TileSourceDescription()
        description.minimumZoom = minimumZoom
        description.maximumZoom = maximumZoom
        description.attribution = attribution
        description.boundsLonLat = boundsLonLat
        sourceDescription = description
        self.make = make
    }

    func tile(_ coordinate: TileCoordinate) -> TileLookup {
        requested.append(coordinate)
        var pixels = make(coordinate.z, coordinate.x, coordinate.y)
        TileImage.premultiply(&pixels)
        return .image(TileImage(width: 256, height: 256, premultipliedPixels: pixels))
    }
}

/// A straight track between two points (20 fixes).
func straightTrack(from start: (Double, Double), to end: (Double, Double)) -> Track {
    let fixes = (0..<20).map { index -> Fix in
        let t = Double(index) / 19
        var longitude = start.1 + (end.1 - start.1) * t
        if longitude > 180 { longitude -= 360 }
        return Fix(latitudeDegrees: start.0 + (end.0 - start.0) * t, longitudeDegrees: longitude)
    }
    return Track(format: .csv, segments: [TrackSegment(fixes: fixes)])
}

/// Options that draw only the background: no route, casing, markers, scale bar or attribution.
func backgroundOnlyOptions(width: Int, height: Int, scale: Double, source: String = "generated") -> RenderOptions {
    var options = RenderOptions()
    options.widthPoints = width
    options.heightPoints = height
    options.scale = scale
    options.style.routeColor = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
    options.style.drawsCasing = false
    options.style.drawsMarkers = false
    options.style.drawsScaleBar = false
    // True colour: the position field's colours are the measurement (a palette image would
    // quantize them; its colour error is tested apart, `RasterPaletteQualityTests`).
    options.png.layout = .trueColor
    var basemap = BasemapSettings(source: source)
    basemap.attribution = ""
    options.basemap = basemap
    return options
}

/// How far a render's background is from the position field, in image pixels.
struct AlignmentError {
    var worstPixels = 0.0
    var meanSignedX = 0.0, meanSignedY = 0.0
    var checked = 0
    var wrongTiles = 0
    var tileChecked = 0
}

/// Compares every pixel of a position-field render with the colour of its exact map position.
func measureAlignment(_ snapshot: RenderedSnapshot) throws -> AlignmentError {
    let canvas = try PNGDecoder.decode(snapshot.png)
    let info = snapshot.info
    let zoom = info.basemap!.zoom!
    let world = 256.0 * Double(1 << zoom), half = WebMercator.halfWorldMeters
    let rect = info.viewportEpsg3857
    let metersPerPixel = (rect[2] - rect[0]) / Double(info.width)
    let scale = metersPerPixel * world / (2 * half)  // source pixels per image pixel
    var result = AlignmentError()
    var sumX = 0.0, sumY = 0.0
    // Skip pixels whose footprint reaches the ramp's wrap (every 64 source pixels).
    let margin = scale / 2 + 1.5
    for row in 0..<info.height {
        for column in 0..<info.width {
            let mx = rect[0] + (Double(column) + 0.5) * metersPerPixel
            let my = rect[3] - (Double(row) + 0.5) * metersPerPixel
            let gx = (mx + half) / (2 * half) * world, gy = (half - my) / (2 * half) * world
            let colour = canvas.color(x: column, y: row)
            var errors: [Double] = []
            for (position, value) in [(gx, colour.red), (gy, colour.green)] {
                let phase = (position.truncatingRemainder(dividingBy: 64) + 64).truncatingRemainder(dividingBy: 64)
                guard phase > margin, phase < 64 - margin else { errors.append(.nan); continue }
                let expected = 4 * phase
                errors.append((Double(value) - expected) / 4 / scale)
            }
            if !errors[0].isNaN {
                result.worstPixels = max(result.worstPixels, abs(errors[0]))
                sumX += errors[0]
                result.checked += 1
            }
            if !errors[1].isNaN {
                result.worstPixels = max(result.worstPixels, abs(errors[1]))
                sumY += errors[1]
            }
            // The tile: only where the footprint stays inside one tile.
            let localX = (gx.truncatingRemainder(dividingBy: 256) + 256).truncatingRemainder(dividingBy: 256)
            let localY = gy.truncatingRemainder(dividingBy: 256)
            if localX > margin, localX < 256 - margin, localY > margin, localY < 256 - margin {
                let tiles = 1 << zoom
                let tileX = ((Int((gx / 256).rounded(.down)) % tiles) + tiles) % tiles, tileY = Int((gy / 256).rounded(.down))
                result.tileChecked += 1
                if colour.blue != SyntheticTiles.tileTag(z: zoom, x: tileX, y: tileY) { result.wrongTiles += 1 }
            }
        }
    }
    result.meanSignedX = sumX / Double(max(1, result.checked))
    result.meanSignedY = sumY / Double(max(1, result.checked))
    return result
}
