import Testing

@testable import Raster

/// The stroke's conversions from Double to Int (`truncatedInt`, `floorInt`, `ceilInt`), which skip
/// the checks of `Int(_:)`, against the checked conversion and `rounded`.
@Suite struct StrokeConversionTests {
    /// Values at and next to the integers a column or a ramp level can take, both signs, and the
    /// clamp's bounds.
    static let values: [Double] = {
        var values: [Double] = [0, -0.0, 0.5, -0.5, 1, -1, 2_559.5, -2_559.5, 4.5e15, -4.5e15, 1e15 + 0.5]
        for whole in [-3.0, -1, 0, 1, 2, 15, 16, 254, 255, 256, 2_560, 1_920, 8_192] {
            values += [whole, whole.nextUp, whole.nextDown, whole + 0.25, whole - 0.25, whole + 0.5, whole - 0.5, whole + 0.999_999]
        }
        return values
    }()

    @Test func truncationIsThatOfTheCheckedConversion() {
        for value in Self.values {
            #expect(truncatedInt(value) == Int(value), "\(value)")
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let value = Double.random(in: -1e12...1e12, using: &generator)
            #expect(truncatedInt(value) == Int(value), "\(value)")
        }
    }

    @Test func floorAndCeilingAreThoseOfRounding() {
        for value in Self.values {
            #expect(floorInt(value) == Int(value.rounded(.down)), "\(value)")
            #expect(ceilInt(value) == Int(value.rounded(.up)), "\(value)")
        }
    }

    @Test func infiniteAndHugeBoundsAreClampedNotWrapped() {
        // A band along an axis has an unbounded interval on one side before it is clipped.
        #expect(floorInt(-.infinity) == -4_500_000_000_000_000)
        #expect(ceilInt(-.infinity) == -4_500_000_000_000_000)
        #expect(floorInt(.infinity) == 4_500_000_000_000_000)
        #expect(ceilInt(.infinity) == 4_500_000_000_000_000)
        #expect(floorInt(-1e300) == -4_500_000_000_000_000)
        #expect(ceilInt(1e300) == 4_500_000_000_000_000)
        #expect(floorInt(4_503_599_627_370_495.5) == 4_500_000_000_000_000)
    }
}
