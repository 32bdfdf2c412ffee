/// A zip archive (PKWARE APPNOTE) read from memory, enough for KMZ: the central directory,
/// stored and deflated entries, CRC-32 checks. ZIP64, encryption, multi-disk archives and other
/// compression methods are reported as unsupported, never guessed at.
public struct ZipArchive {
    /// One file in the archive, from the central directory.
    public struct Entry: Sendable, Equatable {
        /// The path inside the archive, as stored (UTF-8 or CP437 shown as UTF-8 replacement).
        public var path: String
        /// 0 stored, 8 deflate.
        public var method: UInt16
        /// CRC-32 of the uncompressed data.
        public var crc32: UInt32
        /// Compressed size in bytes.
        public var compressedSize: Int
        /// Uncompressed size in bytes.
        public var uncompressedSize: Int
        /// Offset of the entry's local header.
        public var localHeaderOffset: Int
        /// General-purpose flags (bit 0: encrypted).
        public var flags: UInt16
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    /// Entries in central-directory order.
    public let entries: [Entry]

    /// Whether `bytes` starts with a local file header signature.
    public static func hasMagic(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 4 && bytes[0] == 0x50 && bytes[1] == 0x4B && bytes[2] == 0x03 && bytes[3] == 0x04
    }

    /// Reads the central directory. `bytes` must outlive the archive.
    public init(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecompressionError) {
        self.bytes = bytes
        let end = try Self.findEndOfCentralDirectory(bytes)
        let diskNumber = Self.u16(bytes, end + 4), directoryDisk = Self.u16(bytes, end + 6)
        guard diskNumber == 0, directoryDisk == 0 else {
            throw DecompressionError(.unsupported, at: end, "multi-disk zip archives are not supported")
        }
        let count = Int(Self.u16(bytes, end + 10))
        let directorySize = Int(Self.u32(bytes, end + 12))
        let directoryOffset = Int(Self.u32(bytes, end + 16))
        if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF {
            throw DecompressionError(.unsupported, at: end, "ZIP64 archives are not supported")
        }
        guard directoryOffset <= end, directorySize <= end - directoryOffset else {
            throw DecompressionError(
                .malformed, at: end,
                "the central directory (\(directorySize) bytes at \(directoryOffset)) lies outside the archive")
        }
        var entries: [Entry] = []
        entries.reserveCapacity(min(count, directorySize / 46))
        var p = directoryOffset
        for index in 0..<count {
            guard p + 46 <= end, Self.u32(bytes, p) == 0x0201_4B50 else {
                throw DecompressionError(.malformed, at: p, "expected central directory entry \(index + 1) of \(count) (signature 50 4b 01 02)")
            }
            let nameLength = Int(Self.u16(bytes, p + 28))
            let extraLength = Int(Self.u16(bytes, p + 30))
            let commentLength = Int(Self.u16(bytes, p + 32))
            let next = p + 46 + nameLength + extraLength + commentLength
            guard next <= end else {
                throw DecompressionError(.malformed, at: p, "central directory entry \(index + 1) runs past the directory")
            }
            let entry = Entry(
                path: String(decoding: bytes[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self),
                method: Self.u16(bytes, p + 10), crc32: Self.u32(bytes, p + 16),
                compressedSize: Int(Self.u32(bytes, p + 20)), uncompressedSize: Int(Self.u32(bytes, p + 24)),
                localHeaderOffset: Int(Self.u32(bytes, p + 42)), flags: Self.u16(bytes, p + 8))
            entries.append(entry)
            p = next
        }
        self.entries = entries
    }

    /// The uncompressed bytes of `entry`, checked against its CRC-32 and size.
    public func contents(of entry: Entry, limits: DecompressionLimits = DecompressionLimits()) throws(DecompressionError) -> [UInt8] {
        let header = entry.localHeaderOffset
        guard entry.flags & 1 == 0 else {
            throw DecompressionError(.unsupported, at: header, "\(entry.path) is encrypted")
        }
        if entry.compressedSize == 0xFFFF_FFFF || entry.uncompressedSize == 0xFFFF_FFFF {
            throw DecompressionError(.unsupported, at: header, "\(entry.path) is a ZIP64 entry, which is not supported")
        }
        guard header <= bytes.count - 30, Self.u32(bytes, header) == 0x0403_4B50 else {
            throw DecompressionError(.malformed, at: header, "expected the local header of \(entry.path) (signature 50 4b 03 04)")
        }
        let dataStart = header + 30 + Int(Self.u16(bytes, header + 26)) + Int(Self.u16(bytes, header + 28))
        guard dataStart <= bytes.count, entry.compressedSize <= bytes.count - dataStart else {
            throw DecompressionError(.malformed, at: header, "\(entry.path): the archive ends before its \(entry.compressedSize) compressed bytes")
        }
        let data = UnsafeBufferPointer(rebasing: bytes[dataStart..<(dataStart + entry.compressedSize)])
        let budget = limits.outputBudget(inputBytes: max(entry.compressedSize, 1))
        var output: [UInt8]
        switch entry.method {
        case 0:
            output = Array(data)
        case 8:
            guard entry.uncompressedSize <= budget else {
                throw DecompressionError(
                    .limitExceeded, at: header,
                    "\(entry.path) declares \(entry.uncompressedSize) bytes from \(entry.compressedSize) compressed, over the limit of \(budget); refused as a likely decompression bomb"
                )
            }
            output = []
            do {
                _ = try Inflater.inflate(data, from: 0, wrapper: .raw, budget: budget, into: &output, what: entry.path)
            } catch {
                // The inflater counts from the entry's data; errors name the offset in the archive.
                throw DecompressionError(error.kind, at: dataStart + error.byteOffset, error.message)
            }
        default:
            throw DecompressionError(
                .unsupported, at: header, "\(entry.path) uses compression method \(entry.method); only stored (0) and deflate (8) are supported")
        }
        guard output.count == entry.uncompressedSize else {
            throw DecompressionError(.malformed, at: dataStart, "\(entry.path): expected \(entry.uncompressedSize) bytes, inflated \(output.count)")
        }
        let crc = output.withUnsafeBufferPointer { CRC32.checksum($0) }
        guard crc == entry.crc32 else {
            // At the entry's data (its local header is at byte 0 for the first entry, which read
            // as if every KMZ error were at the start of the file).
            throw DecompressionError(
                .malformed, at: dataStart,
                "\(entry.path) (data from byte \(dataStart)): CRC-32 mismatch, expected \(hex(entry.crc32)), computed \(hex(crc))")
        }
        return output
    }

    /// The end-of-central-directory record: the last 22+ bytes, searched back over a comment of up to 64 KiB.
    private static func findEndOfCentralDirectory(_ bytes: UnsafeBufferPointer<UInt8>) throws(DecompressionError) -> Int {
        guard bytes.count >= 22 else {
            throw DecompressionError(.malformed, at: 0, "a zip archive is at least 22 bytes; this one has \(bytes.count)")
        }
        let lowest = max(0, bytes.count - 22 - 0xFFFF)
        var p = bytes.count - 22
        while p >= lowest {
            if bytes[p] == 0x50, u32(bytes, p) == 0x0605_4B50, p + 22 + Int(u16(bytes, p + 20)) == bytes.count { return p }
            p -= 1
        }
        throw DecompressionError(
            .malformed, at: bytes.count, "no end-of-central-directory record (50 4b 05 06): the zip archive is truncated or not a zip")
    }

    private static func u16(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func u32(_ bytes: UnsafeBufferPointer<UInt8>, _ offset: Int) -> UInt32 {
        UInt32(u16(bytes, offset)) | UInt32(u16(bytes, offset + 2)) << 16
    }
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 8 - digits.count) + digits
}
