import MapStyle
import Testing

@Suite struct StyleColorTests {
    @Test func hexInEveryLength() {
        #expect(StyleColor(css: "#f80") == StyleColor(red: 1, green: 0x88 / 255, blue: 0))
        #expect(StyleColor(css: "#f808") == StyleColor(red: 1, green: 0x88 / 255, blue: 0, alpha: 0x88 / 255))
        #expect(StyleColor(css: "#FF8000") == StyleColor(red: 1, green: 0x80 / 255, blue: 0))
        #expect(StyleColor(css: "#ff800080") == StyleColor(red: 1, green: 0x80 / 255, blue: 0, alpha: 0x80 / 255))
        #expect(StyleColor(css: "#ff80") != nil && StyleColor(css: "#ff800") == nil && StyleColor(css: "#gg0000") == nil)
    }

    @Test func rgbAndRGBAWithCommasAndSpaces() {
        let orange = StyleColor(red: 1, green: 128 / 255, blue: 0)
        #expect(StyleColor(css: "rgb(255, 128, 0)") == orange)
        #expect(StyleColor(css: "rgb(255 128 0)") == orange)
        #expect(StyleColor(css: "rgba(255,128,0,0.5)") == orange.multiplyingAlpha(by: 0.5))
        #expect(StyleColor(css: "rgb(255 128 0 / 50%)") == orange.multiplyingAlpha(by: 0.5))
        #expect(StyleColor(css: "rgba(100%, 0%, 0%, 1)") == StyleColor(red: 1, green: 0, blue: 0))
        #expect(StyleColor(css: "rgb(255, 128)") == nil && StyleColor(css: "rgb(a, b, c)") == nil)
    }

    @Test func hslAndHSLA() {
        #expect(close(StyleColor(css: "hsl(0, 100%, 50%)"), StyleColor(red: 1, green: 0, blue: 0)))
        #expect(close(StyleColor(css: "hsl(120, 100%, 25%)"), StyleColor(red: 0, green: 0.5, blue: 0)))
        #expect(close(StyleColor(css: "hsl(240deg 100% 50%)"), StyleColor(red: 0, green: 0, blue: 1)))
        #expect(close(StyleColor(css: "hsla(35, 57%, 88%, 0.5)"), StyleColor(red: 0.9484, green: 0.8914, blue: 0.8116, alpha: 0.5)))
        #expect(close(StyleColor(css: "hsl(30 100% 50% / 0.25)"), StyleColor(red: 1, green: 0.5, blue: 0, alpha: 0.25)))
        #expect(close(StyleColor(css: "hsl(-120, 100%, 50%)"), StyleColor(red: 0, green: 0, blue: 1)))
        #expect(StyleColor(css: "hsl(0, 100, 50)") == nil)
    }

    @Test func namedColoursAndTransparent() {
        #expect(StyleColor(css: "rebeccapurple") == StyleColor(red: 0x66 / 255, green: 0x33 / 255, blue: 0x99 / 255))
        #expect(StyleColor(css: "White") == StyleColor(red: 1, green: 1, blue: 1))
        #expect(StyleColor(css: "lightgoldenrodyellow") == StyleColor(red: 0xFA / 255, green: 0xFA / 255, blue: 0xD2 / 255))
        #expect(StyleColor(css: "grey") == StyleColor(css: "gray"))
        #expect(StyleColor(css: "transparent") == .transparent)
        #expect(StyleColor(css: "notacolour") == nil)
    }

    @Test func channelsOutOfRangeAreClamped() {
        #expect(StyleColor(css: "rgb(300, -5, 0)") == StyleColor(red: 1, green: 0, blue: 0))
        #expect(StyleColor(css: "rgba(0, 0, 0, 2)")?.alpha == 1)
    }
}
