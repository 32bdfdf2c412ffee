#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Names of staging files: `.<name>.tmp~<host>~<pid>~<random>`. Dot-prefixed so listings and
/// static servers' indexes skip them; host and pid inside so a sweeper can tell a dead writer's
/// leftovers (same host, pid gone) from a live one's, even on storage shared between machines.
package enum TemporaryName {
    /// This machine's host name (the part before the first dot).
    package static let host: String = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name =
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: ".").first.map(String.init)
            ?? "localhost"
        // `~` separates the fields; no legal host name has one, but stay safe.
        return name.isEmpty ? "localhost" : name.replacingTildes()
    }()

    /// A fresh staging name for `name` (truncated so the whole stays within 255 bytes).
    package static func make(for name: String) -> String {
        let suffix = ".tmp~\(host)~\(getpid())~\(UInt32.random(in: 0...UInt32.max))"
        var stem = name
        while stem.utf8.count + suffix.utf8.count + 1 > 255 { stem.removeLast() }
        return "." + stem + suffix
    }

    /// The writer of a staging name, or nil when `name` is not one.
    package static func writer(of name: String) -> (host: String, pid: Int32)? {
        guard name.hasPrefix(".") else { return nil }
        let fields = name.split(separator: "~", omittingEmptySubsequences: false)
        guard fields.count >= 4, fields[fields.count - 4].hasSuffix(".tmp"),
            let pid = Int32(fields[fields.count - 2]), UInt32(fields[fields.count - 1]) != nil
        else { return nil }
        return (String(fields[fields.count - 3]), pid)
    }
}

extension String {
    fileprivate func replacingTildes() -> String {
        String(map { $0 == "~" ? "-" : $0 })
    }
}
