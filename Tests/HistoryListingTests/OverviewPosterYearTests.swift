import Foundation
import Testing

@testable import HistoryListing

/// `tracksnap overview --year` takes a track under the year the listing files it (its year page's):
/// the local time of its start, whatever gave the offset; the file time for a track without times.
@Suite struct OverviewPosterYearTests {
    @Test func aTrackJustAfterLocalMidnightOnNewYearIsOfTheNewYear() throws {
        let site = NSTemporaryDirectory() + "tracksnap-poster-year-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: site) }
        try FileManager.default.createDirectory(atPath: site + "/index", withIntermediateDirectories: true)
        try Data(#"{"parts":[{"path":"index/part-1.json"}]}"#.utf8).write(to: URL(fileURLWithPath: site + "/index.json"))
        // 2023-12-31 23:30 UTC: 00:30 on New Year's Day at UTC+1 (an offset from the start's time
        // zone, not recorded in the file: the poster used to take UTC then).
        let lateUTC = 1_704_065_400
        let part = """
            {"tracks":[
              {"id":"zone","sort_time":\(lateUTC),"start_time":\(lateUTC),"utc_offset_s":3600,"utc_offset_source":"zone"},
              {"id":"untimed","sort_time":\(lateUTC),"utc_offset_s":3600,"utc_offset_source":"nautical"},
              {"id":"west","sort_time":\(lateUTC),"start_time":\(lateUTC),"utc_offset_s":-18000,"utc_offset_source":"file"}
            ]}
            """
        try Data(part.utf8).write(to: URL(fileURLWithPath: site + "/index/part-1.json"))
        let years = Dictionary(uniqueKeysWithValues: try OverviewPoster.listedTracks(site).map { ($0.id, $0.year) })
        #expect(years == ["zone": 2024, "untimed": 2023, "west": 2023])
    }
}
