/// A style file could not be used. `description` names the file, the key path and what was
/// expected versus found.
public struct StyleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or "style" for text given inline).
    public var file: String
    /// Where in the document, e.g. "route.color"; empty for the whole document.
    public var keyPath: String
    /// What is wrong.
    public var message: String

    /// One line: `file: key.path: message`.
    public var description: String { keyPath.isEmpty ? "\(file): \(message)" : "\(file): \(keyPath): \(message)" }
}
