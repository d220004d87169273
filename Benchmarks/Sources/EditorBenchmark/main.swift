// editor-bench: the line editor alone (keys in, screen bytes out) against a floor, in one
// process.
//
// Every scenario runs the floor (the same work written by hand: an array of characters
// and the bytes any editor must write for a key) and the editor alternately, `--runs`
// times each, and prints the medians and their ratio. The editor is driven as the
// terminal drives it: one key per read, each key applied then drawn, the bytes kept.
//
//   swift build -c release --package-path Benchmarks --product editor-bench
//   Benchmarks/.build/release/editor-bench --runs 7             every scenario
//   Benchmarks/.build/release/editor-bench --runs 3 T M          chosen scenarios; --scale X scales the repeats
//   Benchmarks/.build/release/editor-bench --runs 1 --only editor T100K   (perf, callgrind)
//   editor-bench --check-thresholds Benchmarks/Thresholds/editor-bench.json   (CI: allocation counts)
import BenchmarkSupport
import Foundation
import LineEditing

// MARK: - Options

let scenarioNames: Set = ["T100", "T10K", "T100K", "M300", "V300", "R15K", "R2K", "S4K"]
let options = BenchmarkOptions.parse(
    program: "editor-bench", defaultRuns: 7, library: "editor",
    usage: "[T100 T10K T100K M300 V300 R15K R2K S4K, or their letters T M V R S]..."
) { name in
    // A letter chooses every scenario of that letter (`options.isChosen`).
    let name = name.uppercased()
    return scenarioNames.contains(name) || scenarioNames.map { String($0.prefix { $0.isLetter }) }.contains(name)
        ? name : nil
}

/// A threshold run counts the editor's allocations at this scale (2,000 keys for T100, 40
/// for M300, 600 for V300; the searches and S4K do not scale), whatever `--scale` says, so
/// that the counts stay comparable.
let thresholdScale = 0.01
let thresholdRun = options.thresholds.map { ThresholdRun($0, program: "editor-bench") }
let scale = thresholdRun == nil ? options.scale : thresholdScale

/// `base` repeats of a scenario's work, scaled, at least one.
func count(_ base: Int) -> Int { max(1, Int(Double(base) * scale)) }

/// Bytes written, summed so that no work is optimised away.
nonisolated(unsafe) var bytesOut = 0

// MARK: - Measuring

/// The editor's medians, kept for the growth line.
nonisolated(unsafe) var editorMedians: [String: Double] = [:]

/// Runs floor and editor alternately (which goes first alternates too) and prints the
/// medians per event, their ratio and the editor's allocations per event.
///
/// In a threshold run it runs the editor only (`ThresholdRun.measure`) and records its
/// allocations, unless the scenario is `counted: false`: T10K and T100K, whose line is as
/// long at any scale (too long for CI's debug build).
@MainActor
func compare(
    _ name: String, _ title: String, unit: String, counted: Bool = true, floor: () -> Sample,
    editor: () -> Sample
) {
    guard
        let medians = options.compare(
            name, counted: counted, thresholdRun: thresholdRun, floor: floor, library: editor)
    else { return }
    editorMedians[name] = medians.library
    print(
        name.padding(toLength: 7, withPad: " ", startingAt: 0)
            + title.padding(toLength: 64, withPad: " ", startingAt: 0)
            + String(
                format: "floor %10.1f ns  editor %10.1f ns  ratio %6.2fx  %7.1f allocs  per %@", medians.floor,
                medians.library, medians.ratio, medians.allocations, unit))
}

// MARK: - The editor and the floor

let prompt = "homes> "
let width = 80

/// The editor without its terminal, as `LineEditor` runs it: each key sent to the
/// controller, which sets its state property; the view model derived through Signals
/// (`combineLatest(state, screen).map`) is drawn by the view its binding feeds. A colour
/// screen, so each key also looks for a suggestion in the history and has the line
/// coloured (by `highlightLikeTheApp`).
final class Editor {
    private let controller: LineEditorController

    init(history: [String] = []) {
        let screen = EditorScreen(colors: true, highlight: highlightLikeTheApp)
        controller = LineEditorController(prompt: prompt, history: history, screen: screen) {
            width
        }
        controller.begin(prompt: prompt, history: history)
        bytesOut &+= controller.takeOutput().utf8.count
    }

    /// One read: `key` applied and drawn; the bytes to write are counted.
    func press(_ key: Key) {
        controller.apply(key)
        bytesOut &+= controller.takeOutput().utf8.count
    }
}

/// Colours a line as the app's highlighter does, at about its cost: every character read
/// once to split words (as `CommandParser.scan` does), the first word looked up in a set
/// of commands, a span per command word.
@Sendable func highlightLikeTheApp(_ line: String) -> [HighlightSpan] {
    let commands: Set<String> = ["list", "more", "open", "fav", "unfav", "help", "quit", "ask", "filter"]
    var spans: [HighlightSpan] = []
    var word = ""
    var start = 0
    var position = 0
    var isFirst = true
    for character in line + " " {
        if character == " " || character == ";" {
            if !word.isEmpty, isFirst {
                spans.append(HighlightSpan(start..<position, commands.contains(word) ? .command : .unknownCommand))
                isFirst = false
            }
            if character == ";" { isFirst = true }
            word = ""
            start = position + 1
        } else {
            word.append(character)
        }
        position += 1
    }
    return spans
}

/// The same without Signals: the line applied and drawn by hand, for the cost of the
/// view model's derivation and binding per key (scenario V).
final class DirectEditor {
    private var buffer = LineBuffer()
    private let view = LineView { width }

    private var model: EditorViewModel {
        let display = buffer.display(prompt: prompt)
        return EditorViewModel(prompt: display.prompt, text: display.text, cursor: display.cursor)
    }

    func press(_ key: Key) {
        _ = buffer.apply(key)
        bytesOut &+= view.render(model).utf8.count
    }
}

/// The least an editor must do for a key: keep the characters, and write what the key
/// changed (the character typed, a line break at the end of a row; from an insert in the
/// middle, the rest of the line).
final class Floor {
    private var text: [Character] = []
    private var cursor = 0

    func type(_ character: Character) {
        text.insert(character, at: cursor)
        cursor += 1
        var output = cursor == text.count ? String(character) : String(text[(cursor - 1)...])
        if (prompt.count + cursor) % width == 0 { output += "\r\n" }
        bytesOut &+= output.utf8.count
    }

    func backspace() {
        guard cursor > 0 else { return }
        cursor -= 1
        text.remove(at: cursor)
        bytesOut &+= ("\u{8}\u{1B}[J" + String(text[cursor...])).utf8.count
    }

    func moveTo(_ index: Int) {
        cursor = index
        bytesOut &+= "\r\u{1B}[\(cursor)C".utf8.count
    }
}

/// `count` characters: words of nine letters, a space after each.
func words(_ count: Int, offset: Int = 0) -> [Character] {
    let letters: [Character] = Array("abcdefghijklmnopqrstuvwxyz")
    return (0..<count).map { index in (index + offset) % 10 == 9 ? " " : letters[(index * 7 + offset) % 26] }
}

/// `count` characters of letters and spaces in no pattern (a generator seeded by `seed`),
/// so no entry repeats another.
func scrambled(_ count: Int, seed: UInt64) -> [Character] {
    let letters: [Character] = Array("abcdefghijklmnopqrstuvwxyz ")
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    return (0..<count).map { _ in
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return letters[Int(state % UInt64(letters.count))]
    }
}

// MARK: - T: typing a line of n characters, one key per read

// T10K and T100K are not counted in a threshold run: their line is as long at any scale.
for (name, length, baseRepeats) in [("T100", 100, 2_000), ("T10K", 10_000, 4), ("T100K", 100_000, 1)] {
    let line = words(length)
    let repeats = count(baseRepeats)
    compare(
        name, "type \(length) characters, one key per read", unit: "key", counted: name == "T100",
        floor: {
            measure(events: length * repeats) {
                for _ in 0..<repeats {
                    let floor = Floor()
                    for character in line { floor.type(character) }
                }
            }
        },
        editor: {
            measure(events: length * repeats) {
                for _ in 0..<repeats {
                    let editor = Editor()
                    for character in line { editor.press(.character(character)) }
                }
            }
        })
}

// MARK: - M: keys in the middle of a 300-character line

do {
    let line = words(300)
    let pairs = count(2_000)
    compare(
        "M300", "insert + backspace at column 150 of 300 characters", unit: "key",
        floor: {
            let floor = Floor()
            for character in line { floor.type(character) }
            floor.moveTo(150)
            return measure(events: pairs * 2) {
                for _ in 0..<pairs {
                    floor.type("x")
                    floor.backspace()
                }
            }
        },
        editor: {
            let editor = Editor()
            editor.press(.paste(String(line)))
            editor.press(.home)
            for _ in 0..<150 { editor.press(.right) }
            return measure(events: pairs * 2) {
                for _ in 0..<pairs {
                    editor.press(.character("x"))
                    editor.press(.backspace)
                }
            }
        })
}

// MARK: - V: the view model through Signals, against the same keys drawn by hand

do {
    let line = words(300)
    let repeats = count(200)
    compare(
        "V300", "type 300 characters: through Signals vs by hand", unit: "key",
        floor: {
            measure(events: line.count * repeats) {
                for _ in 0..<repeats {
                    let editor = DirectEditor()
                    for character in line { editor.press(.character(character)) }
                }
            }
        },
        editor: {
            measure(events: line.count * repeats) {
                for _ in 0..<repeats {
                    let editor = Editor(history: ["list new", "open 3"])
                    for character in line { editor.press(.character(character)) }
                }
            }
        })
}

// MARK: - R: a paste into Ctrl-R over a full history of long lines

if ["R15K", "R2K"].contains(where: options.isChosen) {
    let capacity = 1_000
    let history = (0..<capacity).map { String(scrambled(LineHistory.maximumLineLength, seed: UInt64($0))) }
    /// Reading every entry once: the least any search through the history does.
    func readHistoryOnce() -> Sample {
        measure(events: 1) {
            var sum = 0
            for entry in history { for byte in entry.utf8 { sum &+= Int(byte) } }
            bytesOut &+= sum & 1
        }
    }
    let cases = [
        ("R15K", "paste 15,000 characters matching nothing", String(words(15_000, offset: 3)) + "#"),
        ("R2K", "paste the oldest entry's last 2,000 characters", String(history[0].suffix(2_000))),
    ]
    for (name, title, pasted) in cases {
        compare(
            name, title + " (1,000 x 4,096)", unit: "paste",
            floor: readHistoryOnce,
            editor: {
                let editor = Editor(history: history)
                editor.press(.control("r"))
                return measure(events: 1) { editor.press(.paste(pasted)) }
            })
    }
}

// MARK: - S: typing what the history suggests, over a full history of long lines

if options.isChosen("S4K") {
    // 999 entries in no pattern, and the newest: the line typed and more after it, so
    // every key finds the suggestion and shows the rest of it (4,096 characters at first).
    let typed = words(LineHistory.maximumLineLength - 96)
    let history =
        (0..<999).map { String(scrambled(LineHistory.maximumLineLength, seed: UInt64($0))) }
        + [String(typed) + String(words(96, offset: 5))]
    compare(
        "S4K", "type 4,000 characters the history suggests (1,000 x 4,096)", unit: "key",
        floor: {
            measure(events: typed.count) {
                let floor = Floor()
                for character in typed { floor.type(character) }
            }
        },
        editor: {
            let editor = Editor(history: history)
            return measure(events: typed.count) {
                for character in typed { editor.press(.character(character)) }
            }
        })
}

// MARK: - Growth

if let small = editorMedians["T100"], let medium = editorMedians["T10K"], let large = editorMedians["T100K"] {
    print(
        String(
            format:
                "growth: a key costs %.0f ns at 100 characters, %.0f ns at 10,000 (x%.2f), %.0f ns at 100,000 (x%.2f)",
            small, medium, medium / small, large, large / small))
}
if let suggested = editorMedians["S4K"] {
    print(String(format: "a key typed as suggested, over a full history: %.1f us", suggested / 1_000))
}
if let middle = editorMedians["M300"] {
    print(String(format: "a key in the middle of a 300-character line: %.1f us (goal: under 1,000 us)", middle / 1_000))
}
thresholdRun?.finish()
print("(bytes written: \(bytesOut))")
