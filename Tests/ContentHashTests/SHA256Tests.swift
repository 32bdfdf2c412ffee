@testable import ContentHash
import Testing

/// FIPS 180-4 example vectors (NIST CSRC "Examples with intermediate values", SHA-256) plus the
/// padding boundaries, where a hand-written SHA-256 usually goes wrong.
@Suite struct SHA256Tests {
    @Test func nistOneBlockMessage() {
        #expect(SHA256.hash("abc").hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func nistTwoBlockMessage() {
        #expect(
            SHA256.hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq").hex
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func nistLongMessage() {
        #expect(
            SHA256.hash("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").hex
                == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test func emptyMessage() {
        #expect(SHA256.hash("").hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func oneMillionLetterA() {
        var hasher = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { hasher.update(chunk) }
        #expect(hasher.finalize().hex == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func paddingBoundariesMatchOneShotAndOddChunking() {
        // Lengths around 55/56/64 bytes change how many padding blocks there are.
        for length in [0, 1, 54, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let oneShot = SHA256.hash(bytes)
            var chunked = SHA256()
            var start = 0
            var step = 1
            while start < length {
                let end = min(length, start + step)
                chunked.update(Array(bytes[start..<end]))
                start = end
                step = step % 13 + 2
            }
            #expect(chunked.finalize() == oneShot, "length \(length)")
        }
        // 56 bytes of 'a' (needs a second padding block).
        #expect(SHA256.hash(String(repeating: "a", count: 56)).hex == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
    }

    /// The SHA extensions and the portable rounds agree on every length from 0 to 300 bytes (every
    /// padding case, one to six blocks) and on 1 MiB fed in odd pieces, of pseudo-random bytes.
    /// On a processor without the extensions both sides are the portable code and this is a no-op
    /// comparison; the NIST vectors above then check the one path there is.
    @Test func hardwareAndPortableRoundsAgree() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: seed >> 33)
        }
        func digest(_ bytes: [UInt8], hardware: Bool, piece: Int) -> String {
            var hasher = SHA256()
            hasher.usesHardware = hardware && SHA256.hardware
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + piece)
                hasher.update(Array(bytes[start..<end]))
                start = end
            }
            return hasher.finalize().hex
        }
        for length in 0...300 {
            let bytes = (0..<length).map { _ in next() }
            #expect(digest(bytes, hardware: true, piece: max(length, 1)) == digest(bytes, hardware: false, piece: max(length, 1)), "length \(length)")
        }
        let large = (0..<(1 << 20)).map { _ in next() }
        #expect(digest(large, hardware: true, piece: 4_099) == digest(large, hardware: false, piece: 65_536))
    }
}
