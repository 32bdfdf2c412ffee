import TrackModel

/// The fast path for the element that is 99% of a GPX file: one `<trkpt>` (or `<rtept>`) with its
/// `ele`, `time` and any other children, read straight from the bytes without tokens.
///
/// It handles exactly the plain case: attributes with no entities, `ele`/`time` holding plain text,
/// other children (extensions) skipped with their end tags still matched by name, whitespace
/// between elements. On anything else (a comment, CDATA, a processing instruction, an entity,
/// text mixed between elements, deep nesting, the end of the input) it returns nil before changing
/// anything, and `XMLScanner` reads the element instead, with its full checks and error positions.
/// So the fast path changes speed, never results.
struct GPXFastPath {
    let base: UnsafePointer<UInt8>
    let count: Int
    /// The day number of the last point's date.
    private var dayCache = NumberParsing.DayCache()

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        base = bytes.baseAddress ?? UnsafePointer(bitPattern: 1)!
        count = bytes.count
    }

    /// Reads the point element at or after `start` (after whitespace). `routePoint` selects
    /// `rtept` instead of `trkpt`. Returns the fix and the offset just past the element.
    mutating func point(at start: Int, routePoint: Bool) -> (fix: Fix, end: Int)? {
        var i = skipSpace(start)
        guard i + 7 < count, base[i] == UInt8(ascii: "<") else { return nil }
        let nameStart = i + 1
        // Attributes up to '>' (quote-aware), lat and lon picked out in the same pass.
        // Each as a numerator and divisor, divided once both are read (see `parsePlainDecimal`).
        var latitude = (numerator: Double.nan, divisor: 1.0), longitude = (numerator: Double.nan, divisor: 1.0)
        var sawLatitude = false, sawLongitude = false
        let nameEnd: Int, plainName: Bool
        if let plain = plainCoordinates(at: i, routePoint: routePoint) {
            // The loop below carries on after them, as it would have after reading them itself.
            (latitude, longitude, sawLatitude, sawLongitude) = (plain.latitude, plain.longitude, true, true)
            (nameEnd, plainName) = (nameStart + 5, true)
            i = plain.end
        } else {
            guard let end = findNameEnd(from: nameStart), isPointName(nameStart, end, routePoint) else { return nil }
            (nameEnd, plainName) = (end, false)
            i = end
        }
        while true {
            i = skipSpace(i)
            guard i < count else { return nil }
            let byte = base[i]
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") { break }
            let attributeStart = i
            var localStart = i
            while i < count, base[i] != UInt8(ascii: "="), !NumberParsing.isSpace(base[i]), base[i] != UInt8(ascii: ">") {
                if base[i] == UInt8(ascii: ":") { localStart = i + 1 }
                i += 1
            }
            let attributeEnd = i
            i = skipSpace(i)
            guard i < count, base[i] == UInt8(ascii: "="), attributeEnd > attributeStart else { return nil }
            i = skipSpace(i + 1)
            guard i < count, base[i] == UInt8(ascii: "\"") || base[i] == UInt8(ascii: "'") else { return nil }
            let quote = base[i]
            let valueStart = i + 1
            let isLatitude = attributeEnd - localStart == 3 && equals(localStart, attributeEnd, "lat")
            let isLongitude = !isLatitude && attributeEnd - localStart == 3 && equals(localStart, attributeEnd, "lon")
            // A coordinate is nearly always a plain decimal: read it while finding the quote.
            if isLatitude || isLongitude, let (numerator, divisor, end) = NumberParsing.parsePlainDecimal(base, valueStart, count),
                base[end] == quote
            {
                guard isLatitude ? !sawLatitude : !sawLongitude else { return nil }
                if isLatitude { latitude = (numerator, divisor) } else { longitude = (numerator, divisor) }
                sawLatitude = sawLatitude || isLatitude
                sawLongitude = sawLongitude || isLongitude
                i = end + 1
                continue
            }
            i = valueStart
            while i < count, base[i] != quote {
                if base[i] == UInt8(ascii: "&") || base[i] == UInt8(ascii: "<") { return nil }
                i += 1
            }
            guard i < count else { return nil }
            if isLatitude {
                guard !sawLatitude, let value = number(valueStart, i) else { return nil }
                latitude = (value, 1)
                sawLatitude = true
            } else if isLongitude {
                guard !sawLongitude, let value = number(valueStart, i) else { return nil }
                longitude = (value, 1)
                sawLongitude = true
            }
            i += 1
        }
        guard sawLatitude, sawLongitude else { return nil }  // the slow path reports the error
        var fix = Fix(latitudeDegrees: latitude.numerator / latitude.divisor, longitudeDegrees: longitude.numerator / longitude.divisor)
        if base[i] == UInt8(ascii: "/") {
            guard i + 1 < count, base[i + 1] == UInt8(ascii: ">") else { return nil }
            return (fix, i + 2)
        }
        i += 1
        // Children until the matching end tag.
        while true {
            i = skipSpace(i)
            guard i + 1 < count, base[i] == UInt8(ascii: "<") else { return nil }  // mixed text: slow path
            let marker = base[i + 1]
            if marker == UInt8(ascii: "/") {
                if plainName, closes(at: i, routePoint ? 0x3E74_7065_7472_2F3C : 0x3E74_706B_7274_2F3C, length: 8) {  // </rtept>, </trkpt>
                    return (fix, i + 8)
                }
                guard let end = endTag(at: i, matching: nameStart, nameEnd) else { return nil }
                return (fix, end)
            }
            if marker == UInt8(ascii: "!") || marker == UInt8(ascii: "?") { return nil }
            let childStart = i + 1
            let childEnd: Int, tagEnd: Int, isElevation: Bool, isTime: Bool, plainChildName: Bool
            if let plain = plainChild(at: i) {
                (childEnd, tagEnd, isElevation, isTime) = (plain.nameEnd, plain.nameEnd, plain.isElevation, !plain.isElevation)
                plainChildName = true
            } else {
                plainChildName = false
                guard let nameEnd = findNameEnd(from: childStart) else { return nil }
                var localStart = childStart
                for k in childStart..<nameEnd where base[k] == UInt8(ascii: ":") { localStart = k + 1 }
                isElevation = equals(localStart, nameEnd, "ele")
                isTime = equals(localStart, nameEnd, "time")
                guard let end = self.tagEnd(from: nameEnd) else { return nil }
                (childEnd, tagEnd) = (nameEnd, end)
            }
            if base[tagEnd - 1] == UInt8(ascii: "/") {  // <ele/>: nothing recorded
                i = tagEnd + 1
                continue
            }
            let textStart = tagEnd + 1
            if isElevation, let (numerator, divisor, textEnd) = NumberParsing.parsePlainDecimal(base, textStart, count),
                base[textEnd] == UInt8(ascii: "<")
            {
                // A plain number read in the pass that found its end (no '&' or '<' inside).
                let closed = plainChildName && closes(at: textEnd, 0x3E65_6C65_2F3C, length: 6)  // </ele>
                guard let end = closed ? textEnd + 6 : endTag(at: textEnd, matching: childStart, childEnd) else { return nil }
                fix.elevationMeters = numerator / divisor
                i = end
            } else if isTime, textStart + 20 < count, base[textStart + 20] == UInt8(ascii: "<"),
                let seconds = NumberParsing.parseCanonicalUTC(buffer, textStart, textStart + 20, &dayCache)
            {
                // The canonical layout checks every byte, so none is '&' or '<'.
                let closed = plainChildName && closes(at: textStart + 20, 0x3E_656D_6974_2F3C, length: 7)  // </time>
                guard let end = closed ? textStart + 27 : endTag(at: textStart + 20, matching: childStart, childEnd) else { return nil }
                fix.timeSeconds = seconds
                i = end
            } else if isElevation || isTime {
                var textEnd = textStart
                while textEnd < count, base[textEnd] != UInt8(ascii: "<") {
                    if base[textEnd] == UInt8(ascii: "&") { return nil }
                    textEnd += 1
                }
                guard let end = endTag(at: textEnd, matching: childStart, childEnd) else { return nil }
                if isElevation {
                    if textStart < textEnd {
                        guard let value = number(textStart, textEnd) else { return nil }
                        fix.elevationMeters = value
                    }
                } else {
                    fix.timeSeconds = NumberParsing.parseISO8601(buffer, textStart, textEnd) ?? .nan
                }
                i = end
            } else {
                guard let end = skipElement(contentStart: tagEnd + 1, nameStart: childStart, nameEnd: childEnd) else { return nil }
                i = end
            }
        }
    }

    private var buffer: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always)
    private func number(_ start: Int, _ end: Int) -> Double? {
        NumberParsing.parseDouble(buffer, start, end)
    }

    @inline(__always)
    private func skipSpace(_ start: Int) -> Int {
        var i = start
        while i < count, NumberParsing.isSpace(base[i]) { i += 1 }
        return i
    }

    /// At `<ele>` or `<time>` spelled plainly (no prefix, no attributes), the children nearly every
    /// point has: the offset of its '>' (where the name ends) and which of the two it is, from one
    /// 8-byte compare instead of scanning the name and the tag; nil for anything else.
    @inline(__always)
    private func plainChild(at start: Int) -> (nameEnd: Int, isElevation: Bool)? {
        guard start + 8 <= count else { return nil }
        let word = word(at: start)
        if word & 0xFF_FFFF_FFFF == 0x3E_656C_653C { return (start + 4, true) }  // "<ele>"
        if word & 0xFFFF_FFFF_FFFF == 0x3E65_6D69_743C { return (start + 5, false) }  // "<time>"
        return nil
    }

    /// At `<trkpt lat="…" lon="…"` (`<rtept` for a route point) spelled exactly so, one space
    /// apart, with both values plain decimals (see `NumberParsing.parsePlainDecimal`): both as
    /// numerator and divisor, and the offset just past the longitude's closing quote; nil for
    /// anything else, which the name scan and the attribute loop read. Nearly every device
    /// writes this opening; it replaces their byte-by-byte name and attribute scans by three
    /// word compares (the point reader's instructions a fix: 1,380 → 970 at 7,200 fixes).
    @inline(__always)
    private func plainCoordinates(
        at start: Int, routePoint: Bool
    ) -> (latitude: (numerator: Double, divisor: Double), longitude: (numerator: Double, divisor: Double), end: Int)? {
        guard start + 12 <= count,
            word(at: start) == (routePoint ? 0x6C20_7470_6574_723C : 0x6C20_7470_6B72_743C),  // "<rtept l", "<trkpt l"
            UInt32(littleEndian: UnsafeRawPointer(base + start + 8).loadUnaligned(as: UInt32.self)) == 0x223D_7461,  // at="
            let latitude = NumberParsing.parsePlainDecimal(base, start + 12, count), latitude.end + 8 <= count,
            word(at: latitude.end) & 0xFF_FFFF_FFFF_FFFF == 0x22_3D6E_6F6C_2022,  // " lon="
            let longitude = NumberParsing.parsePlainDecimal(base, latitude.end + 7, count), base[longitude.end] == UInt8(ascii: "\"")
        else { return nil }
        return ((latitude.numerator, latitude.divisor), (longitude.numerator, longitude.divisor), longitude.end + 1)
    }

    /// The eight bytes at `start` (which the caller checked are there), the first in the low byte.
    @inline(__always)
    private func word(at start: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(base + start).loadUnaligned(as: UInt64.self))
    }

    /// Whether the `length` (at most 8) bytes at `start` are the end tag `tag` (its bytes from
    /// the low one up): for a name known at compile time, the compare `endTag` builds from the
    /// name's bytes, where it then returns `start + length` as well.
    @inline(__always)
    private func closes(at start: Int, _ tag: UInt64, length: Int) -> Bool {
        start + 8 <= count && word(at: start) & (length == 8 ? ~0 : (1 << UInt64(8 * length)) - 1) == tag
    }

    /// The end of an element name starting at `start`; nil when there is none.
    @inline(__always)
    private func findNameEnd(from start: Int) -> Int? {
        var i = start
        while i < count {
            let byte = base[i]
            if byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || NumberParsing.isSpace(byte) { break }
            if byte == UInt8(ascii: "<") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") { return nil }
            i += 1
        }
        return i > start && i < count ? i : nil
    }

    /// The offset of the '>' closing a start tag whose name ends at `start` (quote-aware); nil
    /// when the attributes hold anything the slow path should judge.
    private func tagEnd(from start: Int) -> Int? {
        var i = start
        var quote: UInt8 = 0
        while i < count {
            let byte = base[i]
            if quote != 0 {
                if byte == quote { quote = 0 } else if byte == UInt8(ascii: "<") { return nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ">") {
                return i
            } else if byte == UInt8(ascii: "<") {
                return nil
            }
            i += 1
        }
        return nil
    }

    /// At `</name>` for the element named `nameStart..<nameEnd`: the offset past it, else nil.
    @inline(__always)
    private func endTag(at start: Int, matching nameStart: Int, _ nameEnd: Int) -> Int? {
        let length = nameEnd - nameStart
        // `</ele>`, `</time>`, `</trkpt>`: a name of up to five bytes closed right away is one
        // 8-byte compare; anything else (a longer name, space before '>') is read below.
        if length <= 5, start + 8 <= count, nameStart + 8 <= count {
            let bytesCompared = 8 * (length + 3)
            let mask: UInt64 = bytesCompared == 64 ? ~0 : (1 << UInt64(bytesCompared)) - 1
            let name = word(at: nameStart) & ((1 << UInt64(8 * length)) - 1)
            let expected: UInt64 = 0x2F3C | name << 16 | 0x3E << UInt64(8 * (length + 2))
            if word(at: start) & mask == expected { return start + length + 3 }
        }
        guard start + length + 2 < count, base[start] == UInt8(ascii: "<"), base[start + 1] == UInt8(ascii: "/") else { return nil }
        for k in 0..<length where base[start + 2 + k] != base[nameStart + k] { return nil }
        var i = skipSpace(start + 2 + length)
        guard i < count, base[i] == UInt8(ascii: ">") else { return nil }
        i += 1
        return i
    }

    /// Skips an element's content and end tag; nested elements are matched by name. Gives up on
    /// comments, CDATA and nesting deeper than 8.
    private func skipElement(contentStart: Int, nameStart: Int, nameEnd: Int) -> Int? {
        withUnsafeTemporaryAllocation(of: (start: Int, end: Int).self, capacity: 8) { open -> Int? in
            var depth = 0
            var current = (start: nameStart, end: nameEnd)
            var i = contentStart
            while true {
                while i < count, base[i] != UInt8(ascii: "<") { i += 1 }
                guard i + 1 < count else { return nil }
                let marker = base[i + 1]
                if marker == UInt8(ascii: "!") || marker == UInt8(ascii: "?") { return nil }
                if marker == UInt8(ascii: "/") {
                    guard let end = endTag(at: i, matching: current.start, current.end) else { return nil }
                    if depth == 0 { return end }
                    depth -= 1
                    current = open[depth]
                    i = end
                    continue
                }
                let childStart = i + 1
                guard let childEnd = findNameEnd(from: childStart), let tagEnd = tagEnd(from: childEnd) else { return nil }
                i = tagEnd + 1
                if base[tagEnd - 1] == UInt8(ascii: "/") { continue }
                guard depth < 8 else { return nil }
                open[depth] = current
                depth += 1
                current = (childStart, childEnd)
            }
        }
    }

    @inline(__always)
    private func isPointName(_ start: Int, _ end: Int, _ routePoint: Bool) -> Bool {
        var localStart = start
        for k in start..<end where base[k] == UInt8(ascii: ":") { localStart = k + 1 }
        return equals(localStart, end, routePoint ? "rtept" : "trkpt")
    }

    @inline(__always)
    private func equals(_ start: Int, _ end: Int, _ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard end - start == length else { return false }
        let pointer = literal.utf8Start
        for k in 0..<length where base[start + k] != pointer[k] { return false }
        return true
    }
}
