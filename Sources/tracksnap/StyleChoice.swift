import BatchRun
import FileStore
import SnapshotRendering
import StyleFile

/// `--style FILE`, `--theme light|dark` and `--color-by none|speed|elevation`, shared by `render`,
/// `run` and `listing`.
struct StyleChoice {
    /// The style file's name, for error messages.
    var file = "style"
    /// The style file's bytes.
    var text: [UInt8]?
    /// `--theme`: wins over the file's theme.
    var theme: Theme?
    /// `--color-by`: wins over the file's `route.color_by`.
    var coloring: RouteColoring?

    /// Whether no style option was given.
    var isEmpty: Bool { text == nil && theme == nil && coloring == nil }

    /// The style options, as `render`, `run` and `listing` declare them.
    static var options: [CommandOption<StyleChoice>] {
        [
            .custom(
                "--style", value: "FILE",
                help: "a style file (JSON; docs/style.md): sizes, scales, padding, colours, stroke width, casing, grid, markers, scale bar, theme"
            ) { choice, path, spelling in
                do {
                    choice.text = try FileStore.readFile(path, maximumBytes: 1 << 20)
                } catch {
                    throw UsageError(message: "\(spelling): cannot read '\(path)': \(error)")
                }
                choice.file = path
            },
            .choice("--theme", help: "the map theme (wins over the style file's \"theme\")", default: "light", into: \.theme),
            .choice(
                "--color-by", help: "colour the route in 9 quantized bands of speed or elevation (wins over the style file's route.color_by)",
                default: RouteColoring.single.rawValue, into: \.coloring),
        ]
    }

    /// The settings these options choose over the defaults.
    func resolve(base: ThumbnailSettings = ThumbnailSettings()) throws -> ThumbnailSettings {
        var settings = base
        if let text {
            do {
                // basemap.style is relative to the style file, like a path in any config file.
                let folder = file.contains("/") ? String(file[..<file.lastIndex(of: "/")!]) : "."
                settings = try StyleFile.settings(from: text, file: file, theme: theme, base: base) { path in
                    try BasemapChoice.readMapStyle(path.hasPrefix("/") ? path : folder + "/" + path, option: nil)
                }
            } catch {
                throw UsageError(message: error.description)
            }
        } else if let theme {
            settings.options.style = SnapshotStyle(theme: theme)
        }
        if let coloring { settings.options.style.coloring = coloring }
        // No validation here: StyleFile checks what it reads, a theme or colouring alone cannot make
        // the settings invalid, and `run` and `render` check what they end up with.
        return settings
    }

    /// Resolves into a run configuration (whose settings the workers get whole, the style file's
    /// values included, so every worker renders with what the file said when the run started).
    func apply(to configuration: inout RunConfiguration) throws {
        guard !isEmpty else { return }
        // Over the configuration's settings, so the renderer version (an environment override in
        // tests) is kept.
        configuration.settings = try resolve(base: configuration.settings)
    }
}
