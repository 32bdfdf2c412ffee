import Foundation
import SnapshotRendering

/// Timings of repeated renders of one file.
struct StageSamples {
    var all: [StageTimings] = []

    /// The median of one stage, seconds.
    func median(_ stage: KeyPath<StageTimings, Double>) -> Double {
        Benchmark.median(all.map { $0[keyPath: stage] })
    }
}

/// The per-stage table `make bench` prints.
enum StageTable {
    static var stages: [(String, KeyPath<StageTimings, Double>)] {
        [
            ("read", \.read), ("parse", \.parse), ("clean", \.clean), ("fit", \.fit), ("simplify", \.simplify),
            ("raster", \.raster), ("encode", \.encode), ("write", \.write), ("total", \.total),
        ]
    }

    static var header: String {
        "track".padding(toLength: 32, withPad: " ", startingAt: 0) + stages.map { $0.0.leftPadded(9) }.joined() + "   (ms)"
    }

    static func row(_ name: String, _ samples: StageSamples) -> String {
        name.padding(toLength: 32, withPad: " ", startingAt: 0)
            + stages.map { format(samples.median($0.1) * 1000, 2).leftPadded(9) }.joined()
    }
}

extension Benchmark {
    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    /// CPU seconds this process has used (all its threads).
    static func processCPUSeconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

func seconds(_ duration: Duration) -> Double {
    let (whole, attoseconds) = duration.components
    return Double(whole) + Double(attoseconds) * 1e-18
}

func format(_ value: Double, _ places: Int) -> String { String(format: "%.\(places)f", value) }

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
