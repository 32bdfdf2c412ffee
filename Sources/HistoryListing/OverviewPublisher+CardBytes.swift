import FileStore

extension OverviewPublisher {
    /// A card's bytes: held, or a range of a mapped file (the listing's cache) copied only when a
    /// page that shows the card is written. A busy city's 40,000 cards are asked for at each
    /// refresh and a few dozen of them written: copying each was 40 MB moved for nothing.
    package struct CardBytes {
        private let held: ArraySlice<UInt8>
        private let file: MappedFile?
        private let range: Range<Int>

        /// Bytes held.
        package init(_ bytes: ArraySlice<UInt8>) {
            held = bytes
            file = nil
            range = 0..<0
        }

        /// The bytes at `range` of `file` (kept mapped while the card is): a cache line's last
        /// field, which a tab precedes and a newline ends; a range that is not one gives no bytes.
        package init(_ file: MappedFile, range: Range<Int>) {
            held = []
            self.file = file
            self.range = range
        }

        /// Appends the card's bytes to `out`.
        func append(to out: inout [UInt8]) {
            guard let file else { return out += held }
            let bytes = file.bytes
            guard range.lowerBound > 0, range.upperBound < bytes.count, bytes[range.lowerBound - 1] == 0x09, bytes[range.upperBound] == 0x0A
            else { return }
            out.append(contentsOf: bytes[range])
        }
    }
}
