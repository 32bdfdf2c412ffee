import ArchiveOverview
import ContentHash
import SnapshotRendering
import ThumbnailCache
import TrackFormats

/// Everything that decides a batch run's images. Plain values; every default is here.
package struct ThumbnailSettings: Sendable, Equatable, Codable {
    /// The images made for each track, thumbnails first. Default: a 320×240-point thumbnail and a
    /// 1280×960-point detail snapshot, each at @1x and @2x.
    package var images = [
        ImageSpec(widthPoints: 320, heightPoints: 240, scale: 1),
        ImageSpec(widthPoints: 320, heightPoints: 240, scale: 2),
        ImageSpec(widthPoints: 1280, heightPoints: 960, scale: 1, role: .detail),
        ImageSpec(widthPoints: 1280, heightPoints: 960, scale: 2, role: .detail),
    ]
    /// Render options (style, padding, cleaning, limits, PNG); size and scale come from `images`.
    /// Default: `RenderOptions()`.
    package var options = RenderOptions()
    /// The renderer version in the cache key. Default: `SnapshotRenderer.version`.
    package var rendererVersion = SnapshotRenderer.version
    /// The regions the overview names by a box (the style file's `overview.regions`). Not part of
    /// the encoding, so not of the fingerprint: naming a region redraws the overview (its own
    /// stamp holds them), never a track's images. Default: none.
    package var overviewRegions: [NamedRegion] = []

    // `overviewRegions` left out (see there); the others as they always were encoded.
    enum CodingKeys: String, CodingKey {
        case images, options, rendererVersion
    }

    /// The defaults above.
    package init() {}

    /// The options for one image.
    package func options(for image: ImageSpec) -> RenderOptions {
        var options = self.options
        options.widthPoints = image.widthPoints
        options.heightPoints = image.heightPoints
        options.scale = image.scale
        return options
    }

    /// A digest of every setting and the renderer version: SHA-256 over a versioned header and the
    /// settings' canonical encoding (`CanonicalEncoding`: keys sorted, numbers by their bits), so
    /// adding or changing any Codable option changes it without a hand-kept list that could miss
    /// one, and a new toolchain keeps every key. The input limits are left out: they decide whether
    /// a track is read, never how it is drawn, so raising `--memory-limit` for one night does not
    /// re-render the archive.
    package var fingerprint: SHA256Digest {
        var drawn = self
        drawn.options.limits = DecodingLimits()
        // "/2": the encoding was `String(reflecting:)` of the values in "/1", which the language
        // does not promise to keep; the version changes every key once.
        return SHA256.hash(Array("tracksnap-thumbnails/2\n".utf8) + CanonicalEncoding.bytes(of: drawn))
    }

    /// Checks every image's options; returns a message naming the problem, or nil.
    package func validationProblem() -> String? {
        if !images.contains(where: { $0.role == .thumbnail }) { return "at least one thumbnail size is needed" }
        for image in images {
            if let problem = options(for: image).validationProblem() { return problem }
        }
        return nil
    }
}

extension ThumbnailStore {
    /// A store in `root` for the images of `settings`, keyed by their fingerprint.
    package init(root: String, settings: ThumbnailSettings) {
        self.init(root: root, images: settings.images, fingerprint: settings.fingerprint)
    }
}
