import ContentHash
import SnapshotRendering
import TrackFormats

/// What an image is for.
public enum ImageRole: String, Sendable, Equatable, Codable {
    /// The listing's card image.
    case thumbnail
    /// The detail page's large snapshot.
    case detail
}

/// One image rendered for every track.
public struct ImageSpec: Sendable, Equatable, Codable {
    /// Width in points.
    public var widthPoints: Int
    /// Height in points.
    public var heightPoints: Int
    /// Device pixels per point.
    public var scale: Double
    /// What the image is for. Default: `.thumbnail`.
    public var role: ImageRole

    /// Creates a spec.
    public init(widthPoints: Int, heightPoints: Int, scale: Double, role: ImageRole = .thumbnail) {
        self.widthPoints = widthPoints
        self.heightPoints = heightPoints
        self.scale = scale
        self.role = role
    }

    /// The file name suffix: "" for @1x, "@2x" for 2, "@1.5x" for 1.5, plus "-WxH" when the size
    /// is not the first spec's.
    func fileSuffix(primary: ImageSpec) -> String {
        var suffix = ""
        if widthPoints != primary.widthPoints || heightPoints != primary.heightPoints {
            suffix += "-\(widthPoints)x\(heightPoints)"
        }
        if scale != 1 {
            suffix += scale == scale.rounded() ? "@\(Int(scale))x" : "@\(scale)x"
        }
        return suffix
    }
}

/// Everything that decides a batch run's images. Plain values; every default is here.
public struct ThumbnailSettings: Sendable, Equatable, Codable {
    /// The images made for each track, thumbnails first. Default: a 320×240-point thumbnail and a
    /// 1280×960-point detail snapshot, each at @1x and @2x.
    public var images = [
        ImageSpec(widthPoints: 320, heightPoints: 240, scale: 1),
        ImageSpec(widthPoints: 320, heightPoints: 240, scale: 2),
        ImageSpec(widthPoints: 1280, heightPoints: 960, scale: 1, role: .detail),
        ImageSpec(widthPoints: 1280, heightPoints: 960, scale: 2, role: .detail),
    ]
    /// Render options (style, padding, cleaning, limits, PNG); size and scale come from `images`.
    /// Default: `RenderOptions()`.
    public var options = RenderOptions()
    /// The renderer version in the cache key. Default: `SnapshotRenderer.version`.
    public var rendererVersion = SnapshotRenderer.version

    /// The defaults above.
    public init() {}

    /// The options for one image.
    public func options(for image: ImageSpec) -> RenderOptions {
        var options = self.options
        options.widthPoints = image.widthPoints
        options.heightPoints = image.heightPoints
        options.scale = image.scale
        return options
    }

    /// A digest of every setting and the renderer version. Uses the values' reflected description
    /// (every stored property by name, doubles in shortest round-trip form), so adding or changing
    /// any option changes it without a hand-kept list that could miss one.
    /// The input limits are left out: they decide whether a track is read, never how it is
    /// drawn, so raising `--memory-limit` for one night does not re-render the archive.
    public var fingerprint: SHA256Digest {
        var drawn = options
        drawn.limits = DecodingLimits()
        return SHA256.hash("tracksnap-thumbnails/1\nrenderer \(rendererVersion)\n\(String(reflecting: images))\n\(String(reflecting: drawn))\n")
    }

    /// Checks every image's options; returns a message naming the problem, or nil.
    public func validationProblem() -> String? {
        if !images.contains(where: { $0.role == .thumbnail }) { return "at least one thumbnail size is needed" }
        for image in images {
            if let problem = options(for: image).validationProblem() { return problem }
        }
        return nil
    }
}

/// The cache key of a track under some settings: SHA-256 over the SHA-256 of the track's bytes,
/// the settings' fingerprint and the renderer version (inside the fingerprint). 64 hex digits;
/// also the track's id in the listing and the stem of its image names.
public struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// 64 lower-case hex digits.
    public let hex: String

    /// The key for a track whose bytes hash to `content`.
    public init(content: SHA256Digest, settings fingerprint: SHA256Digest) {
        var hasher = SHA256()
        hasher.update("tracksnap-cache-key/1\n")
        hasher.update(content.bytes)
        hasher.update(fingerprint.bytes)
        hex = hasher.finalize().hex
    }

    /// A key read back from a file name; nil unless 64 hex digits.
    public init?(hex: String) {
        guard hex.utf8.count == 64, hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        self.hex = hex
    }

    /// Same as `hex`.
    public var description: String { hex }
}
