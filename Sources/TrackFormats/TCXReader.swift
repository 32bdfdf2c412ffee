import TrackModel

/// Reads Garmin Training Center XML v2: `Activities/Activity/Lap/Track/Trackpoint` and
/// `Courses/Course/Track/Trackpoint`. Each `Track` is a segment (a watch starts a new one after a
/// pause); trackpoints without a `Position` (indoor, no fix yet) are skipped. The first activity's
/// `Sport` attribute and `Id` become `activity` and `activityIdentifier`; a course's `Name` is the name.
public enum TCXReader: TrackReader {
    public static let format = TrackFormat.tcx

    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) throws(TrackDecodingError) -> Track {
        var handler = TCXHandler(limits: limits, inputBytes: bytes.count)
        try XMLWalk.run(bytes, format: .tcx, root: "TrainingCenterDatabase", limits: limits, handler: &handler)
        var track = Track(format: .tcx, name: handler.courseName, segments: handler.segments, activity: handler.sport)
        track.activityIdentifier = handler.activityIdentifier
        if handler.skippedWithoutPosition > 0 {
            track.notes.append("\(handler.skippedWithoutPosition) trackpoint(s) without a position skipped")
        }
        return track
    }
}

private struct TCXHandler: XMLElementHandler {
    enum Field { case time, latitude, longitude, altitude, identifier, courseName }

    var counter: FixCounter
    var reservation: Int
    var segments: [TrackSegment] = []
    var fixes: [Fix] = []
    var skippedWithoutPosition = 0
    var sport: String?, activityIdentifier: String?, courseName: String?
    var activityDepth = 0, courseDepth = 0, trackDepth = 0, pointDepth = 0, positionDepth = 0
    var point = Fix(latitudeDegrees: .nan, longitudeDegrees: .nan)
    var field: Field?

    init(limits: DecodingLimits, inputBytes: Int) {
        counter = FixCounter(limits, inputBytes: inputBytes)
        reservation = min(inputBytes / 160, counter.maximum)
    }

    mutating func start(_ token: XMLScanner.Token, depth: Int, _ scanner: XMLScanner) throws(TrackDecodingError) -> Bool {
        field = nil
        if pointDepth > 0 {
            if depth == pointDepth + 1 {
                if scanner.isNamed(token, "Time") {
                    field = .time
                } else if scanner.isNamed(token, "AltitudeMeters") {
                    field = .altitude
                } else if scanner.isNamed(token, "Position") {
                    positionDepth = depth
                }
            } else if positionDepth > 0, depth == positionDepth + 1 {
                if scanner.isNamed(token, "LatitudeDegrees") {
                    field = .latitude
                } else if scanner.isNamed(token, "LongitudeDegrees") {
                    field = .longitude
                }
            }
            return field != nil
        }
        if trackDepth > 0 {
            if depth == trackDepth + 1, scanner.isNamed(token, "Trackpoint") {
                pointDepth = depth
                point = Fix(latitudeDegrees: .nan, longitudeDegrees: .nan)
            }
        } else if scanner.isNamed(token, "Track"), activityDepth > 0 || courseDepth > 0 {
            trackDepth = depth
        } else if scanner.isNamed(token, "Activity"), activityDepth == 0, courseDepth == 0 {
            activityDepth = depth
            if sport == nil, let range = try scanner.attribute(token, "Sport"), range.end > range.start {
                sport = scanner.string(range.start, range.end)
            }
        } else if scanner.isNamed(token, "Course"), activityDepth == 0, courseDepth == 0 {
            courseDepth = depth
        } else if activityDepth > 0, depth == activityDepth + 1, activityIdentifier == nil, scanner.isNamed(token, "Id") {
            field = .identifier
        } else if courseDepth > 0, depth == courseDepth + 1, courseName == nil, scanner.isNamed(token, "Name") {
            field = .courseName
        }
        return field != nil
    }

    mutating func end(_ token: XMLScanner.Token, depth: Int, text: XMLTextCollector?, _ scanner: XMLScanner) throws(TrackDecodingError) {
        if let text, let field {
            self.field = nil
            switch field {
            case .time: point.timeSeconds = text.time(in: scanner)
            case .altitude: point.elevationMeters = try text.number(in: scanner, at: token, what: "AltitudeMeters") ?? .nan
            case .latitude: point.latitudeDegrees = try text.number(in: scanner, at: token, what: "LatitudeDegrees") ?? .nan
            case .longitude: point.longitudeDegrees = try text.number(in: scanner, at: token, what: "LongitudeDegrees") ?? .nan
            case .identifier: activityIdentifier = try text.string(in: scanner)
            case .courseName: courseName = try text.string(in: scanner)
            }
            return
        }
        if depth == positionDepth {
            positionDepth = 0
        } else if depth == pointDepth {
            pointDepth = 0
            try finishPoint(scanner, token)
        } else if depth == trackDepth {
            trackDepth = 0
            if !fixes.isEmpty { segments.append(TrackSegment(fixes: fixes)) }
            fixes = []
        } else if depth == activityDepth {
            activityDepth = 0
        } else if depth == courseDepth {
            courseDepth = 0
        }
    }

    private mutating func finishPoint(_ scanner: XMLScanner, _ token: XMLScanner.Token) throws(TrackDecodingError) {
        guard !point.latitudeDegrees.isNaN, !point.longitudeDegrees.isNaN else {
            skippedWithoutPosition += 1
            return
        }
        try counter.add(.tcx, at: .text(scanner.bytes, offset: token.offset))
        if reservation > 0 {
            fixes.reserveCapacity(reservation)
            reservation = 0
        }
        fixes.append(point)
    }
}
