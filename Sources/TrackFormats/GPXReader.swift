import TrackModel

/// Reads GPX 1.0 and 1.1: `trk/trkseg/trkpt` (each `trkseg` a segment, several `trk` all kept),
/// `rte/rtept` when the file has no track points, and the `wpt` waypoints in file order (as one
/// route) when it has neither. The first `trk/type` (a route's `rte/type`) is the activity.
/// Prefixes, BOM, CDATA, entities, comments, attribute order and quote style are handled by
/// `XMLScanner`.
public enum GPXReader: TrackReader {
    public static let format = TrackFormat.gpx

    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) throws(TrackDecodingError) -> Track {
        try read(bytes, limits: limits, usesFastPath: true)
    }

    /// Reads like `read(_:limits:)` and calls `consumed` with the offset below which the input is no
    /// longer needed, every `consumedInterval` bytes, so a caller holding a mapped file can release it.
    public static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits, consumed: @escaping (Int) -> Void
    ) throws(TrackDecodingError) -> Track {
        try read(bytes, limits: limits, usesFastPath: true, consumed: consumed)
    }

    /// How often `consumed` is called, in bytes of input.
    static let consumedInterval = 8 << 20

    /// `usesFastPath: false` reads every element through `XMLScanner` (tests compare the two).
    static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits, usesFastPath: Bool, consumed: ((Int) -> Void)? = nil
    ) throws(TrackDecodingError) -> Track {
        var scanner = XMLScanner(bytes: bytes, format: .gpx, maximumDepth: limits.maximumNestingDepth)
        var state = GPXState(limits: limits, inputBytes: bytes.count)
        var collector = XMLTextCollector()
        guard let root = try scanner.next(wantText: false) else {
            throw scanner.error(at: bytes.count, "expected the root element <gpx>")
        }
        guard root.kind == .startTag, scanner.isNamed(root, "gpx") else {
            throw scanner.error(at: root.offset, "expected the root element <gpx>, found <\(scanner.string(root.nameStart, root.nameEnd))>")
        }
        var fastPath = GPXFastPath(bytes)
        var nextReport = consumed == nil ? Int.max : consumedInterval
        while true {
            if scanner.position >= nextReport, let consumed {
                consumed(scanner.position)
                nextReport = scanner.position + consumedInterval
            }
            if usesFastPath, state.acceptsFastPoint, let (fix, end) = fastPath.point(at: scanner.position, routePoint: state.routeDepth > 0) {
                try state.append(fix)
                scanner.resume(at: end)
                continue
            }
            guard let token = try scanner.next(wantText: state.capture != .none) else { break }
            switch token.kind {
            case .text, .cdata:
                collector.add(token)
            case .startTag:
                let depth = token.selfClosing ? scanner.depth + 1 : scanner.depth
                if try state.start(token, depth: depth, scanner) { collector.reset() }
            case .endTag:
                try state.end(token, depth: scanner.depth + 1, scanner, collector)
            }
        }
        return state.track()
    }
}

/// The reader's state between tokens. A struct with mutating methods rather than closures over
/// locals: captured mutable locals are boxed on the heap, which made every point slower.
private struct GPXState {
    enum Capture { case none, elevation, time, trackName, routeName, fileName, trackType, routeType }

    var trackSegments: [TrackSegment] = []
    var routeSegments: [TrackSegment] = []
    var fixes: [Fix] = []
    var routeFixes: [Fix] = []
    var waypointFixes: [Fix] = []
    var counter: FixCounter
    var trackDepth = 0, routeDepth = 0, pointDepth = 0, metadataDepth = 0
    var point = Fix(latitudeDegrees: .nan, longitudeDegrees: .nan)
    var pointIsRoute = false
    var pointIsWaypoint = false
    var capture = Capture.none
    var captureDepth = 0
    var trackName: String?, routeName: String?, fileName: String?
    /// `trk/type` and `rte/type` ("running" from Strava and Garmin Connect exports), first of each.
    var trackType: String?, routeType: String?

    /// Fixes the first segment reserves room for. Growing a million-fix array by doubling keeps the
    /// old and new buffers alive together (1.5× the fixes, on top of the file); reserving up front
    /// costs nothing for pages never touched. 64 bytes is about the smallest a `trkpt` with a time
    /// takes, so this rarely undershoots. An overshoot is not trimmed: the pages never written are
    /// never made resident, while a trimming copy would hold two copies of the fixes at once.
    var firstSegmentReservation: Int

    init(limits: DecodingLimits, inputBytes: Int) {
        counter = FixCounter(limits, inputBytes: inputBytes)
        firstSegmentReservation = min(inputBytes / 64, counter.maximum)
    }

    /// Handles a start tag; returns true when text capture starts.
    mutating func start(_ token: XMLScanner.Token, depth: Int, _ scanner: XMLScanner) throws(TrackDecodingError) -> Bool {
        if capture != .none { return false }  // markup inside <name> etc. is not looked into
        if pointDepth > 0 {
            guard depth == pointDepth + 1, !token.selfClosing else { return false }
            if scanner.isNamed(token, "ele") {
                capture = .elevation
            } else if scanner.isNamed(token, "time") {
                capture = .time
            } else {
                return false
            }
            captureDepth = depth
            return true
        }
        if (trackDepth > 0 && scanner.isNamed(token, "trkpt")) || (routeDepth > 0 && scanner.isNamed(token, "rtept")) {
            point = try readCoordinates(token, scanner)
            pointIsRoute = routeDepth > 0
            pointIsWaypoint = false
            pointDepth = depth
            if token.selfClosing { try finishPoint() }
        } else if scanner.isNamed(token, "wpt"), depth == 2 {
            point = try readCoordinates(token, scanner)
            pointIsRoute = false
            pointIsWaypoint = true
            pointDepth = depth
            if token.selfClosing { try finishPoint() }
        } else if scanner.isNamed(token, "trkseg"), trackDepth > 0 {
            closeTrackSegment()
        } else if scanner.isNamed(token, "trk"), trackDepth == 0, routeDepth == 0 {
            trackDepth = depth
        } else if scanner.isNamed(token, "rte"), trackDepth == 0, routeDepth == 0 {
            routeDepth = depth
        } else if scanner.isNamed(token, "metadata"), depth == 2 {
            metadataDepth = depth
        } else if scanner.isNamed(token, "name"), !token.selfClosing {
            if trackDepth > 0, depth == trackDepth + 1, trackName == nil {
                capture = .trackName
            } else if routeDepth > 0, depth == routeDepth + 1, routeName == nil {
                capture = .routeName
            } else if depth == 2 || (metadataDepth > 0 && depth == metadataDepth + 1) {
                capture = .fileName
            } else {
                return false
            }
            captureDepth = depth
            return true
        } else if scanner.isNamed(token, "type"), !token.selfClosing {
            if trackDepth > 0, depth == trackDepth + 1, trackType == nil {
                capture = .trackType
            } else if routeDepth > 0, depth == routeDepth + 1, routeType == nil {
                capture = .routeType
            } else {
                return false
            }
            captureDepth = depth
            return true
        }
        return false
    }

    /// Handles an end tag (already matched against its start tag by the scanner).
    mutating func end(_ token: XMLScanner.Token, depth: Int, _ scanner: XMLScanner, _ collector: XMLTextCollector) throws(TrackDecodingError) {
        if capture != .none {
            guard depth == captureDepth else { return }
            switch capture {
            case .elevation: point.elevationMeters = try collector.number(in: scanner, at: token, what: "ele") ?? .nan
            case .time: point.timeSeconds = collector.time(in: scanner)
            case .trackName: trackName = try collector.string(in: scanner)
            case .routeName: routeName = try collector.string(in: scanner)
            case .fileName: if fileName == nil { fileName = try collector.string(in: scanner) }
            case .trackType: trackType = try collector.string(in: scanner)
            case .routeType: routeType = try collector.string(in: scanner)
            case .none: break
            }
            capture = .none
        } else if depth == pointDepth {
            try finishPoint()
        } else if depth == trackDepth || (trackDepth > 0 && scanner.isNamed(token, "trkseg")) {
            closeTrackSegment()
            if depth == trackDepth { trackDepth = 0 }
        } else if depth == routeDepth {
            if !routeFixes.isEmpty { routeSegments.append(TrackSegment(fixes: routeFixes)) }
            routeFixes.removeAll()
            routeDepth = 0
        } else if depth == metadataDepth {
            metadataDepth = 0
        }
    }

    /// Whether the next element may be a point the fast path can read.
    var acceptsFastPoint: Bool { (trackDepth > 0 || routeDepth > 0) && pointDepth == 0 && capture == .none }

    /// Adds a point read by `GPXFastPath`.
    mutating func append(_ fix: Fix) throws(TrackDecodingError) {
        point = fix
        pointIsRoute = routeDepth > 0
        pointIsWaypoint = false
        try finishPoint()
    }

    private mutating func finishPoint() throws(TrackDecodingError) {
        if firstSegmentReservation > 0, !pointIsRoute, !pointIsWaypoint {
            fixes.reserveCapacity(firstSegmentReservation)
            firstSegmentReservation = 0
        }
        try counter.add(.gpx, at: nil)
        if pointIsWaypoint {
            waypointFixes.append(point)
        } else if pointIsRoute {
            routeFixes.append(point)
        } else {
            fixes.append(point)
        }
        pointDepth = 0
    }

    private mutating func closeTrackSegment() {
        if !fixes.isEmpty { trackSegments.append(TrackSegment(fixes: fixes)) }
        fixes = []
    }

    /// Routes are drawn only when there is no recorded track (a planned route beside a recording
    /// would otherwise draw twice), waypoints only when there is neither.
    func track() -> Track {
        if trackSegments.isEmpty, routeSegments.isEmpty, !waypointFixes.isEmpty {
            return Track(format: .gpx, name: fileName, segments: [TrackSegment(fixes: waypointFixes)])
        }
        if trackSegments.isEmpty { return Track(format: .gpx, name: routeName ?? fileName, segments: routeSegments, activity: routeType) }
        return Track(format: .gpx, name: trackName ?? fileName, segments: trackSegments, activity: trackType)
    }

    private func readCoordinates(_ token: XMLScanner.Token, _ scanner: XMLScanner) throws(TrackDecodingError) -> Fix {
        func coordinate(_ name: StaticString) throws(TrackDecodingError) -> Double {
            guard let range = try scanner.attribute(token, name) else {
                throw scanner.error(at: token.offset, "expected attribute \(name) on <\(scanner.string(token.nameStart, token.nameEnd))>")
            }
            guard let value = NumberParsing.parseDouble(scanner.bytes, range.start, range.end) else {
                throw scanner.error(
                    at: range.start,
                    "expected a number for \(name) on <\(scanner.string(token.nameStart, token.nameEnd))>, found \"\(scanner.string(range.start, range.end))\""
                )
            }
            return value
        }
        return Fix(latitudeDegrees: try coordinate("lat"), longitudeDegrees: try coordinate("lon"))
    }
}
