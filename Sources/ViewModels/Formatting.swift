import Foundation

/// Weak business formatting: how prices, areas and ages read on screen.
package enum Formatting {
    /// `¥3,200/mo` for a rent, `¥4.35M` for a sale price.
    package static func price(_ yuan: Int, monthly: Bool) -> String {
        if monthly { return "¥" + grouped(yuan) + "/mo" }
        if yuan >= 1_000_000 {
            let millions = Double(yuan) / 1_000_000
            return "¥" + String(format: "%.2fM", millions)
        }
        return "¥" + grouped(yuan)
    }

    /// `85 m²`.
    package static func area(_ squareMetres: Int) -> String {
        "\(squareMetres) m²"
    }

    /// `just now`, `3 min ago`, `5 h ago`, `2 d ago`.
    package static func age(of date: Date, now: Date) -> String {
        let interval = now.timeIntervalSince(date)
        guard interval.isFinite else { return "" }
        // Clamped, so absurd dates (from a server or a file) read as ages, not crashes.
        let seconds = Int(min(max(0, interval), 3e12))
        switch seconds {
        case ..<60: return "just now"
        case ..<3_600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3_600) h ago"
        default: return "\(seconds / 86_400) d ago"
        }
    }

    private static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(character)
        }
        return (number < 0 ? "-" : "") + result
    }
}
