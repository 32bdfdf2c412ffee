import CSHA256

/// SHA-256 (FIPS 180-4), written here because the project uses no packages. Streaming: feed bytes
/// with `update`, then `finalize`. Pure and allocation-free apart from the 64-byte block buffer.
///
/// ```swift
/// var hash = SHA256()
/// hash.update(bytes)
/// let digest = hash.finalize()   // 32 bytes; `SHA256Digest.hex` for the usual spelling
/// ```
package struct SHA256: Sendable {
    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    private var pending = [UInt8](repeating: 0, count: 64)
    private var pendingCount = 0
    private var totalBytes: UInt64 = 0
    /// Whether blocks go to the SHA extensions (tests turn it off to check one against the other).
    var usesHardware = SHA256.hardware

    /// A fresh hash (FIPS 180-4 §5.3.3 initial value).
    package init() {}

    /// The digest of `bytes` in one call.
    package static func hash(_ bytes: some Collection<UInt8>) -> SHA256Digest {
        var hasher = SHA256()
        // Hash contiguous storage in place: a worker hashes every track file, up to 1 GB, and a
        // copy first would double the memory and the time spent.
        if bytes.withContiguousStorageIfAvailable({ hasher.update($0) }) == nil { hasher.update(Array(bytes)) }
        return hasher.finalize()
    }

    /// The digest of a string's UTF-8 bytes.
    package static func hash(_ text: String) -> SHA256Digest {
        var hasher = SHA256()
        hasher.update(text)
        return hasher.finalize()
    }

    /// Adds a string's UTF-8 bytes.
    package mutating func update(_ text: String) {
        var text = text
        text.withUTF8 { update($0) }
    }

    /// Adds bytes.
    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { update($0) }
    }

    /// Adds bytes.
    package mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard var source = bytes.baseAddress else { return }
        var remaining = bytes.count
        totalBytes &+= UInt64(remaining)
        if pendingCount > 0 {
            let take = min(64 - pendingCount, remaining)
            for index in 0..<take { pending[pendingCount + index] = source[index] }
            pendingCount += take
            source += take
            remaining -= take
            guard pendingCount == 64 else { return }
            pending.withUnsafeBufferPointer { compress($0.baseAddress!, blocks: 1) }
            pendingCount = 0
        }
        let wholeBlocks = remaining / 64
        if wholeBlocks > 0 {
            compress(source, blocks: wholeBlocks)
            source += wholeBlocks * 64
            remaining -= wholeBlocks * 64
        }
        for index in 0..<remaining { pending[index] = source[index] }
        pendingCount = remaining
    }

    /// Pads (§5.1.1), processes the last block(s) and returns the digest.
    package mutating func finalize() -> SHA256Digest {
        let bitLength = totalBytes &* 8
        var tail: [UInt8] = [0x80]
        let padding = (pendingCount + 1 + 8 <= 64 ? 64 : 128) - pendingCount - 1 - 8
        tail += [UInt8](repeating: 0, count: padding)
        for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        let saved = totalBytes
        update(tail)
        totalBytes = saved
        precondition(pendingCount == 0)
        let words = [state.0, state.1, state.2, state.3, state.4, state.5, state.6, state.7]
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        for word in words {
            bytes += [
                UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word),
            ]
        }
        return SHA256Digest(bytes: bytes)
    }

    /// Whether this processor has the SHA extensions (asked once; `CSHA256`).
    static let hardware = tsnap_sha256_hardware_available() != 0

    /// §6.2.2 over whole 64-byte blocks: on the SHA extensions when the processor has them,
    /// else `portableCompress`.
    private mutating func compress(_ blocks: UnsafePointer<UInt8>, blocks count: Int) {
        guard usesHardware else { return portableCompress(blocks, blocks: count) }
        // The eight words in place (a homogeneous tuple is laid out as a C array): no array is
        // allocated per call, which small updates make once per 64 bytes.
        withUnsafeMutableBytes(of: &state) { words in
            tsnap_sha256_hardware_blocks(words.baseAddress!.assumingMemoryBound(to: UInt32.self), blocks, count)
        }
    }

    // The hot loop: §6.2.2 over whole 64-byte blocks, message schedule on the stack.
    mutating func portableCompress(_ blocks: UnsafePointer<UInt8>, blocks count: Int) {
        var (h0, h1, h2, h3, h4, h5, h6, h7) = state
        // FIPS 180-4 §4.2.2, shared with the hardware rounds (`CSHA256`).
        let constants = tsnap_sha256_round_constants()!
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            for block in 0..<count {
                let base = blocks + block * 64
                for t in 0..<16 {
                    let p = base + t * 4
                    schedule[t] = UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
                }
                for t in 16..<64 {
                    let w15 = schedule[t - 15], w2 = schedule[t - 2]
                    let s0 = w15.rotatedRight(7) ^ w15.rotatedRight(18) ^ (w15 >> 3)
                    let s1 = w2.rotatedRight(17) ^ w2.rotatedRight(19) ^ (w2 >> 10)
                    schedule[t] = schedule[t - 16] &+ s0 &+ schedule[t - 7] &+ s1
                }
                var (a, b, c, d, e, f, g, h) = (h0, h1, h2, h3, h4, h5, h6, h7)
                for t in 0..<64 {
                    let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
                    let choice = (e & f) ^ (~e & g)
                    let t1 = h &+ sum1 &+ choice &+ constants[t] &+ schedule[t]
                    let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
                    let majority = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = sum0 &+ majority
                    (h, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
                }
                h0 &+= a; h1 &+= b; h2 &+= c; h3 &+= d; h4 &+= e; h5 &+= f; h6 &+= g; h7 &+= h
            }
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
    }

}

/// A SHA-256 digest.
package struct SHA256Digest: Sendable, Hashable, CustomStringConvertible {
    /// The 32 digest bytes.
    package let bytes: [UInt8]

    /// Lower-case hexadecimal, 64 characters.
    package var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The first eight bytes as a big-endian integer: a stable, well-mixed number for partitioning.
    package var prefix64: UInt64 {
        bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Same as `hex`.
    package var description: String { hex }
}

extension UInt32 {
    @inline(__always) fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 &- count))
    }
}

extension SHA256Digest {
    /// A digest read back from 64 hex digits; nil when `hex` is not that.
    package init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case 0x30...0x39: return digit - 0x30
            case 0x61...0x66: return digit - 0x61 + 10
            case 0x41...0x46: return digit - 0x41 + 10
            default: return nil
            }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.init(bytes: bytes)
    }
}
