import Decompression
import SystemZlib

/// gzip and zip writing with zlib, for test corpora (the product only reads them).
package enum Compression {
    /// `bytes` deflated with zlib at `level`: raw deflate, or wrapped as a gzip member.
    package static func deflate(_ bytes: [UInt8], gzip: Bool, level: Int32 = 6) -> [UInt8] {
        var stream = z_stream()
        precondition(
            deflateInit2_(&stream, level, Z_DEFLATED, gzip ? 31 : -15, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
                == Z_OK)
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 64)
        var input = bytes
        let written: Int = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                precondition(SystemZlib.deflate(&stream, Z_FINISH) == Z_STREAM_END)
                return target.count - Int(stream.avail_out)
            }
        }
        return Array(output[0..<written])
    }

    /// A zip archive of `files` (path, contents), each deflated or stored.
    package static func zip(_ files: [(path: String, contents: [UInt8])], deflated: Bool = true) -> [UInt8] {
        var archive: [UInt8] = []
        var directory: [UInt8] = []
        func u16(_ value: Int, _ into: inout [UInt8]) { into += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: UInt32, _ into: inout [UInt8]) { u16(Int(value & 0xFFFF), &into); u16(Int(value >> 16), &into) }
        for file in files {
            let data = deflated ? deflate(file.contents, gzip: false) : file.contents
            let crc = file.contents.withUnsafeBufferPointer { CRC32.checksum($0) }
            let name = Array(file.path.utf8)
            let offset = UInt32(archive.count)
            u32(0x0403_4B50, &archive); u16(20, &archive); u16(0, &archive); u16(deflated ? 8 : 0, &archive)
            u16(0, &archive); u16(0x21, &archive)  // time, date (1980-01-01)
            u32(crc, &archive); u32(UInt32(data.count), &archive); u32(UInt32(file.contents.count), &archive)
            u16(name.count, &archive); u16(0, &archive)
            archive += name + data
            u32(0x0201_4B50, &directory); u16(20, &directory); u16(20, &directory); u16(0, &directory)
            u16(deflated ? 8 : 0, &directory); u16(0, &directory); u16(0x21, &directory)
            u32(crc, &directory); u32(UInt32(data.count), &directory); u32(UInt32(file.contents.count), &directory)
            u16(name.count, &directory); u16(0, &directory); u16(0, &directory); u16(0, &directory); u16(0, &directory)
            u32(0, &directory); u32(offset, &directory)
            directory += name
        }
        let directoryOffset = UInt32(archive.count)
        archive += directory
        u32(0x0605_4B50, &archive); u16(0, &archive); u16(0, &archive); u16(files.count, &archive); u16(files.count, &archive)
        u32(UInt32(directory.count), &archive); u32(directoryOffset, &archive); u16(0, &archive)
        return archive
    }
}
