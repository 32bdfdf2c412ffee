/// A style file could not be used. `description` names the file, the key path and what was
/// expected versus found.
package struct StyleError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or "style" for text given inline).
    package var file: String
    /// Where in the document, e.g. "route.color"; empty for the whole document.
    package var keyPath: String
    /// What is wrong.
    package var message: String

    /// One line: `file: key.path: message`.
    package var description: String { keyPath.isEmpty ? "\(file): \(message)" : "\(file): \(keyPath): \(message)" }
}
