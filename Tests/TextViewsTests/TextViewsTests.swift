import Testing
import TextViews

@Suite struct DisplayTextTests {
    @Test func widthsCountColumnsNotCharacters() {
        #expect(DisplayText.width("abc") == 3)
        #expect(DisplayText.width("静安") == 4)
        #expect(DisplayText.width("😀") == 2)
        #expect(DisplayText.width("e\u{301}") == 1)
        #expect(DisplayText.width("👍🏽") == 2)
        #expect(DisplayText.width("") == 0)
    }

    @Test func truncateAndFitKeepExactWidths() {
        #expect(DisplayText.truncate("Garden Flat", to: 6) == "Garde…")
        #expect(DisplayText.truncate("静安寺路", to: 5) == "静安…")
        #expect(DisplayText.width(DisplayText.fit("静安寺路", to: 5)) == 5)
        #expect(DisplayText.fit("ab", to: 4, alignment: .trailing) == "  ab")
        #expect(DisplayText.truncate("abc", to: 0) == "")
    }

    @Test func wrapBreaksAtSpacesAndSplitsLongWords() {
        #expect(DisplayText.wrap("the quick brown fox", to: 9) == ["the quick", "brown fox"])
        #expect(DisplayText.wrap("abcdefghij", to: 4) == ["abcd", "efgh", "ij"])
        #expect(DisplayText.wrap("", to: 4) == [""])
    }

    @Test func tablesAlignMixedScriptsAndFitTheWidth() {
        let lines = Layout.table(
            [["#", "District", "Price"], ["1", "静安", "¥3,600"], ["10", "Xuhui", "¥18,000"]],
            width: 40, trailingColumns: [0, 2])
        #expect(
            lines == [
                " #  District    Price",
                " 1  静安       ¥3,600",
                "10  Xuhui     ¥18,000",
            ])
        let narrow = Layout.table([["a very long cell indeed", "x"]], width: 12)
        #expect(narrow.allSatisfy { DisplayText.width($0) <= 12 })
    }

    @Test func viewsRenderWhatTheyHold() {
        let table = TableView<(name: String, rooms: Int)>(columns: [
            TableColumn("Name") { $0.name }, TableColumn("Rooms", trailing: true) { String($0.rooms) },
        ])
        table.title = "Rentals"
        table.emptyText = "no homes"
        table.status = "loading…"
        #expect(table.render(width: 20) == ["Rentals", "--------", "no homes", "loading…"])
        table.rows = [("Loft", 2), ("Garden Flat", 10)]
        table.status = ""
        // Laid out by its columns: headings, then each row through them, numbers on the right.
        #expect(
            Array(table.render(width: 30).dropFirst(2))
                == (Layout.table(
                    [["Name", "Rooms"], ["Loft", "2"], ["Garden Flat", "10"]],
                    width: 30, trailingColumns: [1])))
        let untitled = TableView<String>(columns: [TableColumn { $0 }])
        untitled.rows = ["a", "b"]
        #expect(Array(untitled.render(width: 10).dropFirst(2)) == Layout.table([["a"], ["b"]], width: 10))
        #expect(NoticeView("Not here").render(width: 14) == ["+------------+", "| Not here   |", "+------------+"])
        #expect(StackView([LabelView("a"), LabelView("")]).render(width: 5) == ["a"])
    }
}
