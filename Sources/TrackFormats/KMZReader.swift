import Decompression
import TrackModel

/// Reads KMZ: a zip archive whose main document is `doc.kml` (or, as Google Earth does, the first
/// `.kml` entry at the top level, then anywhere). The zip container is read by `ZipArchive` and
/// inflated with zlib under `DecodingLimits.decompression`.
public enum KMZReader: TrackReader {
    public static let format = TrackFormat.kmz

    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, limits: DecodingLimits) throws(TrackDecodingError) -> Track {
        let document: [UInt8]
        let entry: ZipArchive.Entry
        do {
            let archive = try ZipArchive(bytes)
            let kmlEntries = archive.entries.filter { $0.path.lowercased().hasSuffix(".kml") }
            guard
                let chosen = kmlEntries.first(where: { $0.path.lowercased() == "doc.kml" })
                    ?? kmlEntries.first(where: { !$0.path.contains("/") }) ?? kmlEntries.first
            else {
                let listed = archive.entries.prefix(5).map(\.path).joined(separator: ", ")
                throw TrackDecodingError(
                    .malformed, format: .kmz, position: nil,
                    "expected doc.kml or another .kml file in the archive, found \(archive.entries.isEmpty ? "no entries" : listed)")
            }
            entry = chosen
            document = try TrackDecoder.expand(bytes, format: .kmz, limits: limits) { budget throws(DecompressionError) in
                try archive.contents(of: chosen, limits: budget)
            }
        } catch let error as DecompressionError {
            throw TrackDecodingError(error, format: .kmz)
        } catch let error as TrackDecodingError {
            throw error
        } catch {
            throw TrackDecodingError(.malformed, format: .kmz, position: nil, "\(error)")
        }
        do throws(TrackDecodingError) {
            // The same text handling as a plain KML file: UTF-16 transcoded, UTF-8 checked.
            let text =
                try document.withUnsafeBufferPointer { kml throws(TrackDecodingError) in
                    try TextEncoding.utf16Order(kml).map { order throws(TrackDecodingError) in try TextEncoding.transcodeUTF16(kml, order: order) }
                } ?? document
            var inner = limits
            inner.bytesHeldBeside += bytes.count + (text.count == document.count ? 0 : document.count)
            var track = try text.withUnsafeBufferPointer { kml throws(TrackDecodingError) in
                try TrackDecoder.checkUTF8(kml, format: .kml)
                return try KMLReader.read(kml, limits: inner)
            }
            track.format = .kmz
            return track
        } catch {
            var wrapped = error
            wrapped.format = .kmz
            wrapped.message += " (in \(entry.path) inside the KMZ archive)"
            throw wrapped
        }
    }
}
