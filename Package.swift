// swift-tools-version:6.0
// TrackSnap: recorded GPS tracks in, map snapshots (PNG) out.
// One target per stage of the pipeline; edges run one way (ARCHITECTURE.md lists which target may
// import which; `make lint` checks it).
import PackageDescription

/// The settings of every Swift target (applied at the end, after the fuzzing driver is added):
/// Swift 6 language mode, so strict concurrency checking everywhere.
let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

/// The release executables' link: `Linker/` holds two linker scripts named like the C++ runtime's
/// and the unwinder's shared libraries, found before them, that link GCC's static archives
/// instead. With the Swift runtime static (`--static-swift-stdlib`, every release build), the
/// process then loads no libstdc++.so and no libgcc_s.so at start: `tracksnap --version` 0.4 ms
/// faster (docs/performance.md, issue 24 §3). Release only: a debug build links the Swift runtime
/// as a shared library, which brings its own libstdc++.so.
let releaseExecutableLinking: [LinkerSetting] = [.unsafeFlags(["-L", Context.packageDirectory + "/Linker"], .when(configuration: .release))]

let package = Package(
    name: "TrackSnap",
    products: [
        /// The pipeline as a library a server can call: track bytes + options → PNG bytes + render info.
        .library(name: "TrackSnap", targets: ["SnapshotRendering"]),
        /// The reader family alone, for a caller that only reads tracks.
        .library(name: "TrackFormats", targets: ["TrackFormats"]),
        .executable(name: "tracksnap", targets: ["tracksnap"]),
    ],
    targets: [
        .target(name: "TrackModel"),
        // zlib, libpng and libdeflate are linked statically (their module maps name the `.a`), as
        // SQLite and libjpeg are: three fewer shared objects to find, map and relocate at every
        // process start (0.1 ms of `tracksnap --version`, docs/performance.md); no pkg-config, whose
        // flags would name the shared libraries.
        .systemLibrary(name: "SystemZlib", providers: [.apt(["zlib1g-dev"])]),
        .target(name: "Decompression", dependencies: ["SystemZlib"]),
        .target(name: "TrackFormats", dependencies: ["TrackModel", "Decompression"]),
        .target(name: "TrackCleaning", dependencies: ["TrackModel"]),
        .target(name: "MapGeometry", dependencies: ["TrackModel"]),
        .target(name: "Raster", dependencies: ["MapGeometry"]),
        .systemLibrary(name: "SystemLibPNG", providers: [.apt(["libpng-dev"])]),
        // The C shim is the one user of libpng's functions, so it names the archives (libpng, then
        // the zlib and libm it calls: a static archive resolves only what precedes it).
        .target(
            name: "CLibPNG", dependencies: ["SystemLibPNG"],
            linkerSettings: [.linkedLibrary(":libpng16.a"), .linkedLibrary(":libz.a"), .linkedLibrary("m")]),
        .target(name: "PNGEncoding", dependencies: ["Raster", "CLibPNG"]),
        // Basemaps: the pure half (tile plan, resampling) below the compositing, and the sources
        // (MBTiles through SQLite, tile folders, URL templates through libcurl) with their decoders.
        .target(name: "MapTiles", dependencies: ["MapGeometry", "Raster", "VectorTiles"]),
        .systemLibrary(name: "SystemSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "CLibJPEG", linkerSettings: [.linkedLibrary(":libjpeg.a")]),
        .target(name: "CLibCurl"),
        .systemLibrary(name: "SystemLibDeflate", providers: [.apt(["libdeflate-dev"])]),
        .target(
            name: "TileSources",
            dependencies: [
                "MapTiles", "VectorTiles", "JSONDocument", "CLibPNG", "CLibJPEG", "CLibCurl", "SystemSQLite", "FileStore", "ContentHash",
                "SystemLibDeflate",
            ]),
        .target(
            name: "SnapshotRendering",
            dependencies: [
                "TrackModel", "TrackFormats", "TrackCleaning", "MapGeometry", "Raster", "PNGEncoding", "MapTiles", "MapStyle", "VectorMap",
            ]),
        // Time zones: boundary polygons linked in as data (CTimeZoneData), looked up by TimeZones,
        // which also reads the IANA rules (TZif) for the offset at a moment.
        .target(name: "CTimeZoneData", exclude: ["timezones.bin", "LICENSE-ODbL.txt"], cSettings: [.headerSearchPath(".")]),
        .target(name: "TimeZones", dependencies: ["CTimeZoneData", "TrackModel"]),
        .target(name: "FileStore"),
        .target(name: "CSHA256"),
        .target(name: "ContentHash", dependencies: ["CSHA256"]),
        // The JSON reader of the style documents (a tree with line and column in every error).
        .target(name: "JSONDocument"),
        // Vector maps, pure: Mapbox Vector Tile decoding and the PMTiles container (bytes in, features out).
        .target(name: "VectorTiles", dependencies: ["Decompression", "JSONDocument"]),
        // The MapLibre style documents of vector basemaps: filters and zoom functions → draw rules.
        .target(name: "MapStyle", dependencies: ["JSONDocument"], exclude: ["Styles"]),
        // Drawing a vector basemap: tiles + a style's draw rules → coverage blended into the image.
        .target(name: "VectorMap", dependencies: ["VectorTiles", "MapStyle", "MapTiles", "Raster", "MapGeometry"]),
        // glibc's malloc.h (mallopt), which the Glibc module leaves out: how a worker keeps freed memory.
        .systemLibrary(name: "SystemMalloc"),
        .target(name: "JobQueue", dependencies: ["FileStore", "ContentHash"]),
        // The archive at a glance, pure: density counts per region, regions, the heat-map picture.
        .target(name: "ArchiveOverview", dependencies: ["MapGeometry", "Raster", "PNGEncoding"]),
        // The cache as plain values (keys, the store's files and locks, the listing's record): the
        // listing reads it without linking the renderer.
        .target(name: "ThumbnailCache", dependencies: ["FileStore", "ContentHash", "JSONDocument"]),
        // The style file: what a run draws (`ThumbnailSettings`, its fingerprint) read from JSON.
        .target(
            name: "StyleFile",
            dependencies: [
                "JSONDocument", "ThumbnailCache", "SnapshotRendering", "TrackFormats", "Raster", "MapTiles", "ContentHash", "ArchiveOverview",
            ]),
        .target(
            name: "HistoryListing",
            dependencies: ["ThumbnailCache", "JobQueue", "FileStore", "ContentHash", "TimeZones", "JSONDocument", "ArchiveOverview", "MapGeometry"]),
        .target(
            name: "BatchRun",
            dependencies: [
                "JobQueue", "ThumbnailCache", "StyleFile", "HistoryListing", "SnapshotRendering", "MapTiles", "FileStore", "ContentHash",
                "TileSources", "ArchiveOverview", "TrackCleaning", "TrackModel", "SystemMalloc", "MapGeometry", "Raster",
            ]),
        .target(
            name: "TrackSynthesis",
            dependencies: [
                "TrackModel", "Decompression", "SystemZlib", "TileSources", "MapTiles", "PNGEncoding", "Raster", "CLibJPEG", "JSONDocument",
            ]),
        .executableTarget(
            name: "tracksnap",
            dependencies: ["SnapshotRendering", "StyleFile", "FileStore", "JobQueue", "BatchRun", "TileSources", "MapTiles", "MapStyle"],
            linkerSettings: releaseExecutableLinking),
        // Developer tools: sample and benchmark track generation, benchmarks. Not installed for users.
        .executableTarget(
            name: "tracksnap-dev",
            dependencies: [
                "SnapshotRendering", "TrackFormats", "TrackSynthesis", "FileStore", "ContentHash", "JobQueue", "ThumbnailCache", "StyleFile",
                "HistoryListing", "BatchRun", "TileSources", "MapTiles", "VectorTiles", "ArchiveOverview", "PNGEncoding", "Raster", "MapGeometry",
            ],
            linkerSettings: releaseExecutableLinking),

        .testTarget(
            name: "TrackFormatsTests", dependencies: ["TrackFormats", "Decompression", "TrackSynthesis"]),
        .testTarget(name: "DecompressionTests", dependencies: ["Decompression", "TrackSynthesis"]),
        .testTarget(name: "TrackCleaningTests", dependencies: ["TrackCleaning"]),
        .testTarget(name: "MapGeometryTests", dependencies: ["MapGeometry"]),
        .testTarget(name: "TimeZonesTests", dependencies: ["TimeZones"]),
        .testTarget(name: "RasterTests", dependencies: ["Raster"]),
        .testTarget(name: "PNGEncodingTests", dependencies: ["PNGEncoding"]),
        .testTarget(name: "MapTilesTests", dependencies: ["MapTiles", "MapGeometry", "Raster"]),
        .testTarget(name: "FileStoreTests", dependencies: ["FileStore"]),
        .testTarget(
            name: "StyleFileTests", dependencies: ["StyleFile", "ThumbnailCache", "SnapshotRendering", "Raster", "MapTiles", "TrackSynthesis"]),
        .testTarget(name: "ThumbnailCacheTests", dependencies: ["ThumbnailCache", "ContentHash", "JSONDocument"]),
        .testTarget(name: "ContentHashTests", dependencies: ["ContentHash"]),
        .testTarget(name: "VectorTilesTests", dependencies: ["VectorTiles", "Decompression", "JSONDocument", "TrackSynthesis"]),
        .testTarget(name: "MapStyleTests", dependencies: ["MapStyle"]),
        .testTarget(name: "JSONDocumentTests", dependencies: ["JSONDocument"]),
        .testTarget(
            name: "VectorMapTests",
            dependencies: ["VectorMap", "VectorTiles", "MapStyle", "MapTiles", "MapGeometry", "Raster", "PNGEncoding", "TrackSynthesis"]),
        .testTarget(name: "JobQueueTests", dependencies: ["JobQueue", "FileStore", "TestSupport"]),
        .testTarget(
            name: "HistoryListingTests",
            dependencies: ["HistoryListing", "ArchiveOverview", "ContentHash", "FileStore", "MapGeometry", "StyleFile", "ThumbnailCache"]),
        .testTarget(name: "ArchiveOverviewTests", dependencies: ["ArchiveOverview", "MapGeometry", "Raster", "PNGEncoding"]),
        .testTarget(
            name: "BatchRunTests",
            dependencies: [
                "BatchRun", "JobQueue", "ThumbnailCache", "HistoryListing", "TrackSynthesis", "FileStore", "TestSupport", "ArchiveOverview",
                "MapGeometry", "MapTiles", "Raster", "StyleFile",
            ],
            exclude: ["disk-full.sh"]),
        .testTarget(
            name: "TileSourcesTests",
            dependencies: [
                "TileSources", "MapTiles", "SnapshotRendering", "TrackSynthesis", "CLibPNG", "PNGEncoding", "Raster", "ThumbnailCache", "StyleFile",
                "BatchRun", "FileStore", "TestSupport", "VectorTiles",
            ],
            exclude: ["tile_server.py"]),
        .testTarget(
            name: "SnapshotRenderingTests",
            dependencies: [
                "SnapshotRendering", "TrackSynthesis", "TileSources", "MapTiles", "VectorTiles", "PNGEncoding", "Raster", "ArchiveOverview",
                "MapGeometry",
            ]),
        // The command line: the tests run the built `tracksnap` binary (an executable cannot be imported).
        .testTarget(name: "tracksnapTests"),
        // Processes and files several test targets set up (a loopback tile server, a SQLite lock holder).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
    ]
)

// `make fuzz` sets TRACKSNAP_FUZZ=1 to add the libFuzzer driver; it links only with
// `-sanitize=fuzzer`, so a normal build never sees it.
if Context.environment["TRACKSNAP_FUZZ"] == "1" {
    package.targets.append(
        .executableTarget(
            name: "tracksnap-fuzz", dependencies: ["TrackFormats", "Decompression", "TrackModel"]))
}

for target in package.targets where target.type != .system {
    target.swiftSettings = strict
}
