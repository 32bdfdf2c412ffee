/// What an image is for.
package enum ImageRole: String, Sendable, Equatable, Codable {
    /// The listing's card image.
    case thumbnail
    /// The detail page's large snapshot.
    case detail
}

/// One image rendered for every track.
package struct ImageSpec: Sendable, Equatable, Codable {
    /// Width in points.
    package var widthPoints: Int
    /// Height in points.
    package var heightPoints: Int
    /// Device pixels per point.
    package var scale: Double
    /// What the image is for. Default: `.thumbnail`.
    package var role: ImageRole

    /// Creates a spec.
    package init(widthPoints: Int, heightPoints: Int, scale: Double, role: ImageRole = .thumbnail) {
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
