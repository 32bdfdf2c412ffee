/// Length-limited canonical Huffman codes for DEFLATE (RFC 1951 §3.2.2).
struct HuffmanCode {
    /// Bit length per symbol (0: unused).
    var lengths: [UInt8]
    /// Code per symbol, already bit-reversed for DEFLATE's LSB-first bit order.
    var reversedCodes: [UInt16]

    /// Builds a code from symbol frequencies with no code longer than `maximumLength`. At least two
    /// symbols always get a code (a lone used symbol is paired with a neighbour), so the code is
    /// complete: every decoder accepts it, including zlib's check on incomplete codes.
    init(frequencies: [UInt32], maximumLength: Int) {
        var weights = frequencies
        var used = weights.indices.filter { weights[$0] > 0 }
        if used.count < 2 {
            // Give a second symbol a weight so the code has two one-bit codes.
            let extra = used.first == 0 ? 1 : 0
            weights[extra] = max(weights[extra], 1)
            if used.isEmpty { weights[1] = 1 }
            used = weights.indices.filter { weights[$0] > 0 }
        }
        var lengths = HuffmanCode.lengths(weights: weights, symbols: used)
        // Too deep: flatten the weights and rebuild. Converges fast (a few rounds at most here) and
        // keeps every code length a real Huffman length, unlike ad-hoc depth fixing.
        while let deepest = lengths.max(), Int(deepest) > maximumLength {
            for symbol in used { weights[symbol] = (weights[symbol] >> 1) | 1 }
            lengths = HuffmanCode.lengths(weights: weights, symbols: used)
        }
        self.lengths = lengths
        reversedCodes = HuffmanCode.canonicalCodes(lengths)
    }

    /// Huffman code lengths by repeatedly merging the two lightest nodes (two sorted queues: the
    /// leaves by weight, and the merged nodes, which come out in increasing weight).
    private static func lengths(weights: [UInt32], symbols: [Int]) -> [UInt8] {
        let leaves = symbols.sorted { (weights[$0], $0) < (weights[$1], $1) }
        let leafCount = leaves.count
        // Nodes 0..<leafCount are leaves; merged nodes follow. parent[] links every node up.
        var nodeWeight = leaves.map { UInt64(weights[$0]) }
        var parent = [Int](repeating: -1, count: 2 * leafCount - 1)
        nodeWeight.reserveCapacity(2 * leafCount - 1)
        var nextLeaf = 0, nextMerged = leafCount
        func takeLightest() -> Int {
            if nextLeaf < leafCount, nextMerged >= nodeWeight.count || nodeWeight[nextLeaf] <= nodeWeight[nextMerged] {
                nextLeaf += 1
                return nextLeaf - 1
            }
            nextMerged += 1
            return nextMerged - 1
        }
        for _ in 0..<(leafCount - 1) {
            let a = takeLightest(), b = takeLightest()
            let merged = nodeWeight.count
            nodeWeight.append(nodeWeight[a] + nodeWeight[b])
            parent[a] = merged
            parent[b] = merged
        }
        // Depths from the root (the last node) down: a parent always has a higher index.
        var depth = [UInt8](repeating: 0, count: nodeWeight.count)
        for node in stride(from: nodeWeight.count - 2, through: 0, by: -1) { depth[node] = depth[parent[node]] &+ 1 }
        var lengths = [UInt8](repeating: 0, count: weights.count)
        for (leaf, symbol) in leaves.enumerated() { lengths[symbol] = depth[leaf] }
        return lengths
    }

    /// RFC 1951 §3.2.2: codes of one length are consecutive in symbol order, shorter codes first.
    private static func canonicalCodes(_ lengths: [UInt8]) -> [UInt16] {
        var countPerLength = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { countPerLength[Int(length)] += 1 }
        var nextCode = [Int](repeating: 0, count: 16)
        var code = 0
        for length in 1..<16 {
            code = (code + countPerLength[length - 1]) << 1
            nextCode[length] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            let value = nextCode[Int(length)]
            nextCode[Int(length)] += 1
            var reversed = 0
            for bit in 0..<Int(length) where value & (1 << bit) != 0 { reversed |= 1 << (Int(length) - 1 - bit) }
            return UInt16(reversed)
        }
    }
}
