/// The version printed by `--version` and written into render settings.
enum TrackSnapVersion {
    static let string = "0.1.0"
}
