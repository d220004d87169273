import Foundation
import Testing

/// Each framework module's getting-started article shows code the tests compile and run:
/// its Swift code blocks, in order, are the regions of the test sources marked
/// `// article: Module/Article` ... `// article end`, in order.
@Suite struct DocumentationExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The Swift code blocks of a Markdown text: fenced with backticks or tildes, the
    /// language in any case. A block left open is an issue.
    static func codeBlocks(in text: String) -> [String] {
        var blocks: [String] = []
        var open: (fence: String, isSwift: Bool, lines: [Substring])?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if let block = open {
                if trimmed == block.fence {
                    if block.isSwift { blocks.append(block.lines.joined(separator: "\n")) }
                    open = nil
                } else {
                    open?.lines.append(line)
                }
            } else if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                let language = trimmed.dropFirst(3).trimmingCharacters(in: .whitespaces).lowercased()
                open = (String(trimmed.prefix(3)), language.hasPrefix("swift"), [])
            }
        }
        if open != nil { Issue.record("a code block is never closed") }
        return blocks
    }

    /// The marked regions of the test sources, by article, each without its common indentation.
    static func regions() throws -> [String: [String]] {
        var regions: [String: [String]] = [:]
        let tests = root.appendingPathComponent("Tests")
        let files =
            FileManager.default.enumerator(atPath: tests.path)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted() ?? []
        for file in files {
            let text = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
            var key: String?
            var lines: [Substring] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let trimmed = line.drop { $0 == " " }
                if trimmed.hasPrefix("// article: ") {
                    if let open = key { Issue.record("\(file): the region of \(open) is never ended") }
                    key = String(trimmed.dropFirst("// article: ".count))
                    lines = []
                } else if trimmed == "// article end", let open = key {
                    let indent = lines.filter { !$0.isEmpty }.map { $0.prefix { $0 == " " }.count }.min() ?? 0
                    regions[open, default: []].append(
                        lines.map { String($0.dropFirst(min(indent, $0.count))) }
                            .joined(separator: "\n"))
                    key = nil
                } else if trimmed == "// article end" {
                    Issue.record("\(file): an article region ends that never began")
                } else if key != nil {
                    lines.append(line)
                }
            }
            if let open = key { Issue.record("\(file): the region of \(open) is never ended") }
        }
        return regions
    }

    @Test func everyGettingStartedArticleShowsTheCodeItsTestRuns() throws {
        let regions = try Self.regions()
        var checked: [String] = []
        for module in ["Signals", "SignalsTesting", "Networking", "Persistence", "Mediator"] {
            let article = Self.root.appendingPathComponent("Sources/\(module)/\(module).docc/GettingStarted.md")
            guard let text = try? String(contentsOf: article, encoding: .utf8) else {
                Issue.record("\(module) has no GettingStarted article")
                continue
            }
            let blocks = Self.codeBlocks(in: text)
            #expect(!blocks.isEmpty, "\(module)'s article shows no code")
            #expect(blocks == regions["\(module)/GettingStarted"] ?? [], "\(module)'s article and its test differ")
            checked.append(module)
        }
        #expect(checked.count == 5)
    }

    /// The README's search screen is the getting-started article's, which its test runs.
    @Test func theReadmeShowsTheSearchScreenTheArticleRuns() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let search = (try Self.regions())["Signals/GettingStarted"]?.first {
            $0.hasPrefix("// A request is a Producer")
        }
        #expect(search != nil, "the article has no search screen")
        if let search { #expect(Self.codeBlocks(in: readme).contains(search), "the README's search screen differs") }
    }

    /// Other articles with code: each shows exactly the code its test runs.
    @Test(arguments: [
        "SignalsTesting/TestingAsyncWork", "SignalsTesting/TestingTimelines", "Signals/ComingFromRxSwift",
        "Signals/ComingFromReactiveSwift",
    ])
    func anArticleShowsTheCodeItsTestRuns(_ name: String) throws {
        let parts = name.split(separator: "/")
        let article = Self.root.appendingPathComponent("Sources/\(parts[0])/\(parts[0]).docc/\(parts[1]).md")
        let blocks = Self.codeBlocks(in: try String(contentsOf: article, encoding: .utf8))
        #expect(!blocks.isEmpty, "\(name) shows no code")
        #expect(blocks == (try Self.regions())[name] ?? [], "\(name) and its test differ")
    }

    @Test func codeBlocksAndRegionsAreReadAsWritten() {
        let text = "text\n```swift\nlet a = 1\n\nlet b = 2\n```\n```sh\nls\n```\n~~~ Swift\nlet c = 3\n~~~"
        #expect(Self.codeBlocks(in: text) == ["let a = 1\n\nlet b = 2", "let c = 3"])
        withKnownIssue { _ = Self.codeBlocks(in: "```swift\nlet open = 1") }
    }
}
