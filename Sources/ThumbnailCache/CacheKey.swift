import ContentHash

/// The cache key of a track under some settings: SHA-256 over the SHA-256 of the track's bytes,
/// the settings' fingerprint and the renderer version (inside the fingerprint). 64 hex digits;
/// also the track's id in the listing and the stem of its image names.
package struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// 64 lower-case hex digits.
    package let hex: String

    /// The key for a track whose bytes hash to `content`.
    package init(content: SHA256Digest, settings fingerprint: SHA256Digest) {
        var hasher = SHA256()
        hasher.update("tracksnap-cache-key/1\n")
        hasher.update(content.bytes)
        hasher.update(fingerprint.bytes)
        hex = hasher.finalize().hex
    }

    /// A key read back from a file name; nil unless 64 hex digits.
    package init?(hex: String) {
        guard hex.utf8.count == 64, hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        self.hex = hex
    }

    /// Same as `hex`.
    package var description: String { hex }
}
