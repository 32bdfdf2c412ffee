// swift-tools-version:6.0
// TrackSnap: recorded GPS tracks in, map snapshots (PNG) out.
// One target per stage of the pipeline; edges run one way (see ARCHITECTURE.md).
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "TrackSnap",
    products: [
        /// The pipeline as a library a server can call: track bytes + options → PNG bytes + render info.
        .library(name: "TrackSnap", targets: ["SnapshotRendering"]),
        /// The reader family alone (used by the fuzzing package in `Fuzz/`).
        .library(name: "TrackFormats", targets: ["TrackFormats"]),
        .executable(name: "tracksnap", targets: ["tracksnap"]),
    ],
    targets: [
        .target(name: "TrackModel", swiftSettings: strict),
        .systemLibrary(name: "SystemZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "Decompression", dependencies: ["SystemZlib"], swiftSettings: strict),
        .target(name: "TrackFormats", dependencies: ["TrackModel", "Decompression"], swiftSettings: strict),
        .target(name: "TrackCleaning", dependencies: ["TrackModel"], swiftSettings: strict),
        .target(name: "MapGeometry", dependencies: ["TrackModel"], swiftSettings: strict),
        .target(name: "Raster", dependencies: ["MapGeometry"], swiftSettings: strict),
        .systemLibrary(
            name: "SystemLibPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .target(name: "CLibPNG", dependencies: ["SystemLibPNG"]),
        .target(name: "PNGEncoding", dependencies: ["Raster", "CLibPNG"], swiftSettings: strict),
        // Basemaps: the pure half (tile plan, resampling) below the compositing, and the sources
        // (MBTiles through SQLite, tile folders, URL templates through libcurl) with their decoders.
        .target(name: "MapTiles", dependencies: ["MapGeometry", "Raster"], swiftSettings: strict),
        .systemLibrary(name: "SystemSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "CLibJPEG", linkerSettings: [.linkedLibrary(":libjpeg.a")]),
        .target(name: "CLibCurl"),
        .target(
            name: "TileSources", dependencies: ["MapTiles", "CLibPNG", "CLibJPEG", "CLibCurl", "SystemSQLite", "FileStore", "ContentHash"],
            swiftSettings: strict),
        .target(
            name: "SnapshotRendering",
            dependencies: ["TrackModel", "TrackFormats", "TrackCleaning", "MapGeometry", "Raster", "PNGEncoding", "MapTiles"],
            swiftSettings: strict),
        // Time zones: boundary polygons linked in as data (CTimeZoneData), looked up by TimeZones,
        // which also reads the IANA rules (TZif) for the offset at a moment.
        .target(name: "CTimeZoneData", exclude: ["timezones.bin", "LICENSE-ODbL.txt"], cSettings: [.headerSearchPath(".")]),
        .target(name: "TimeZones", dependencies: ["CTimeZoneData"], swiftSettings: strict),
        .target(name: "FileStore", swiftSettings: strict),
        .target(name: "ContentHash", swiftSettings: strict),
        .target(name: "JobQueue", dependencies: ["FileStore", "ContentHash"], swiftSettings: strict),
        .target(
            name: "ThumbnailCache", dependencies: ["SnapshotRendering", "Raster", "FileStore", "ContentHash", "MapTiles"],
            swiftSettings: strict),
        .target(
            name: "HistoryListing", dependencies: ["ThumbnailCache", "JobQueue", "FileStore", "ContentHash", "TimeZones"],
            swiftSettings: strict),
        .target(
            name: "BatchRun",
            dependencies: ["JobQueue", "ThumbnailCache", "HistoryListing", "SnapshotRendering", "FileStore", "ContentHash", "TileSources"],
            swiftSettings: strict),
        .target(
            name: "TrackSynthesis", dependencies: ["TrackModel", "Decompression", "SystemZlib", "TileSources", "MapTiles", "PNGEncoding", "Raster", "CLibJPEG"],
            swiftSettings: strict),
        .executableTarget(
            name: "tracksnap", dependencies: ["SnapshotRendering", "ThumbnailCache", "FileStore", "JobQueue", "BatchRun", "TileSources", "MapTiles"],
            swiftSettings: strict),
        // Developer tools: sample and benchmark track generation, benchmarks. Not installed for users.
        .executableTarget(
            name: "tracksnap-dev", dependencies: ["SnapshotRendering", "TrackFormats", "TrackSynthesis", "FileStore", "ContentHash", "JobQueue", "ThumbnailCache", "HistoryListing", "TileSources", "MapTiles"], swiftSettings: strict),

        .testTarget(
            name: "TrackFormatsTests", dependencies: ["TrackFormats", "Decompression", "TrackSynthesis"],
            swiftSettings: strict),
        .testTarget(name: "DecompressionTests", dependencies: ["Decompression", "TrackSynthesis"], swiftSettings: strict),
        .testTarget(name: "TrackCleaningTests", dependencies: ["TrackCleaning"], swiftSettings: strict),
        .testTarget(name: "MapGeometryTests", dependencies: ["MapGeometry"], swiftSettings: strict),
        .testTarget(name: "TimeZonesTests", dependencies: ["TimeZones"], swiftSettings: strict),
        .testTarget(name: "RasterTests", dependencies: ["Raster"], swiftSettings: strict),
        .testTarget(name: "PNGEncodingTests", dependencies: ["PNGEncoding"], swiftSettings: strict),
        .testTarget(name: "FileStoreTests", dependencies: ["FileStore"], swiftSettings: strict),
        .testTarget(name: "ThumbnailCacheTests", dependencies: ["ThumbnailCache", "SnapshotRendering", "Raster"], swiftSettings: strict),
        .testTarget(name: "ContentHashTests", dependencies: ["ContentHash"], swiftSettings: strict),
        .testTarget(name: "JobQueueTests", dependencies: ["JobQueue", "FileStore"], swiftSettings: strict),
        .testTarget(
            name: "BatchRunTests",
            dependencies: ["BatchRun", "JobQueue", "ThumbnailCache", "HistoryListing", "TrackSynthesis", "FileStore"],
            exclude: ["disk-full.sh"], swiftSettings: strict),
        .testTarget(
            name: "TileSourcesTests", dependencies: ["TileSources", "MapTiles", "SnapshotRendering", "TrackSynthesis", "CLibPNG", "PNGEncoding", "Raster", "ThumbnailCache", "FileStore"],
            exclude: ["tile_server.py"], swiftSettings: strict),
        .testTarget(
            name: "SnapshotRenderingTests", dependencies: ["SnapshotRendering", "TrackSynthesis"],
            swiftSettings: strict),
    ]
)

// `make fuzz` sets TRACKSNAP_FUZZ=1 to add the libFuzzer driver; it links only with
// `-sanitize=fuzzer`, so a normal build never sees it.
if Context.environment["TRACKSNAP_FUZZ"] == "1" {
    package.targets.append(
        .executableTarget(
            name: "tracksnap-fuzz", dependencies: ["TrackFormats", "Decompression", "TrackModel"], swiftSettings: strict))
}
