import TrackModel
/// A POSIX TZ rule such as `CET-1CEST,M3.5.0,M10.5.0/3`: a TZif file's footer, which gives the
/// offsets after its last transition (slim TZif files stop listing transitions early, fat ones in
/// 2037). Offsets in the text count west of UTC; the properties here count east.
package struct PosixTimeZone: Sendable, Equatable {
    /// A day of the year on which daylight saving time starts or ends.
    package enum Day: Sendable, Equatable {
        /// `Jn`: day 1...365, 29 February never counted.
        case julianWithoutLeapDay(Int)
        /// `n`: day 0...365, 29 February counted.
        case zeroBased(Int)
        /// `Mm.w.d`: weekday `d` (0 Sunday) of week `w` (5: the last) of month `m`.
        case monthWeekDay(month: Int, week: Int, weekday: Int)
    }

    /// A switch: the day and the local time of day (seconds; may be negative or past 24 h).
    package struct Switch: Sendable, Equatable {
        /// The day.
        package var day: Day
        /// Seconds after local midnight, in the local time in force before the switch.
        package var timeSeconds: Int
    }

    /// Standard time, seconds east of UTC.
    package var standardOffsetSeconds: Int
    /// Daylight saving time, seconds east of UTC; nil when the zone has none.
    package var daylightOffsetSeconds: Int?
    /// When daylight saving time starts and ends (nil without DST).
    package var start: Switch?, end: Switch?

    /// Parses the rule; nil when it is not of the POSIX form.
    package init?(_ text: String) {
        var rest = Substring(text)
        func name() -> Bool {
            if rest.first == "<" {
                guard let close = rest.firstIndex(of: ">") else { return false }
                rest = rest[rest.index(after: close)...]
                return true
            }
            let letters = rest.prefix { $0.isLetter }
            guard letters.count >= 3 else { return false }
            rest = rest.dropFirst(letters.count)
            return true
        }
        // [+-]hh[:mm[:ss]], in seconds (sign as written).
        func clock() -> Int? {
            var sign = 1
            if rest.first == "+" || rest.first == "-" {
                if rest.first == "-" { sign = -1 }
                rest = rest.dropFirst()
            }
            var parts: [Int] = []
            while parts.count < 3 {
                let digits = rest.prefix { $0.isASCII && $0.isNumber }
                guard !digits.isEmpty, let value = Int(digits) else { break }
                parts.append(value)
                rest = rest.dropFirst(digits.count)
                guard rest.first == ":" else { break }
                rest = rest.dropFirst()
            }
            guard let hours = parts.first else { return nil }
            return sign * (hours * 3600 + (parts.count > 1 ? parts[1] * 60 : 0) + (parts.count > 2 ? parts[2] : 0))
        }
        func number() -> Int? {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            rest = rest.dropFirst(digits.count)
            return Int(digits)
        }
        func switchRule() -> Switch? {
            guard rest.first == "," else { return nil }
            rest = rest.dropFirst()
            let day: Day
            if rest.first == "M" {
                rest = rest.dropFirst()
                guard let month = number(), rest.first == "." else { return nil }
                rest = rest.dropFirst()
                guard let week = number(), rest.first == "." else { return nil }
                rest = rest.dropFirst()
                guard let weekday = number(), (1...12).contains(month), (1...5).contains(week), (0...6).contains(weekday) else { return nil }
                day = .monthWeekDay(month: month, week: week, weekday: weekday)
            } else if rest.first == "J" {
                rest = rest.dropFirst()
                guard let n = number(), (1...365).contains(n) else { return nil }
                day = .julianWithoutLeapDay(n)
            } else {
                guard let n = number(), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var time = 7200
            if rest.first == "/" {
                rest = rest.dropFirst()
                guard let value = clock() else { return nil }
                time = value
            }
            return Switch(day: day, timeSeconds: time)
        }
        guard name(), let standardWest = clock() else { return nil }
        standardOffsetSeconds = -standardWest
        guard !rest.isEmpty else { return }
        guard name() else { return nil }
        daylightOffsetSeconds = standardOffsetSeconds + 3600
        if let first = rest.first, first != "," {
            guard let daylightWest = clock() else { return nil }
            daylightOffsetSeconds = -daylightWest
        }
        // Without rules POSIX leaves the dates to the implementation; the US rules are the custom.
        if rest.isEmpty {
            start = Switch(day: .monthWeekDay(month: 3, week: 2, weekday: 0), timeSeconds: 7200)
            end = Switch(day: .monthWeekDay(month: 11, week: 1, weekday: 0), timeSeconds: 7200)
            return
        }
        guard let start = switchRule(), let end = switchRule(), rest.isEmpty else { return nil }
        self.start = start
        self.end = end
    }

    /// The offset east of UTC at a moment.
    package func utcOffsetSeconds(at seconds: Int64) -> Int {
        guard let daylight = daylightOffsetSeconds, let start, let end else { return standardOffsetSeconds }
        let year = CivilCalendar.date(ofDay: Int((seconds + Int64(standardOffsetSeconds)).floorDivided(by: 86_400))).year
        // Each switch is given in the local time in force before it.
        let startUTC = Int64(Self.dayNumber(start.day, year: year)) * 86_400 + Int64(start.timeSeconds - standardOffsetSeconds)
        let endUTC = Int64(Self.dayNumber(end.day, year: year)) * 86_400 + Int64(end.timeSeconds - daylight)
        let inDaylight = startUTC < endUTC ? (seconds >= startUTC && seconds < endUTC) : !(seconds >= endUTC && seconds < startUTC)
        return inDaylight ? daylight : standardOffsetSeconds
    }

    /// Days since 1970-01-01 of the rule's day in `year`.
    static func dayNumber(_ day: Day, year: Int) -> Int {
        let january1 = CivilCalendar.day(year: year, month: 1, day: 1)
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        switch day {
        case .julianWithoutLeapDay(let n): return january1 + n - 1 + (leap && n >= 60 ? 1 : 0)
        case .zeroBased(let n): return january1 + n
        case .monthWeekDay(let month, let week, let weekday):
            let first = CivilCalendar.day(year: year, month: month, day: 1)
            let firstWeekday = ((first + 4) % 7 + 7) % 7  // 1970-01-01 was a Thursday
            var dayOfMonth = 1 + (weekday - firstWeekday + 7) % 7 + (week - 1) * 7
            let monthLength = CivilCalendar.day(year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1, day: 1) - first
            while dayOfMonth > monthLength { dayOfMonth -= 7 }
            return first + dayOfMonth - 1
        }
    }
}

extension Int64 {
    /// Division rounding towards negative infinity.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
