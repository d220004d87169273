/// Commands a screen does not declare itself: the ones every screen has (links, the
/// network) and the ones a feature adds to screens it did not build (the favourites from
/// anywhere, a search saved from a listing list), answered before the screen on top is
/// asked. Each set says on which screens its commands work.
@MainActor
package protocol SharedCommands {
    /// The commands offered on `screen`, for `help`, Tab and reading the line: each is
    /// read as declared here (its flags, whether it takes the rest of its line).
    func commands(on screen: any Screen) -> [CommandHelp]
    /// Handles `command`, typed on `screen`; nil when it is not one of these there.
    func handle(_ command: Command, on screen: any Screen) -> CommandOutcome?
}

/// Several sets of shared commands as one: listed and asked in order, the first that
/// answers a command handles it.
@MainActor
package struct SharedCommandGroup: SharedCommands {
    /// The sets, in the order `help` lists them.
    package let parts: [any SharedCommands]

    /// The sets `parts`, in this order.
    package init(_ parts: [any SharedCommands]) {
        self.parts = parts
    }

    package func commands(on screen: any Screen) -> [CommandHelp] {
        parts.flatMap { $0.commands(on: screen) }
    }

    package func handle(_ command: Command, on screen: any Screen) -> CommandOutcome? {
        for part in parts {
            if let outcome = part.handle(command, on: screen) { return outcome }
        }
        return nil
    }
}

extension Screen {
    /// What the screen declares, then the commands of `shared` offered on it.
    func declarations(with shared: (any SharedCommands)?) -> [CommandHelp] {
        commands + (shared?.commands(on: self) ?? [])
    }
}
