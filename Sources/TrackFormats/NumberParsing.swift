import TrackModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Number and time parsing straight from bytes. Parsing decimals is most of a track reader's
/// time (strtod is ~2/3 of a byte scanner's cost), so the common case is done here exactly and
/// everything unusual falls back to `strtod`, which is correct for every input.
enum NumberParsing {
    /// Powers of ten exactly representable as Double (10^0 ... 10^22). Written out: a literal
    /// array is laid down at build time, where one computed at first use is a lazy global whose
    /// `swift_once` every number read would call.
    private static let exactPowersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// Parses a decimal number in `bytes[start..<end]`, ignoring surrounding ASCII whitespace.
    /// Accepts what `strtod` accepts for decimals (sign, digits, fraction, exponent, and
    /// "nan"/"inf"); returns nil when the text is not one complete number.
    static func parseDouble(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var lo = start
        var hi = end
        while lo < hi, isSpace(bytes[lo]) { lo += 1 }
        while hi > lo, isSpace(bytes[hi - 1]) { hi -= 1 }
        if lo == hi { return nil }
        var i = lo
        var negative = false
        if bytes[i] == UInt8(ascii: "-") {
            negative = true
            i += 1
        } else if bytes[i] == UInt8(ascii: "+") {
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        var sawDigit = false
        while i < hi, bytes[i] &- 48 < 10 {
            mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48)
            digits += mantissa == 0 ? 0 : 1
            sawDigit = true
            i += 1
        }
        if i < hi, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < hi, bytes[i] &- 48 < 10 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48)
                digits += mantissa == 0 ? 0 : 1
                exponent -= 1
                sawDigit = true
                i += 1
            }
        }
        if i < hi, bytes[i] | 0x20 == UInt8(ascii: "e"), sawDigit {
            var j = i + 1
            var expNegative = false
            if j < hi, bytes[j] == UInt8(ascii: "-") || bytes[j] == UInt8(ascii: "+") {
                expNegative = bytes[j] == UInt8(ascii: "-")
                j += 1
            }
            var explicit = 0
            var sawExpDigit = false
            while j < hi, bytes[j] &- 48 < 10 {
                if explicit < 100_000 { explicit = explicit * 10 + Int(bytes[j] &- 48) }
                sawExpDigit = true
                j += 1
            }
            if !sawExpDigit { return slowParse(bytes, lo, hi) }
            exponent += expNegative ? -explicit : explicit
            i = j
        }
        guard sawDigit, i == hi else { return slowParse(bytes, lo, hi) }
        // Clinger's fast path: an exact mantissa times an exact power of ten rounds once.
        guard digits <= 15, mantissa < (1 << 53), exponent >= -22, exponent <= 22 else {
            return slowParse(bytes, lo, hi)
        }
        var value = Double(mantissa)
        value = exponent < 0 ? value / exactPowersOfTen[-exponent] : value * exactPowersOfTen[exponent]
        return negative ? -value : value
    }

    /// Reads a plain decimal (`-48.8565988`, `53.4`: an optional minus, digits, an optional
    /// fraction) starting at `start` and stopping at the first byte that is none of these; `count`
    /// is where the bytes end. Returns the value as `numerator / divisor` (both exact, the
    /// division left to the caller) and the offset where it stopped when that number takes
    /// `parseDouble`'s exact path, so `parseDouble(start..<end)` would return the same value; nil
    /// for anything else (no digit, a sign other than minus, an exponent, 16 or more significant
    /// digits), which the caller then reads the general way. It lets a scanner read a number and
    /// find where its text ends in one pass.
    ///
    /// Why the division is the caller's: it is the one slow instruction (7% of an 18,000-fix
    /// track's time, the point reader waiting on it), and a point's latitude and longitude divided
    /// one after the other overlap in the divider. `(-m) / d` is `-(m / d)` and `m / 1` is `m`
    /// exactly, so the value is bit for bit `parseDouble`'s.
    @inline(__always)
    static func parsePlainDecimal(_ base: UnsafePointer<UInt8>, _ start: Int, _ count: Int) -> (numerator: Double, divisor: Double, end: Int)? {
        var i = start
        let negative = i < count && base[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0
        var exponent = 0
        let digitsStart = i
        while i < count, base[i] &- 48 < 10 {
            mantissa = mantissa &* 10 &+ UInt64(base[i] &- 48)
            digits += mantissa == 0 ? 0 : 1
            i += 1
        }
        var sawDigit = i > digitsStart
        if i < count, base[i] == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            while i < count, base[i] &- 48 < 10 {
                mantissa = mantissa &* 10 &+ UInt64(base[i] &- 48)
                digits += mantissa == 0 ? 0 : 1
                i += 1
            }
            exponent = fractionStart - i
            sawDigit = sawDigit || i > fractionStart
        }
        // An exponent, or digits running past the fast path, go the general way.
        guard sawDigit, i < count, base[i] | 0x20 != UInt8(ascii: "e"), digits <= 15, mantissa < (1 << 53), exponent >= -22 else { return nil }
        let numerator = Double(mantissa)
        return (negative ? -numerator : numerator, exactPowersOfTen[-exponent], i)
    }

    /// `strtod` on a NUL-terminated copy; the whole text must be consumed.
    private static func slowParse(_ bytes: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int) -> Double? {
        let length = hi - lo
        if length > 512 { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer -> Double? in
            for k in 0..<length { buffer[k] = CChar(bitPattern: bytes[lo + k]) }
            buffer[length] = 0
            var endPointer: UnsafeMutablePointer<CChar>?
            let value = strtod(buffer.baseAddress!, &endPointer)
            guard let endPointer, endPointer - buffer.baseAddress! == length else { return nil }
            // strtod also takes hexadecimal floats, which no track format uses.
            for k in 0..<length where buffer[k] == CChar(UInt8(ascii: "x")) || buffer[k] == CChar(UInt8(ascii: "X")) {
                return nil
            }
            return value
        }
    }

    /// ASCII whitespace: space, tab, CR, LF.
    @inline(__always)
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// Parses an ISO 8601 / xsd:dateTime such as `2024-05-01T07:30:00Z`,
    /// `2024-05-01 07:30:00.250+02:00` or `2024-05-01T07:30:00` (read as UTC) into seconds since
    /// the Unix epoch. Returns nil when the text is not such a time.
    static func parseISO8601(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        if let fast = parseCanonicalUTC(bytes, start, end) { return fast }
        var i = start
        var hi = end
        while i < hi, isSpace(bytes[i]) { i += 1 }
        while hi > i, isSpace(bytes[hi - 1]) { hi -= 1 }
        func number(_ width: Int) -> Int? {
            guard i + width <= hi else { return nil }
            var value = 0
            for k in 0..<width {
                let digit = bytes[i + k] &- 48
                guard digit < 10 else { return nil }
                value = value * 10 + Int(digit)
            }
            i += width
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < hi, bytes[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(UInt8(ascii: "-")), let month = number(2),
            expect(UInt8(ascii: "-")), let day = number(2), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var seconds = Double(CivilCalendar.day(year: year, month: month, day: day)) * 86_400
        if i == hi { return seconds }
        guard i < hi, bytes[i] == UInt8(ascii: "T") || bytes[i] == UInt8(ascii: " ") else { return nil }
        i += 1
        guard let hour = number(2), expect(UInt8(ascii: ":")), let minute = number(2), hour < 24, minute < 60
        else { return nil }
        var second = 0.0
        if expect(UInt8(ascii: ":")) {
            guard let whole = number(2), whole <= 60 else { return nil }
            second = Double(whole)
            if i < hi, bytes[i] == UInt8(ascii: ".") || bytes[i] == UInt8(ascii: ",") {
                i += 1
                var scale = 0.1
                var sawDigit = false
                while i < hi, bytes[i] &- 48 < 10 {
                    second += Double(bytes[i] &- 48) * scale
                    scale /= 10
                    sawDigit = true
                    i += 1
                }
                if !sawDigit { return nil }
            }
        }
        seconds += Double(hour * 3600 + minute * 60) + second
        if i == hi { return seconds }
        if bytes[i] == UInt8(ascii: "Z") || bytes[i] == UInt8(ascii: "z") {
            return i + 1 == hi ? seconds : nil
        }
        guard bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") else { return nil }
        let sign = bytes[i] == UInt8(ascii: "-") ? -1.0 : 1.0
        i += 1
        guard let offsetHours = number(2) else { return nil }
        _ = expect(UInt8(ascii: ":"))
        let offsetMinutes = i < hi ? number(2) : 0
        guard let offsetMinutes, i == hi, offsetHours <= 14, offsetMinutes < 60 else { return nil }
        // A local time at +02:00 is two hours ahead of UTC: subtract the offset.
        return seconds - sign * Double(offsetHours * 3600 + offsetMinutes * 60)
    }

    /// How far into a text file `firstRecordedUTCOffset` looks for the first time.
    static let recordedOffsetScanBytes = 1 << 20

    /// The UTC offset (seconds east) written with the first ISO 8601 date-time in the first MiB of
    /// a text file (`2024-06-15T08:30:00+02:00` → 7200), nil when that time is UTC (`Z`,
    /// `+00:00`, read as plain UTC by many exporters), has no offset, or there is no time.
    static func firstRecordedUTCOffset(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let end = min(bytes.count, recordedOffsetScanBytes)
        @inline(__always) func digit(_ index: Int) -> Int? {
            guard index < end else { return nil }
            let value = bytes[index] &- 48
            return value < 10 ? Int(value) : nil
        }
        var i = 0
        // YYYY-MM-DDThh:mm: dashes at +4 and +7, T (or space) at +10, colon at +13.
        while i + 16 <= end {
            guard bytes[i + 4] == UInt8(ascii: "-"), bytes[i + 7] == UInt8(ascii: "-"),
                bytes[i + 10] == UInt8(ascii: "T") || bytes[i + 10] == UInt8(ascii: " "), bytes[i + 13] == UInt8(ascii: ":"),
                [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15].allSatisfy({ digit(i + $0) != nil })
            else {
                i += 1
                continue
            }
            var k = i + 16
            // Seconds and a fraction.
            while k < end, digit(k) != nil || bytes[k] == UInt8(ascii: ":") || bytes[k] == UInt8(ascii: ".") || bytes[k] == UInt8(ascii: ",") {
                k += 1
            }
            guard k < end, bytes[k] == UInt8(ascii: "+") || bytes[k] == UInt8(ascii: "-"),
                let h1 = digit(k + 1), let h2 = digit(k + 2)
            else { return nil }
            let sign = bytes[k] == UInt8(ascii: "-") ? -1 : 1
            var m = k + 3
            if m < end, bytes[m] == UInt8(ascii: ":") { m += 1 }
            let minutes = (digit(m) ?? 0) * 10 + (digit(m + 1) ?? 0)
            let hours = h1 * 10 + h2
            guard hours <= 14, minutes < 60 else { return nil }
            let seconds = sign * (hours * 3600 + minutes * 60)
            return seconds == 0 ? nil : seconds
        }
        return nil
    }

    /// What `parseCanonicalUTC` read last: the day number of its date, keyed by the date's ten
    /// bytes (a track's fixes nearly all share one date, and the calendar arithmetic was 2.6% of
    /// an 18,000-fix track), and the seconds at the start of its minute, keyed by the sixteen
    /// bytes `YYYY-MM-DDTHH:MM` (a fix a second shares them with up to 59 others: only the
    /// seconds are read then).
    struct DayCache {
        /// The date's bytes `YYYY-MM-DD` (eight and two); zero until a date is read.
        var key: (UInt64, UInt16) = (0, 0)
        /// Its days since 1970-01-01.
        var days = 0
        /// The bytes `YYYY-MM-DDTHH:MM` of the last time read whole (valid when `knowsMinute`).
        var minuteKey: (UInt64, UInt64) = (0, 0)
        /// Whether `minuteKey` holds a time read whole (no bytes are reserved to say "none").
        var knowsMinute = false
        /// Seconds since 1970 at the start of that minute.
        var minuteSeconds = 0
    }

    /// The one layout nearly every device writes, `YYYY-MM-DDTHH:MM:SSZ` (20 bytes), read with no
    /// branching per field; anything else goes to the general parser.
    @inline(__always)
    static func parseCanonicalUTC(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        var cache = DayCache()
        return parseCanonicalUTC(bytes, start, end, &cache)
    }

    /// The same, reusing the minute or the day number read before when this time shares them.
    @inline(__always)
    static func parseCanonicalUTC(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, _ cache: inout DayCache) -> Double? {
        guard end - start == 20, let base = bytes.baseAddress else { return nil }
        let p = base + start
        let minuteKey = (UnsafeRawPointer(p).loadUnaligned(as: UInt64.self), UnsafeRawPointer(p + 8).loadUnaligned(as: UInt64.self))
        if cache.knowsMinute, minuteKey == cache.minuteKey {
            // The sixteen bytes passed every check below before; the rest are checked here, and
            // anything else goes the whole way (to give nil as before).
            let tens = p[17] &- 48, ones = p[18] &- 48
            if p[16] == UInt8(ascii: ":"), p[19] == UInt8(ascii: "Z"), tens < 10, ones < 10, tens < 6 || (tens == 6 && ones == 0) {
                return Double(cache.minuteSeconds + Int(tens) * 10 + Int(ones))
            }
        }
        guard p[4] == UInt8(ascii: "-"), p[7] == UInt8(ascii: "-"), p[10] == UInt8(ascii: "T"), p[13] == UInt8(ascii: ":"),
            p[16] == UInt8(ascii: ":"), p[19] == UInt8(ascii: "Z")
        else { return nil }
        var allDigits = true
        @inline(__always) func digits(_ offset: Int, _ count: Int) -> Int {
            var value = 0
            for k in 0..<count {
                let digit = p[offset + k] &- 48
                allDigits = allDigits && digit < 10
                value = value &* 10 &+ Int(digit)
            }
            return value
        }
        let year = digits(0, 4), month = digits(5, 2), day = digits(8, 2)
        let hour = digits(11, 2), minute = digits(14, 2), second = digits(17, 2)
        guard allDigits, (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second <= 60 else { return nil }
        let key = (UnsafeRawPointer(p).loadUnaligned(as: UInt64.self), UnsafeRawPointer(p + 8).loadUnaligned(as: UInt16.self))
        if key != cache.key {
            cache.key = key
            cache.days = CivilCalendar.day(year: year, month: month, day: day)
        }
        cache.minuteKey = minuteKey
        cache.knowsMinute = true
        cache.minuteSeconds = cache.days * 86_400 + hour * 3600 + minute * 60
        return Double(cache.minuteSeconds + second)
    }
}
