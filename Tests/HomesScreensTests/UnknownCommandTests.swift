import Testing

@testable import HomesScreens

/// What a command nothing answered is told: the command it nearly spells, or that
/// nothing is near.
@MainActor @Suite struct UnknownCommandTests {
    static let known =
        ["list", "more", "refresh", "filter", "map", "open", "fav", "unfav", "go", "back", "help", "quit"]
        .map { CommandHelp(usage: $0, summary: "") } + [CommandHelp(usage: "offline / online", summary: "")]

    @Test func editsCountOneEachASwapIncluded() {
        #expect(UnknownCommand.editDistance(Array("lsit"), Array("list")) == 1)
        #expect(UnknownCommand.editDistance(Array("lst"), Array("list")) == 1)
        #expect(UnknownCommand.editDistance(Array("lisst"), Array("list")) == 1)
        #expect(UnknownCommand.editDistance(Array("mroe"), Array("more")) == 1)
        #expect(UnknownCommand.editDistance(Array("kitten"), Array("sitting")) == 3)
        #expect(UnknownCommand.editDistance(Array(""), Array("go")) == 2)
        #expect(UnknownCommand.editDistance(Array("map"), Array("map")) == 0)
    }

    @Test func aTypoNamesTheNearestCommandOfTheScreen() {
        #expect(
            UnknownCommand.message(for: "lsit", known: Self.known, behind: [])
                == "unknown command lsit; did you mean list?")
        #expect(
            UnknownCommand.message(for: "refesh", known: Self.known, behind: [])
                == "unknown command refesh; did you mean refresh?")
        // The second name of `offline / online` is a command too.
        #expect(UnknownCommand.nearest(to: "onlin", in: Self.known.flatMap(\.names)) == "online")
    }

    /// One edit for a short word, two for a longer one; ties go to the first command in
    /// the screen's list.
    @Test func nothingIsSuggestedWhenNothingIsNear() {
        #expect(
            UnknownCommand.message(for: "frobnicate", known: Self.known, behind: [])
                == "unknown command frobnicate; type help for the commands of this screen")
        #expect(UnknownCommand.nearest(to: "xy", in: ["go"]) == nil)
        #expect(UnknownCommand.nearest(to: "ask", in: ["back"]) == nil)
        #expect(UnknownCommand.nearest(to: "filtr", in: ["filter"]) == "filter")
        #expect(UnknownCommand.nearest(to: "refrsh", in: ["refresh"]) == "refresh")
        #expect(UnknownCommand.nearest(to: "fltr", in: ["filter"]) == nil)
        #expect(UnknownCommand.nearest(to: "fa", in: ["go", "fav"]) == "fav")
        #expect(UnknownCommand.nearest(to: "mao", in: ["map", "more"]) == "map")
        #expect(UnknownCommand.nearest(to: "ap", in: ["map", "up"]) == "map")
        #expect(UnknownCommand.nearest(to: "map", in: ["map"]) == nil)
        #expect(UnknownCommand.nearest(to: String(repeating: "ab", count: 1_500), in: ["map"]) == nil)
    }
}
