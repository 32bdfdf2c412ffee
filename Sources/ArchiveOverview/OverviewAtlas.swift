import MapGeometry

/// A track as the overview groups it, from its record alone: its id, extent and start.
package struct TrackExtent: Sendable, Equatable {
    /// The track's id (its cache key).
    package var id: String
    /// The extent in Mercator metres (east of the antimeridian when the track crosses it).
    package var bounds: MapRect
    /// First fix time, seconds since the Unix epoch; nil without times.
    package var startTime: Double?

    /// The extent of a record's `bbox` (`[west, south, east, north]` degrees, west > east across
    /// the antimeridian); nil when it is not four finite numbers.
    package init?(id: String, bboxDegrees bbox: [Double], startTime: Double?) {
        guard bbox.count == 4, bbox.allSatisfy(\.isFinite) else { return nil }
        let east = bbox[2] < bbox[0] ? bbox[2] + 360 : bbox[2]
        let southWest = WebMercator.project(latitudeDegrees: bbox[1], longitudeDegrees: bbox[0])
        let northEast = WebMercator.project(latitudeDegrees: bbox[3], longitudeDegrees: east)
        self.init(
            id: id, bounds: MapRect(minX: southWest.xMeters, minY: southWest.yMeters, maxX: northEast.xMeters, maxY: northEast.yMeters),
            startTime: startTime)
    }

    /// An extent in Mercator metres.
    package init(id: String, bounds: MapRect, startTime: Double?) {
        self.id = id
        self.bounds = bounds
        self.startTime = startTime
    }
}

/// One region of an overview as planned from the tracks' extents: which tracks, and its frame.
package struct RegionPlan: Sendable, Equatable {
    /// The region's name in files: its oldest track's id (earliest start, then smallest id), so
    /// it stays put as newer tracks join.
    package var id: String
    /// The ids of its tracks, ascending.
    package var members: [String]
    /// The picture's frame, fitted around the members' extents.
    package var frame: RegionFrame
    /// The region the user named, when it is one (`OverviewOptions.namedRegions`).
    package var named: NamedRegion?

    /// A plan from its parts (e.g. one year's tracks of a region, in the region's frame).
    package init(id: String, members: [String], frame: RegionFrame, named: NamedRegion? = nil) {
        self.id = id
        self.members = members
        self.frame = frame
        self.named = named
    }
}

/// How a region's picture was brought up to date.
package enum RegionUpdate: Sendable, Equatable {
    /// Nothing changed.
    case unchanged
    /// Tracks were added or taken away on the kept counts (the frame stayed).
    case incremental(added: Int, removed: Int)
    /// Drawn again from every member's route (a new region, a new frame, or a removed track
    /// whose route could not be had).
    case rebuilt
}

/// The overview of a set of tracks: regions planned from the tracks' extents (records only),
/// each brought up to date from the routes of the tracks that changed. The result depends only on
/// the tracks: a region brought up to date equals the same region drawn from scratch, byte for byte.
package enum OverviewAtlas {
    /// The regions of `tracks`: first the named regions that hold a track (in the options'
    /// order; a track belongs to the first whose box holds its extent's centre), then the other
    /// tracks grouped by `RegionGrouping`, in the order of their first track.
    package static func plan(_ tracks: [TrackExtent], options: OverviewOptions) -> [RegionPlan] {
        var inNamed = [[Int]](repeating: [], count: options.namedRegions.count)
        var others: [Int] = []
        for (index, track) in tracks.enumerated() {
            let center = track.bounds.center
            if let named = options.namedRegions.firstIndex(where: { $0.contains(center) }) {
                inNamed[named].append(index)
            } else {
                others.append(index)
            }
        }
        func plan(_ indices: [Int], named: NamedRegion?) -> RegionPlan {
            let bounds = indices.dropFirst().reduce(tracks[indices[0]].bounds) { union($0, tracks[$1].bounds) }
            let oldest = indices.min { a, b in
                (tracks[a].startTime ?? .infinity, tracks[a].id) < (tracks[b].startTime ?? .infinity, tracks[b].id)
            }!
            // Tracks come by id (the caller sorts them) and indices ascending, so the ids are in
            // order already; sorting 40,000 of them again was a tenth of the overview's refresh.
            let ids = indices.map { tracks[$0].id }
            let sorted = zip(ids, ids.dropFirst()).allSatisfy { $0 < $1 }
            return RegionPlan(
                id: tracks[oldest].id, members: sorted ? ids : ids.sorted(), frame: RegionFrame(fitting: bounds, options: options), named: named)
        }
        let named = zip(options.namedRegions, inNamed).filter { !$0.1.isEmpty }.map { plan($0.1, named: $0.0) }
        let grouped = RegionGrouping.regions(of: others.map { tracks[$0].bounds }, gapMeters: options.regionGapMeters)
        return named + grouped.map { plan($0.map { others[$0] }, named: nil) }
    }

    /// `previous` (the region's kept state, if any) brought to `plan`: tracks added and taken
    /// away on the kept counts when the frame and scales are the same, else every member drawn
    /// anew. `route` gives a track's route (nil when it cannot be had: such a track is left out,
    /// and added by a later update that has it).
    package static func update(
        _ previous: consuming RegionOverview?, to plan: RegionPlan, scales: [Double], route: (String) -> OverviewRoute?
    ) -> (region: RegionOverview, update: RegionUpdate) {
        // Consumed, so the kept counts are changed in place: a copy of a busy city's would cost
        // tens of megabytes and milliseconds.
        if var region = consume previous, region.frame == plan.frame, region.scales == scales {
            let added = plan.members.filter { !region.members.contains($0) }
            // The plan's members are distinct: when the kept ones and the added make its count, none
            // was taken away (no set of 40,000 ids built to find none).
            let removed = region.members.count + added.count == plan.members.count ? [] : region.members.subtracting(Set(plan.members)).sorted()
            var complete = true
            for id in removed {
                guard let gone = route(id) else {
                    complete = false
                    break
                }
                region.subtract(gone)
            }
            if complete {
                var drawn = 0
                for id in added {
                    guard let new = route(id) else { continue }
                    region.add(new)
                    drawn += 1
                }
                return (region, drawn == 0 && removed.isEmpty ? .unchanged : .incremental(added: drawn, removed: removed.count))
            }
        }
        var region = RegionOverview(frame: plan.frame, scales: scales)
        for id in plan.members {
            if let member = route(id) { region.add(member) }
        }
        return (region, .rebuilt)
    }
}
