import Foundation

/// The parameters of a call: typed values from native callers, strings from URLs.
///
/// Accessors convert where it is safe (a URL's `"42"` reads as the `Int` 42) and return
/// nil otherwise, so an action can refuse bad input with `MediatorError.badParameters`.
public struct MediatorParameters: Sendable, ExpressibleByDictionaryLiteral {
    private var values: [String: [any Sendable]]

    /// Creates parameters from `values`, one value for each name.
    public init(_ values: [String: any Sendable] = [:]) {
        self.values = values.mapValues { [$0] }
    }

    /// Parameters from a dictionary literal.
    public init(dictionaryLiteral elements: (String, any Sendable)...) {
        values = [:]
        for (name, value) in elements { values[name, default: []].append(value) }
    }

    /// Parameters where a name may repeat (as in a URL query).
    init(repeating pairs: [(String, String)]) {
        values = [:]
        for (name, value) in pairs { values[name, default: []].append(value) }
    }

    /// The names present.
    public var names: [String] { values.keys.sorted() }

    /// The (last) value of `name`, whatever its type.
    public subscript(name: String) -> (any Sendable)? { values[name]?.last }

    /// The (last) value of `name` as text.
    public func string(_ name: String) -> String? {
        guard let value = self[name] else { return nil }
        if let text = value as? String { return text }
        if let number = value as? Int { return String(number) }
        if let flag = value as? Bool { return String(flag) }
        if let number = value as? Double { return String(number) }
        return nil
    }

    /// Every value given for `name` as text (a URL may repeat a key).
    public func strings(_ name: String) -> [String] {
        (values[name] ?? []).compactMap { value in
            if let text = value as? String { return text }
            if let number = value as? Int { return String(number) }
            return nil
        }
    }

    /// The (last) value of `name` as an integer, also from text like `"42"`.
    public func int(_ name: String) -> Int? {
        guard let value = self[name] else { return nil }
        if let number = value as? Int { return number }
        if let text = value as? String { return Int(text.trimmingCharacters(in: .whitespaces)) }
        return nil
    }

    /// The (last) value of `name` as a Boolean, also from `"true"`, `"false"`, `"1"`, `"0"`.
    public func bool(_ name: String) -> Bool? {
        guard let value = self[name] else { return nil }
        if let flag = value as? Bool { return flag }
        switch (value as? String)?.lowercased() {
        case "true", "1", "yes": return true
        case "false", "0", "no": return false
        default: return nil
        }
    }

    /// The (last) value of `name` if it has type `T`.
    public func value<T>(_ name: String, as type: T.Type) -> T? {
        self[name] as? T
    }
}
