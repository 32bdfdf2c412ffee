/// A developer-tool failure with its message.
struct DevToolError: Error, CustomStringConvertible {
    var description: String
    init(_ message: String) { description = message }
}
