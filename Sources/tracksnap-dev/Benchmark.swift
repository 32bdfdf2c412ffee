enum Benchmark { static func run(_ arguments: [String]) throws {} }
