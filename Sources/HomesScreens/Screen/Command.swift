import Foundation

/// One command as typed: its name (lowercased), its words, and its flags.
public struct Command: Equatable, Sendable {
    /// The command's name, in lower case.
    public let name: String
    /// The words after the name, quotes removed, flags taken out.
    public let arguments: [String]
    /// Flags with their values, e.g. `["--photo": "/tmp/room.jpg"]`.
    public let options: [String: String]

    /// A command; names are compared in lower case.
    public init(name: String, arguments: [String] = [], options: [String: String] = [:]) {
        self.name = name.lowercased()
        self.arguments = arguments
        self.options = options
    }
}
