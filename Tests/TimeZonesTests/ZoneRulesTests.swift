import Testing
@testable import TimeZones

@Suite struct ZoneRulesTests {
    private func rules(_ name: String) throws -> ZoneRules { try #require(ZoneInfoDirectory.system.rules(for: name)) }

    /// The footer rule (used after the last transition, and for everything in slim files) gives
    /// the same offsets as the transitions the file lists for 2025–2036, hour by hour.
    @Test(arguments: [
        "Europe/Zurich", "Australia/Sydney", "America/Los_Angeles", "America/Santiago", "Europe/Dublin", "America/Nuuk", "Asia/Kolkata",
    ])
    func footerAgreesWithTheListedTransitions(name: String) throws {
        let zone = try rules(name)
        let footer = try #require(zone.footer)
        var tableOnly = zone
        tableOnly.footer = nil
        var differences = 0
        var seconds: Int64 = 1_735_689_600  // 2025-01-01
        while seconds < min(2_114_380_800, zone.transitionTimes.last ?? 0) {  // 2037-01-01
            if footer.utcOffsetSeconds(at: seconds) != tableOnly.utcOffsetSeconds(at: seconds) { differences += 1 }
            seconds += 3600
        }
        #expect(differences == 0, "\(name)")
    }

    @Test func parsesPosixRules() throws {
        let central = try #require(PosixTimeZone("CET-1CEST,M3.5.0,M10.5.0/3"))
        #expect(central.standardOffsetSeconds == 3600 && central.daylightOffsetSeconds == 7200)
        // 2040-07-01 and 2040-12-01.
        #expect(central.utcOffsetSeconds(at: 2_224_713_600) == 7200 && central.utcOffsetSeconds(at: 2_237_932_800) == 3600)
        #expect(PosixTimeZone("<+0530>-5:30")?.utcOffsetSeconds(at: 0) == 19800)
        #expect(PosixTimeZone("AEST-10AEDT,M10.1.0,M4.1.0/3")?.utcOffsetSeconds(at: 2_237_932_800) == 39600)
        #expect(PosixTimeZone("1") == nil && PosixTimeZone("CET-1CEST,M13.5.0,M10.5.0") == nil)
    }

    @Test func aDamagedFileIsAnErrorWithItsOffset() {
        let error = #expect(throws: ZoneRules.FormatError.self) { try ZoneRules(tzif: Array("TZxf2".utf8) + [UInt8](repeating: 0, count: 60)) }
        #expect(error?.offset == 0)
        let short = #expect(throws: ZoneRules.FormatError.self) { try ZoneRules(tzif: Array("TZif2".utf8)) }
        #expect(short?.description == "TZif byte 0: expected a 44-byte header, found 5 bytes")
    }
}
