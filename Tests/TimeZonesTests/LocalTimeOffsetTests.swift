import Testing
@testable import TimeZones

/// Issue 21 item 11: the local time of a track's start comes from the zone the start lies in
/// and that zone's IANA rules, not from 15° longitude bands.
@Suite struct LocalTimeOffsetTests {
    /// 2024-06-15T06:30:00Z (summer) and 2025-01-15T06:30:00Z (winter).
    static let june2024 = 1_718_433_000.0, january2025 = 1_736_922_600.0

    @Test(arguments: [
        ("Bern", 46.9480, 7.4474, "Europe/Zurich", 7200, 3600),
        ("Grindelwald", 46.6242, 8.0414, "Europe/Zurich", 7200, 3600),
        ("Reykjavík", 64.1466, -21.9426, "Atlantic/Reykjavik", 0, 0),
        ("San Francisco", 37.7749, -122.4194, "America/Los_Angeles", -25200, -28800),
        // Southern hemisphere: daylight saving time in January, not in June.
        ("Sydney", -33.8688, 151.2093, "Australia/Sydney", 36000, 39600),
    ])
    func zoneAndOffsetInSummerAndWinter(place: String, latitude: Double, longitude: Double, zone: String, june: Int, january: Int) {
        #expect(ZoneBoundaries.embedded?.zoneName(latitudeDegrees: latitude, longitudeDegrees: longitude) == zone, "\(place)")
        let inJune = LocalTimeOffset.at(latitudeDegrees: latitude, longitudeDegrees: longitude, seconds: Self.june2024)
        let inJanuary = LocalTimeOffset.at(latitudeDegrees: latitude, longitudeDegrees: longitude, seconds: Self.january2025)
        #expect(inJune == LocalTimeOffset(utcOffsetSeconds: june, zoneName: zone), "\(place)")
        #expect(inJanuary == LocalTimeOffset(utcOffsetSeconds: january, zoneName: zone), "\(place)")
    }

    /// Both Swiss tracks of the issue were put in different longitude bands (UTC+0 and UTC+1).
    @Test func bernAndGrindelwaldShareTheirZone() {
        let bern = LocalTimeOffset.at(latitudeDegrees: 46.9480, longitudeDegrees: 7.4474, seconds: Self.june2024)
        let grindelwald = LocalTimeOffset.at(latitudeDegrees: 46.6242, longitudeDegrees: 8.0414, seconds: Self.june2024)
        #expect(bern == grindelwald)
        #expect(LocalTimeOffset.nautical(longitudeDegrees: 7.4474) != LocalTimeOffset.nautical(longitudeDegrees: 8.0414))
    }

    /// Towns a few kilometres apart across the Spanish-Portuguese border (an hour apart).
    @Test(arguments: [
        ("Tui", 42.0476, -8.6440, "Europe/Madrid", 7200), ("Valença", 42.0277, -8.6444, "Europe/Lisbon", 3600),
        ("Badajoz", 38.8794, -6.9707, "Europe/Madrid", 7200), ("Elvas", 38.8810, -7.1630, "Europe/Lisbon", 3600),
    ])
    func pointsNearAZoneBorder(place: String, latitude: Double, longitude: Double, zone: String, june: Int) {
        let offset = LocalTimeOffset.at(latitudeDegrees: latitude, longitudeDegrees: longitude, seconds: Self.june2024)
        #expect(offset == LocalTimeOffset(utcOffsetSeconds: june, zoneName: zone), "\(place)")
    }

    /// At sea the data has only the nautical zones ("Etc/GMT+2"): the estimate, labelled as one.
    @Test func atSeaTheNauticalEstimate() {
        #expect(ZoneBoundaries.embedded?.zoneName(latitudeDegrees: 40, longitudeDegrees: -30) == "Etc/GMT+2")
        let offset = LocalTimeOffset.at(latitudeDegrees: 40, longitudeDegrees: -30, seconds: Self.june2024)
        #expect(offset == LocalTimeOffset(utcOffsetSeconds: -7200, zoneName: nil))
    }

    /// Times and longitudes read back from records (editable files) that no track can have give
    /// the estimate instead of trapping in an integer conversion.
    @Test(arguments: [9.3e18, -9.3e18, 1e300, .infinity, .nan])
    func outlandishTimesGiveTheEstimate(seconds: Double) {
        let offset = LocalTimeOffset.at(latitudeDegrees: 46.9480, longitudeDegrees: 7.4474, seconds: seconds)
        #expect(offset == LocalTimeOffset(utcOffsetSeconds: 0, zoneName: nil))
        #expect(LocalTimeOffset.at(latitudeDegrees: 0, longitudeDegrees: 1e300, seconds: 0).zoneName == nil)
    }

    /// Without the zone's rules (no tzdata) the estimate is used, not a wrong zone name.
    @Test func withoutTheRulesTheNauticalEstimate() {
        let empty = ZoneInfoDirectory(path: "/nonexistent-zoneinfo")
        let offset = LocalTimeOffset.at(
            latitudeDegrees: 46.9480, longitudeDegrees: 7.4474, seconds: Self.june2024, boundaries: ZoneBoundaries.embedded, rules: empty)
        #expect(offset == LocalTimeOffset(utcOffsetSeconds: 0, zoneName: nil))
    }

    @Test func theLinkedDataNamesItsSource() throws {
        let boundaries = try #require(ZoneBoundaries.embedded)
        #expect(boundaries.zoneNames.count > 400 && boundaries.source.hasPrefix("timezone-boundary-builder"))
        #expect(boundaries.zoneName(latitudeDegrees: .nan, longitudeDegrees: 0) == nil)
        // Longitudes past ±180° wrap.
        #expect(boundaries.zoneName(latitudeDegrees: 46.9480, longitudeDegrees: 7.4474 + 360) == "Europe/Zurich")
    }
}
