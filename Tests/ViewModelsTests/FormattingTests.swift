import Foundation
import Testing
import ViewModels

@Suite struct FormattingTests {
    @Test func pricesAreasAndAges() {
        #expect(Formatting.price(3_600, monthly: true) == "¥3,600/mo")
        #expect(Formatting.price(4_350_000, monthly: false) == "¥4.35M")
        #expect(Formatting.price(950, monthly: false) == "¥950")
        #expect(Formatting.area(85) == "85 m²")
        let now = Date(timeIntervalSince1970: 10_000_000)
        #expect(Formatting.age(of: now, now: now) == "just now")
        #expect(Formatting.age(of: now.addingTimeInterval(-180), now: now) == "3 min ago")
        #expect(Formatting.age(of: now.addingTimeInterval(-7_300), now: now) == "2 h ago")
        #expect(Formatting.age(of: now.addingTimeInterval(-200_000), now: now) == "2 d ago")
        #expect(Formatting.age(of: now.addingTimeInterval(60), now: now) == "just now")
        #expect(Formatting.age(of: Date(timeIntervalSince1970: 1e300), now: now) == "just now")
        #expect(Formatting.age(of: Date(timeIntervalSince1970: -1e300), now: now).hasSuffix("d ago"))
        #expect(Formatting.age(of: Date(timeIntervalSince1970: .infinity), now: now) == "")
    }
}
