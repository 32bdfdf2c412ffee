#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libc's `memchr` (vectorised), typed for byte buffers: the scanners' inner loop.
@inline(__always)
func memchrPointer(_ start: UnsafePointer<UInt8>, _ byte: UInt8, _ count: Int) -> UnsafePointer<UInt8>? {
    guard let found = memchr(start, Int32(byte), count) else { return nil }
    return UnsafePointer(found.assumingMemoryBound(to: UInt8.self))
}
