import Dispatch
import Synchronization
import Testing

@testable import TimeZones

/// `ZoneInfoDirectory` from many threads at once, as a cold listing asks it: each zone's rules
/// are the ones read alone, a zone without a file is nil, and asking again gives the same.
@Suite struct ZoneInfoDirectoryTests {
    static let zones = ["Europe/Zurich", "America/Los_Angeles", "Asia/Tokyo", "Australia/Lord_Howe", "Nowhere/Missing"]

    @Test func manyThreadsGetTheRulesOneThreadReads() throws {
        let alone = ZoneInfoDirectory(path: ZoneInfoDirectory.system.path)
        let expected = Self.zones.map { alone.rules(for: $0) }
        try #require(expected.prefix(4).allSatisfy { $0 != nil } && expected[4] == nil, "tzdata is installed")
        let shared = ZoneInfoDirectory(path: ZoneInfoDirectory.system.path)
        let mismatches = Atomic<Int>(0)
        DispatchQueue.concurrentPerform(iterations: 64) { thread in
            for round in 0..<200 {
                let index = (thread + round) % Self.zones.count
                if shared.rules(for: Self.zones[index]) != expected[index] { mismatches.add(1, ordering: .relaxed) }
            }
        }
        #expect(mismatches.load(ordering: .relaxed) == 0)
        #expect(Self.zones.map { shared.rules(for: $0) } == expected)
    }
}
