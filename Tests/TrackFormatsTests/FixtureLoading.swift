import Foundation

/// Reads a file from `Tests/Fixtures/` (named after the problem it exercises).
func fixture(_ name: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent(name)
    return Array(try Data(contentsOf: url))
}
