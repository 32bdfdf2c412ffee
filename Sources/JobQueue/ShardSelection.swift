import ContentHash

/// Which jobs a run takes: shard `index` of `count`, by a stable hash of the job name (SHA-256,
/// not Swift's per-process-seeded `Hasher`, so every machine agrees).
public struct ShardSelection: Sendable, Equatable, Codable, CustomStringConvertible {
    /// This shard, 0-based.
    public let index: Int
    /// How many shards there are.
    public let count: Int

    /// Every job (one shard).
    public static let all = ShardSelection(uncheckedIndex: 0, count: 1)

    private init(uncheckedIndex: Int, count: Int) {
        index = uncheckedIndex
        self.count = count
    }

    /// Shard `index` of `count`; nil when out of range.
    public init?(index: Int, count: Int) {
        guard count >= 1, count <= 100_000, index >= 0, index < count else { return nil }
        self.init(uncheckedIndex: index, count: count)
    }

    /// Decodes "i/N" (the form `description` writes), refusing a shard out of range.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let shard = ShardSelection(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected a shard i/N with 0 <= i < N, found '\(text)'")
        }
        self = shard
    }

    /// Encodes as "i/N".
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Parses "i/N".
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        self.init(index: index, count: count)
    }

    /// The shard index an array engine gives this task: Kubernetes Indexed Jobs set
    /// `JOB_COMPLETION_INDEX`, Slurm arrays `SLURM_ARRAY_TASK_ID`. Returns a message when neither
    /// is set or the value is not in 0..<count.
    public static func automatic(count: Int, environment: [String: String]) -> Result<ShardSelection, ShardError> {
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
    public func contains(jobNamed name: String) -> Bool {
        count == 1 || Int(SHA256.hash(name).prefix64 % UInt64(count)) == index
    }

    /// "2/7".
    public var description: String { "\(index)/\(count)" }
}

/// A shard that cannot be determined.
public struct ShardError: Error, Sendable, Equatable {
    /// What is wrong.
    public var message: String
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
