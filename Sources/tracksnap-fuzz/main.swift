// libFuzzer driver for the reader family. Built only by `make fuzz` (TRACKSNAP_FUZZ=1 adds this
// target to the package), with `-sanitize=fuzzer,address`. libFuzzer's own `main` cannot be used
// because SwiftPM renames an executable's entry point, so this `main` hands control to libFuzzer
// through `LLVMFuzzerRunDriver`. TRACKSNAP_FUZZ_READER picks the reader:
// gpx, csv, tcx, fit, kml, kmz, geojson, gzip (gzip + sniffing + any reader), or any (sniffing).
import Decompression
import TrackFormats
import TrackModel

#if canImport(Glibc)
import Glibc
#endif

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Smaller limits than the defaults so that a legitimately large output is not mistaken for a
/// leak or an out-of-memory finding; the limit logic itself is exercised the same way.
let fuzzLimits: DecodingLimits = {
    var limits = DecodingLimits()
    limits.maximumFixes = 2_000_000
    limits.decompression.maximumOutputBytes = 64 << 20
    return limits
}()

let readerName = getenv("TRACKSNAP_FUZZ_READER").map { String(cString: $0) } ?? "any"
let reader: (any TrackReader.Type)? = TrackFormat(rawValue: readerName).flatMap { TrackDecoder.reader(for: $0) }
if readerName != "any", readerName != "gzip", reader == nil {
    let message = Array("TRACKSNAP_FUZZ_READER must be one of gpx csv tcx fit kml kmz geojson gzip any, not \(readerName)\n".utf8)
    _ = write(2, message, message.count)
    exit(2)
}

var argc = CommandLine.argc
var argv = CommandLine.unsafeArgv
exit(
    LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        let bytes = UnsafeBufferPointer(start: data, count: size)
        if let reader {
            _ = try? reader.read(bytes, limits: fuzzLimits)
        } else {
            _ = try? TrackDecoder.decode(bytes, limits: fuzzLimits)
        }
        return 0
    })
