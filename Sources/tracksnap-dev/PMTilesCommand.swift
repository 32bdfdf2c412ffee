import Foundation
import TileSources
import TrackSynthesis

/// `tracksnap-dev pmtiles IN.mbtiles OUT.pmtiles`: an MBTiles file (raster or vector) as a
/// PMTiles v3 archive (`PMTilesConversion`), directories and metadata gzip-compressed; a progress
/// line on standard error every 10,000 tiles of a file with more than that.
enum PMTilesCommand {
    static func run(_ arguments: [String]) throws {
        guard arguments.count == 2, !arguments.contains(where: { $0.hasPrefix("-") }) else { throw DevHelp.usageError("pmtiles") }
        let (input, output) = (arguments[0], arguments[1])
        guard input != output else { throw DevHelp.usageError("pmtiles", "the output would replace the input '\(input)'") }
        let start = ContinuousClock.now
        let summary = try PMTilesConversion.convert(mbtiles: input, to: output, compressDirectories: { Compression.deflate($0, gzip: true) }) {
            done, total in
            guard total > 10_000 else { return }
            FileHandle.standardError.write(Data("tracksnap-dev pmtiles: \(done) of \(total) tiles read from '\(input)'\n".utf8))
        }
        let elapsed = seconds(ContinuousClock.now - start)
        var line = "wrote \(output): \(summary.tiles) tiles (\(summary.distinctTiles) distinct"
        if summary.emptyTiles > 0 { line += ", \(summary.emptyTiles) empty ones left out" }
        line += "), \(summary.archiveBytes) bytes, in \(String(format: "%.1f", elapsed)) s"
        print(line)
    }
}
