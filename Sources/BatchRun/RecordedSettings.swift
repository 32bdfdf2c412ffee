import ContentHash
import FileStore
import StyleFile
import ThumbnailCache
import TileSources
import TrackFormats

/// The settings the runs rendered an output folder with, as `run` records them:
/// `.tracksnap/settings` holds their fingerprint (it makes every cache key, so it decides which
/// images a listing finds published) and `.tracksnap/settings-described` one `name = value` line
/// per setting, to name what differs. `tracksnap listing` given no settings lists under these; given
/// others it refuses, since every image and page the runs published would be unlisted and pruned.
package struct RecordedSettings: Sendable, Equatable {
    /// The fingerprint the runs keyed their images with.
    package var fingerprint: SHA256Digest
    /// `name = value` lines (`describe`); empty when the output was made before they were kept.
    package var lines: [String]

    /// What `store`'s folder records; nil when no run recorded anything there.
    package static func load(_ store: ThumbnailStore) -> RecordedSettings? {
        guard let stamp = try? FileStore.readFile(store.settingsStampPath, maximumBytes: 256),
            let fingerprint = SHA256Digest(hex: String(decoding: stamp, as: UTF8.self))
        else { return nil }
        let text = (try? FileStore.readFile(descriptionPath(store), maximumBytes: 1 << 22)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return RecordedSettings(fingerprint: fingerprint, lines: text.split(separator: "\n").map(String.init))
    }

    /// Writes the description of `settings` (those `store` is keyed by) when it is missing or
    /// different (the stamp itself is written by the run once the re-queueing it implies is done).
    package static func recordDescription(of settings: ThumbnailSettings, in store: ThumbnailStore) throws(FileError) {
        let bytes = Array((describe(settings).joined(separator: "\n") + "\n").utf8)
        if (try? FileStore.readFile(descriptionPath(store), maximumBytes: 1 << 22)) == bytes { return }
        try FileStore.writeAtomically(bytes, to: descriptionPath(store))
    }

    /// One `name = value` line per setting that decides how images look (the values the
    /// fingerprint is made of; the input limits are left out), e.g.
    /// `options.style.coloring = speed`.
    package static func describe(_ settings: ThumbnailSettings) -> [String] {
        var drawn = settings
        drawn.options.limits = DecodingLimits()
        var lines: [String] = []
        func walk(_ value: Any, _ name: String, depth: Int) {
            let mirror = Mirror(reflecting: value)
            if mirror.displayStyle == .optional {
                if let wrapped = mirror.children.first { walk(wrapped.value, name, depth: depth) } else { lines.append(name + " = none") }
            } else if mirror.displayStyle == .struct && depth < 3 && !mirror.children.isEmpty {
                for child in mirror.children {
                    walk(child.value, name.isEmpty ? child.label ?? "?" : name + "." + (child.label ?? "?"), depth: depth + 1)
                }
            } else {
                lines.append(name + " = " + String(describing: value).replacingNewlines)
            }
        }
        walk(drawn, "", depth: 0)
        // The file sits in Output/: a URL template's credentials are not written there, nor a hash
        // of them (it would let anyone confirm a guessed key). Two templates that differ only in a
        // secret differ in the fingerprint, which `differences` then names.
        if let source = drawn.options.basemap?.source, BasemapOpener.displayName(source) != source,
            let index = lines.firstIndex(of: "options.basemap.source = " + source.replacingNewlines)
        {
            lines[index] = "options.basemap.source = \(BasemapOpener.displayName(source))"
        }
        return lines.filter { !$0.hasPrefix("options.limits.") }
    }

    /// How `settings` differ from these, one phrase per setting (at most `limit`); empty when
    /// the fingerprints agree. Without a recorded description, the fingerprints are named.
    package func differences(from settings: ThumbnailSettings, limit: Int = 4) -> [String] {
        guard settings.fingerprint != fingerprint else { return [] }
        let recorded = Self.values(lines), given = Self.values(Self.describe(settings))
        var phrases: [String] = []
        for name in Set(recorded.keys).union(given.keys).sorted() where recorded[name] != given[name] {
            phrases.append("\(name) is \(given[name] ?? "not set") here, \(recorded[name] ?? "not set") in the runs")
        }
        if phrases.isEmpty {
            return ["the settings fingerprint is \(settings.fingerprint.hex.prefix(12))… here, \(fingerprint.hex.prefix(12))… in the runs"]
        }
        return phrases.count > limit ? Array(phrases.prefix(limit)) + ["\(phrases.count - limit) more"] : phrases
    }

    private static func values(_ lines: [String]) -> [String: String] {
        var values: [String: String] = [:]
        for line in lines {
            guard let separator = line.firstRange(of: " = ") else { continue }
            values[String(line[..<separator.lowerBound])] = String(line[separator.upperBound...])
        }
        return values
    }

    private static func descriptionPath(_ store: ThumbnailStore) -> String { store.stateDirectory + "/settings-described" }
}

extension String {
    fileprivate var replacingNewlines: String { split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n") }
}
