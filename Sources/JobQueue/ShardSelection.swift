import ContentHash

/// Which jobs a run takes: shard `index` of `count`, by a stable hash of the job name (SHA-256,
/// not Swift's per-process-seeded `Hasher`, so every machine agrees).
package struct ShardSelection: Sendable, Equatable, Codable, CustomStringConvertible {
    /// This shard, 0-based.
    package let index: Int
    /// How many shards there are.
    package let count: Int

    /// Every job (one shard).
    package static let all = ShardSelection(uncheckedIndex: 0, count: 1)

    private init(uncheckedIndex: Int, count: Int) {
        index = uncheckedIndex
        self.count = count
    }

    /// Shard `index` of `count`; nil when out of range.
    package init?(index: Int, count: Int) {
        guard count >= 1, count <= 100_000, index >= 0, index < count else { return nil }
        self.init(uncheckedIndex: index, count: count)
    }

    /// Decodes "i/N" (the form `description` writes), refusing a shard out of range.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let shard = ShardSelection(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a shard i/N with 0 <= i < N, found '\(text)'")
        }
        self = shard
    }

    /// Encodes as "i/N".
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Parses "i/N".
    package init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    /// The shard index an array engine gives this task: Kubernetes Indexed Jobs set
    /// `JOB_COMPLETION_INDEX`, Slurm arrays `SLURM_ARRAY_TASK_ID`. Returns a message when neither
    /// is set or the value is not in 0..<count.
    package static func automatic(count: Int, environment: [String: String]) -> Result<ShardSelection, ShardError> {
        let variables = ["JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"]
        guard let (variable, value) = variables.lazy.compactMap({ name in environment[name].map { (name, $0) } }).first else {
            return .failure(
                ShardError(
                    message: "--shard auto needs JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or SLURM_ARRAY_TASK_ID (Slurm array); neither is set"))
        }
        guard let index = Int(value.trimmingWhitespace()) else {
            return .failure(ShardError(message: "\(variable)='\(value)' is not a number"))
        }
        guard let shard = ShardSelection(index: index, count: count) else {
            return .failure(ShardError(message: "\(variable)=\(index) is out of range for --shards \(count) (expected 0...\(count - 1))"))
        }
        return .success(shard)
    }

    /// Whether the job belongs to this shard.
    package func contains(jobNamed name: String) -> Bool {
        count == 1 || Int(SHA256.hash(name).prefix64 % UInt64(count)) == index
    }

    /// "2/7".
    package var description: String { "\(index)/\(count)" }
}

/// A shard that cannot be determined.
package struct ShardError: Error, Sendable, Equatable {
    /// What is wrong.
    package var message: String
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
