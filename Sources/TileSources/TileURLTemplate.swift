import MapTiles

/// A tile server's URL template, checked once when the basemap is opened (not tile by tile):
/// `http://` or `https://` (any case), a host, a port 1–65535 if one is given, `{z}`, `{x}` and
/// `{y}` (or `{-y}` for TMS rows), and `{s}` for Leaflet-style subdomains. Pure: no I/O.
///
/// Also the one place that decides what of a template may be shown or stored: `redacted` drops
/// `user:password@` and replaces every query value with "…", because templates often carry an
/// API key (`?api_key=…`, `?access_token=…`) and messages end up in records, pages and logs.
package struct TileURLTemplate: Sendable, Equatable {
    /// The template as given (with its credentials: used only to fetch and to key the cache).
    package let text: String
    /// What `{s}` takes, chosen per tile by `(x + y) mod count` (as Leaflet does). Default: a, b, c.
    package let subdomains: [String]
    /// The template without credentials or query values, for messages and files.
    package let redacted: String

    /// The subdomains `{s}` takes when none are given.
    package static let defaultSubdomains = ["a", "b", "c"]
    static let placeholders: Set<String> = ["{z}", "{x}", "{y}", "{-y}", "{s}"]

    /// Checks `text`; throws a message naming the (redacted) template and what is wrong.
    package init(_ text: String, subdomains: [String]? = nil) throws(TileProblem) {
        let shown = Self.redact(text)
        func refuse(_ problem: String) -> TileProblem { TileProblem("the URL template '\(shown)' \(problem)") }
        let parts = try Self.checkedAddress(text, example: "https://tiles.example.org/{z}/{x}/{y}.png", refuse: refuse)
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else { throw refuse("has a '{' without a closing '}'") }
            let field = String(rest[open...close])
            guard Self.placeholders.contains(field) else {
                throw refuse("has the unknown field \(field) (known: {z}, {x}, {y}, {-y}, {s})")
            }
            rest = rest[rest.index(after: close)...]
        }
        for field in ["{z}", "{x}"] where !text.contains(field) {
            throw refuse("has no \(field) (expected e.g. https://tiles.example.org/{z}/{x}/{y}.png)")
        }
        guard text.contains("{y}") || text.contains("{-y}") else { throw refuse("has no {y} or {-y}") }
        let chosen = subdomains ?? Self.defaultSubdomains
        if text.contains("{s}") {
            guard !chosen.isEmpty else { throw refuse("has {s} but the subdomain list is empty") }
            for name in chosen where name.isEmpty || !name.allSatisfy(Self.isHostCharacter) {
                throw refuse("has {s} and the subdomain '\(name)', which is not letters, digits and '-'")
            }
        }
        // The scheme in lower case: libcurl and servers expect it so ("HTTP://" is the same URL).
        self.text = parts.scheme + text.dropFirst(parts.scheme.count)
        self.subdomains = chosen
        redacted = Self.redact(self.text)
    }

    /// `text` cut into parts once its scheme (http or https), host and port are checked; `refuse`
    /// makes the error from what is wrong.
    static func checkedAddress(_ text: String, example: String, refuse: (String) -> TileProblem) throws(TileProblem) -> URLParts {
        guard let parts = URLParts(text) else { throw refuse("must start with http:// or https:// (expected e.g. \(example))") }
        guard parts.scheme == "http" || parts.scheme == "https" else {
            throw refuse("uses the scheme '\(parts.scheme)'; only http:// and https:// are supported")
        }
        guard !parts.host.isEmpty else { throw refuse("has no host name") }
        if parts.host.contains(where: { $0 == " " || $0 == "\\" }) { throw refuse("has a space or backslash in its host '\(parts.host)'") }
        if let port = parts.port {
            guard !port.isEmpty, port.allSatisfy({ $0.isASCII && $0.isNumber }), port.count <= 5, let number = Int(port), (1...65535).contains(number)
            else {
                throw refuse("has the port '\(port)'; a port is a number from 1 to 65535")
            }
        }
        return parts
    }

    /// Whether `source` names one PMTiles archive on a server rather than a template: a URL
    /// without `{…}` fields whose path ends in `.pmtiles` (any case).
    package static func isArchiveURL(_ source: String) -> Bool {
        guard looksLikeURL(source), !source.contains("{"), let parts = URLParts(source) else { return false }
        return parts.path.lowercased().hasSuffix(".pmtiles")
    }

    /// An archive URL (`isArchiveURL`) checked as templates are (scheme, host, port), with the
    /// scheme in lower case; throws a message naming the redacted URL.
    package static func checkedArchiveURL(_ text: String) throws(TileProblem) -> String {
        let parts = try checkedAddress(text, example: "https://example.org/tiles/area.pmtiles") { problem in
            TileProblem("the PMTiles URL '\(redact(text))' \(problem)")
        }
        return parts.scheme + text.dropFirst(parts.scheme.count)
    }

    private static func isHostCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-")
    }

    /// Whether `source` is meant as a URL (anything with a scheme, so `HTTP://…` or `ftp://…`
    /// are checked as templates and explained, never looked up as files).
    package static func looksLikeURL(_ source: String) -> Bool {
        guard let separator = source.firstRange(of: "://") else { return false }
        let scheme = source[..<separator.lowerBound]
        return !scheme.isEmpty && scheme.allSatisfy(isSchemeCharacter)
    }

    private static func isSchemeCharacter(_ character: Character) -> Bool {
        guard character.isASCII else { return false }
        return character.isLetter || character.isNumber || character == "+" || character == "-" || character == "."
    }

    /// The URL of a tile.
    package func url(_ coordinate: TileCoordinate) -> String {
        var url = text
        if url.contains("{s}") {
            let index = (coordinate.x + coordinate.y) % subdomains.count
            url = url.replacing("{s}", with: subdomains[index])
        }
        return url.replacing("{z}", with: "\(coordinate.z)").replacing("{x}", with: "\(coordinate.x)")
            .replacing("{-y}", with: "\(coordinate.tmsRow)").replacing("{y}", with: "\(coordinate.y)")
    }

    /// A tile's URL as it may be shown: redacted like the template.
    package func redactedURL(_ coordinate: TileCoordinate) -> String { Self.redact(url(coordinate)) }

    /// `text` without `user:password@` and with every query value (and bare query token) replaced
    /// by "…" (names are kept: they say which parameter was set); the fragment is dropped. Text that is not a URL
    /// is returned as it is.
    package static func redact(_ text: String) -> String {
        guard let parts = URLParts(text) else { return text }
        var out = parts.scheme + "://" + parts.hostAndPort + parts.path
        if let query = parts.query {
            let pairs = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                // A bare token ("?0123abcd") may be the key itself.
                guard let equals = pair.firstIndex(of: "=") else { return pair.isEmpty || placeholders.contains(String(pair)) ? String(pair) : "…" }
                let value = pair[pair.index(after: equals)...]
                return value.isEmpty || placeholders.contains(String(value)) ? String(pair) : pair[...equals] + "…"
            }
            out += "?" + pairs.joined(separator: "&")
        }
        return out
    }
}

/// A URL cut into the pieces the template checks and redaction need (RFC 3986, loosely: no
/// percent-decoding; the scheme lowered).
struct URLParts {
    var scheme: String
    var userinfo: String?
    var host: String
    var port: String?
    var path: String
    var query: String?

    var hostAndPort: String { host + (port.map { ":" + $0 } ?? "") }

    init?(_ text: String) {
        guard TileURLTemplate.looksLikeURL(text), let separator = text.firstRange(of: "://") else { return nil }
        scheme = text[..<separator.lowerBound].lowercased()
        let afterScheme = text[separator.upperBound...]
        let authorityEnd = afterScheme.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? afterScheme.endIndex
        var authority = afterScheme[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            userinfo = String(authority[..<at])
            authority = authority[authority.index(after: at)...]
        }
        // "[::1]:8080": the port follows the closing bracket.
        var hostEnd = authority.startIndex
        if authority.hasPrefix("["), let bracket = authority.firstIndex(of: "]") { hostEnd = authority.index(after: bracket) }
        if let colon = authority[hostEnd...].firstIndex(of: ":") {
            host = String(authority[..<colon])
            port = String(authority[authority.index(after: colon)...])
        } else {
            host = String(authority)
        }
        var remainder = afterScheme[authorityEnd...]
        if let hash = remainder.firstIndex(of: "#") { remainder = remainder[..<hash] }
        if let question = remainder.firstIndex(of: "?") {
            path = String(remainder[..<question])
            query = String(remainder[remainder.index(after: question)...])
        } else {
            path = String(remainder)
        }
    }
}
