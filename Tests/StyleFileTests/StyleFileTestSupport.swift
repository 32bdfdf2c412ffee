import SnapshotRendering
import StyleFile

/// A style document read as `style.json` (the name its errors give).
func readStyle(_ json: String, theme: Theme? = nil) throws(StyleError) -> ThumbnailSettings {
    try StyleFile.settings(from: Array(json.utf8), file: "style.json", theme: theme)
}

/// The message reading `json` as a style document gives, or "no error".
func styleError(_ json: String) -> String {
    do {
        _ = try readStyle(json)
        return "no error"
    } catch {
        return error.description
    }
}
