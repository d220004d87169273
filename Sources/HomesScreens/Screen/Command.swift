import Foundation

/// One command as typed: its name (lowercased), its words, and its flags.
package struct Command: Equatable, Sendable {
    /// The command's name, in lower case.
    package let name: String
    /// The words after the name, quotes removed, flags taken out.
    package let arguments: [String]
    /// Flags with their values, e.g. `["--photo": "/tmp/room.jpg"]`.
    package let options: [String: String]

    /// A command; names are compared in lower case.
    package init(name: String, arguments: [String] = [], options: [String: String] = [:]) {
        self.name = name.lowercased()
        self.arguments = arguments
        self.options = options
    }
}
