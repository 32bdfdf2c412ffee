import MapGeometry
import PNGEncoding
import Raster

/// One region's heat map as it is kept between runs: its frame, and per scale the counts of the
/// tracks drawn into it. A track is added or taken away from its route alone (`OverviewRoute`),
/// so a new track costs its own length in pixels and reads no other track; adding then removing
/// one leaves every count, the totals and the pictures as they were, byte for byte.
package struct RegionOverview: Sendable {
    /// The picture's frame (fixed: a track outside it needs a new frame, see `fits`).
    package let frame: RegionFrame
    /// The scales drawn (device pixels per point), as in `OverviewOptions.scales`.
    package let scales: [Double]
    /// The counts at each scale, in `scales`' order.
    package private(set) var grids: [DensityGrid]
    /// Distance of the tracks drawn, whole metres (summed as integers so that removing a track
    /// restores the total exactly).
    package internal(set) var distanceMeters = 0
    /// The ids of the tracks drawn.
    package internal(set) var members: Set<String> = []
    private var tracers: [FootprintTracer]

    /// An empty region picture for `frame`.
    package init(frame: RegionFrame, scales: [Double]) {
        let viewports = scales.map(frame.viewport(scale:))
        self.init(frame: frame, scales: scales, grids: viewports.map { DensityGrid(width: $0.widthPixels, height: $0.heightPixels) })
    }

    /// A region picture with counts already made (`grids` in `scales`' order, each the size of
    /// the frame's viewport at its scale).
    init(frame: RegionFrame, scales: [Double], grids: [DensityGrid]) {
        self.frame = frame
        self.scales = scales
        self.grids = grids
        tracers = grids.map { FootprintTracer(width: $0.width, height: $0.height) }
    }

    /// The region of `routes`, framed around their extent.
    package init(routes: [OverviewRoute], options: OverviewOptions) {
        let bounds = routes.dropFirst().reduce(routes[0].bounds) { union($0, $1.bounds) }
        self.init(frame: RegionFrame(fitting: bounds, options: options), scales: options.scales)
        for route in routes { add(route) }
    }

    /// Tracks drawn.
    package var trackCount: Int { grids[0].trackCount }

    /// Bytes of counts over every scale.
    package var memoryBytes: Int { grids.reduce(0) { $0 + $1.memoryBytes } }

    /// Whether `route` lies wholly inside the frame (else adding it would cut it off: frame the
    /// region again).
    package func fits(_ route: OverviewRoute) -> Bool { frame.contains(route.bounds) }

    /// Adds one track at every scale (a track already drawn is not added twice).
    package mutating func add(_ route: OverviewRoute) {
        guard members.insert(route.id).inserted else { return }
        for index in scales.indices { grids[index].add(footprint(of: route, scaleIndex: index)) }
        distanceMeters += Int(route.distanceMeters.rounded())
    }

    /// Takes away a track added before (the same route gives the same pixels); a track not drawn
    /// is left alone.
    package mutating func subtract(_ route: OverviewRoute) {
        guard members.remove(route.id) != nil else { return }
        for index in scales.indices { grids[index].subtract(footprint(of: route, scaleIndex: index)) }
        distanceMeters -= Int(route.distanceMeters.rounded())
    }

    /// The pixels `route` passes at scale `scales[scaleIndex]`.
    package mutating func footprint(of route: OverviewRoute, scaleIndex: Int) -> TrackFootprint {
        tracers[scaleIndex].trace(route.pixelSegments(in: frame.viewport(scale: scales[scaleIndex])))
    }

    /// The picture at `scales[scaleIndex]` as PNG bytes.
    package func png(scaleIndex: Int, gridStyle: GridStyle = GridStyle(), ramp: DensityRamp = DensityRamp()) throws(PNGError) -> [UInt8] {
        try DensityPainter.png(
            grids[scaleIndex], viewport: frame.viewport(scale: scales[scaleIndex]), latitudeDegrees: frame.latitudeDegrees,
            scale: scales[scaleIndex], gridStyle: gridStyle, ramp: ramp)
    }

    /// The picture at `scales[scaleIndex]` as a palette canvas (to be cut into tiles: `PictureTiling`).
    package func canvas(scaleIndex: Int, gridStyle: GridStyle = GridStyle(), ramp: DensityRamp = DensityRamp()) -> IndexedCanvas {
        var canvas = IndexedCanvas()
        DensityPainter.paint(
            grids[scaleIndex], viewport: frame.viewport(scale: scales[scaleIndex]), latitudeDegrees: frame.latitudeDegrees,
            scale: scales[scaleIndex], gridStyle: gridStyle, ramp: ramp, into: &canvas)
        return canvas
    }

    /// The picture at `scales[scaleIndex]` over `basemap`'s map as a palette canvas, with the
    /// map's problems; `labelScale` is the picture's nominal scale (`OverviewBasemap.draw`).
    package func canvas(scaleIndex: Int, labelScale: Double, basemap: any OverviewBasemap, ramp: DensityRamp = DensityRamp()) -> OverviewMapPicture {
        DensityPainter.picture(
            grids[scaleIndex], viewport: frame.viewport(scale: scales[scaleIndex]), latitudeDegrees: frame.latitudeDegrees,
            labelScale: labelScale, ramp: ramp, basemap: basemap)
    }

    /// The picture at `scales[scaleIndex]` over `basemap`'s map as PNG bytes, with the map's
    /// problems; `labelScale` is the picture's nominal scale (`OverviewBasemap.draw`).
    package func png(
        scaleIndex: Int, labelScale: Double, basemap: any OverviewBasemap, ramp: DensityRamp = DensityRamp()
    ) throws(PNGError) -> (png: [UInt8], problems: [String]) {
        try DensityPainter.png(
            grids[scaleIndex], viewport: frame.viewport(scale: scales[scaleIndex]), latitudeDegrees: frame.latitudeDegrees,
            labelScale: labelScale, ramp: ramp, basemap: basemap)
    }
}

/// The smallest rectangle holding both.
package func union(_ a: MapRect, _ b: MapRect) -> MapRect {
    MapRect(minX: min(a.minX, b.minX), minY: min(a.minY, b.minY), maxX: max(a.maxX, b.maxX), maxY: max(a.maxY, b.maxY))
}
