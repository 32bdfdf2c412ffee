import JobQueue
import Testing

@Suite struct ShardTests {
    private func owner(of job: String, count: Int) -> Int {
        (0..<count).first { ShardSelection(index: $0, count: count)!.contains(jobNamed: job) }!
    }

    /// Issue 14: a nightly rerun gives each track to the same task when the archive grows. The
    /// shard is a hash of the job's own name alone, so adding tracks moves none of the others.
    @Test func addingATrackToTenThousandMovesNone() {
        let archive = (0..<10_000).map { "5f3a9c01-ride-\($0).gpx" }
        let before = archive.map { owner(of: $0, count: 8) }
        let grown = archive + ["5f3a9c01-ride-new.gpx"]
        let after = grown.prefix(archive.count).map { owner(of: $0, count: 8) }
        #expect(zip(before, after).filter { $0 != $1 }.count == 0)
        // A retried job (name~a1, name~a2r1 in new/) keeps its shard: the suffix is not hashed.
        #expect(JobName.parseReady("5f3a9c01-ride-7.gpx~a2r1").name == "5f3a9c01-ride-7.gpx")
    }

    @Test(arguments: [1, 2, 3, 7])
    func shardsAreDisjointAndCoverEveryJob(count: Int) {
        let jobs = (0..<2000).map { "job-\($0)-\($0 * 7919 % 1000).gpx" }
        var owners = [String: Int]()
        for index in 0..<count {
            let shard = ShardSelection(index: index, count: count)!
            for job in jobs where shard.contains(jobNamed: job) {
                #expect(owners[job] == nil, "\(job) in shards \(owners[job]!) and \(index)")
                owners[job] = index
            }
        }
        #expect(owners.count == jobs.count)
        if count > 1 {
            // Roughly balanced: every shard within ±25% of its fair share.
            for index in 0..<count {
                let size = owners.values.filter { $0 == index }.count
                #expect(abs(size - jobs.count / count) < jobs.count / count / 4)
            }
        }
    }

    @Test func parsingAndEngineIndexes() throws {
        #expect(ShardSelection(parsing: "2/7") == ShardSelection(index: 2, count: 7))
        #expect(ShardSelection(parsing: "7/7") == nil)
        #expect(ShardSelection(parsing: "-1/3") == nil)
        #expect(try ShardSelection.automatic(count: 4, environment: ["JOB_COMPLETION_INDEX": "3"]).get() == ShardSelection(index: 3, count: 4))
        #expect(try ShardSelection.automatic(count: 4, environment: ["SLURM_ARRAY_TASK_ID": "0"]).get() == ShardSelection(index: 0, count: 4))
        guard case .failure(let missing) = ShardSelection.automatic(count: 4, environment: [:]) else { Issue.record("accepted"); return }
        #expect(missing.message.contains("JOB_COMPLETION_INDEX"))
        guard case .failure(let outOfRange) = ShardSelection.automatic(count: 4, environment: ["SLURM_ARRAY_TASK_ID": "4"]) else {
            Issue.record("accepted")
            return
        }
        #expect(outOfRange.message.contains("out of range"))
    }

    @Test func theHashIsSHA256SoEveryMachineAgrees() {
        // Expected shards from Python's hashlib: int.from_bytes(sha256(name)[:8], "big") % 7.
        let expected = ["morning-run.gpx": 0, "job-0": 0, "job-1": 6, "job-2": 5, "evening ride.fit.gz": 0]
        for (name, shard) in expected { #expect(shardOf(name, 7) == shard, "\(name)") }
    }

    private func shardOf(_ name: String, _ count: Int) -> Int {
        (0..<count).first { ShardSelection(index: $0, count: count)!.contains(jobNamed: name) }!
    }
}
