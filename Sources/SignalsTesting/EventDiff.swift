/// Compares recorded timelines and prints them side by side.
enum EventDiff {
    static func matches<Value>(
        _ expected: [RecordedEvent<Value>],
        _ actual: [RecordedEvent<Value>],
        by areEquivalent: (Value, Value) -> Bool
    ) -> Bool {
        guard expected.count == actual.count else { return false }
        return zip(expected, actual).allSatisfy { pair in
            switch pair {
            case (.value(let a), .value(let b)): return areEquivalent(a, b)
            case (.completed, .completed): return true
            default: return false
            }
        }
    }

    /// A readable two-column diff: every position, with `✗` where the timelines differ.
    static func describe<Value>(
        title: String,
        expected: [RecordedEvent<Value>],
        actual: [RecordedEvent<Value>]
    ) -> String {
        let rows = max(expected.count, actual.count)
        let left = (0..<rows).map { $0 < expected.count ? "\($0): \(expected[$0])" : "(none)" }
        let right = (0..<rows).map { $0 < actual.count ? "\($0): \(actual[$0])" : "(none)" }
        let width = max(8, left.map(\.count).max() ?? 0)
        var lines = ["\(title):", "    " + "expected".padded(to: width) + "   actual"]
        for row in 0..<rows {
            let same = left[row] == right[row]
            lines.append((same ? "    " : "  ✗ ") + left[row].padded(to: width) + "   " + right[row])
        }
        return lines.joined(separator: "\n")
    }
}

extension String {
    func padded(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
