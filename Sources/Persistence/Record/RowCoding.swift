import Foundation
import Synchronization

/// Encodes a flat `Encodable` value into a row: numbers and Booleans as integers or reals,
/// strings as text, `Data` as blobs, `Date` as seconds since 1970, nil as NULL, and any
/// nested value as JSON text.
enum RowEncoder {
    static func encode<Value: Encodable>(_ value: Value) throws -> Row {
        let encoder = Encoder()
        try value.encode(to: encoder)
        if let problem = encoder.storage.problem {
            throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: problem))
        }
        return encoder.storage.row
    }

    final class Storage {
        var row = Row()
        var problem: String?
    }

    struct Encoder: Swift.Encoder {
        let storage: Storage
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] = [:]

        init(storage: Storage = Storage()) {
            self.storage = storage
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Keyed<Key>(storage: storage))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            storage.problem = "a record must encode as keyed properties, not as a list"
            return DiscardingContainers.unkeyed()
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            storage.problem = "a record must encode as keyed properties, not as a single value"
            return DiscardingContainers.single()
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let storage: Storage
        var codingPath: [any CodingKey] = []

        private func set(_ value: SQLiteValue, _ key: Key) { storage.row[key.stringValue] = value }

        mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(.integer(value ? 1 : 0), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(.text(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { set(.real(value), key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { set(.real(Double(value)), key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { set(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { set(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { set(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { set(.integer(value), key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { try encode(UInt64(value), forKey: key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.integer(Int64(value)), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.integer(Int64(value)), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.integer(Int64(value)), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws {
            guard let stored = Int64(exactly: value) else {
                throw EncodingError.invalidValue(
                    value,
                    .init(
                        codingPath: codingPath + [key],
                        debugDescription: "\(value) does not fit an SQLite integer"))
            }
            set(.integer(stored), key)
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            switch value {
            case let data as Data: set(.blob(data), key)
            case let date as Date: set(.real(date.timeIntervalSince1970), key)
            case let url as URL: set(.text(url.absoluteString), key)
            case let uuid as UUID: set(.text(uuid.uuidString), key)
            default:
                // Raw-value enums are stored as their raw value, so they can be queried.
                if let raw = value as? any RawRepresentable, let plain = Self.plain(raw) {
                    set(plain, key)
                    return
                }
                let json = try JSONEncoder().encode(value)
                set(.text(String(decoding: json, as: UTF8.self)), key)
            }
        }

        private static func plain<R: RawRepresentable>(_ value: R) -> SQLiteValue? {
            switch value.rawValue {
            case let text as String: return .text(text)
            case let number as Int: return .integer(Int64(number))
            default: return nil
            }
        }

        // Nil is stored as NULL (the default would leave the column out, so an update
        // could never clear it).
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
            try value.map { try encode($0, forKey: key) } ?? encodeNil(forKey: key)
        }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
            try value.map { try encode($0, forKey: key) } ?? encodeNil(forKey: key)
        }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
            try value.map { try encode($0, forKey: key) } ?? encodeNil(forKey: key)
        }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
            try value.map { try encode($0, forKey: key) } ?? encodeNil(forKey: key)
        }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
            try value.map { try encode($0, forKey: key) } ?? encodeNil(forKey: key)
        }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws {
            try value.map { try encode($0, forKey: key) } ?? encodeNil(forKey: key)
        }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws {
            try value.map { try encode($0, forKey: key) } ?? encodeNil(forKey: key)
        }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws {
            try value.map { try encode($0, forKey: key) } ?? encodeNil(forKey: key)
        }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws {
            try value.map { try encode($0, forKey: key) } ?? encodeNil(forKey: key)
        }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws {
            try value.map { try encode($0, forKey: key) } ?? encodeNil(forKey: key)
        }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws {
            try value.map { try encode($0, forKey: key) } ?? encodeNil(forKey: key)
        }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws {
            try value.map { try encode($0, forKey: key) } ?? encodeNil(forKey: key)
        }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws {
            try value.map { try encode($0, forKey: key) } ?? encodeNil(forKey: key)
        }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws {
            try value.map { try encode($0, forKey: key) } ?? encodeNil(forKey: key)
        }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            try value.map { try encode($0, forKey: key) } ?? encodeNil(forKey: key)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            storage.problem =
                "nested containers are not supported in a record (\(key.stringValue)); encode a Codable value"
            return KeyedEncodingContainer(Keyed<NestedKey>(storage: Storage()))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            storage.problem =
                "nested containers are not supported in a record (\(key.stringValue)); encode a Codable value"
            return DiscardingContainers.unkeyed()
        }

        // A superclass encodes into the same row.
        mutating func superEncoder() -> any Swift.Encoder { Encoder(storage: storage) }
        mutating func superEncoder(forKey key: Key) -> any Swift.Encoder { Encoder(storage: storage) }
    }
}

/// Throwaway containers handed out after an unsupported request; the problem is reported
/// when encoding ends, instead of crashing.
enum DiscardingContainers {
    static func single() -> any SingleValueEncodingContainer {
        Capture().singleValueContainer()
    }

    static func unkeyed() -> any UnkeyedEncodingContainer {
        Capture().unkeyedContainer()
    }

    /// A minimal encoder whose containers accept and discard everything.
    private struct Capture: Swift.Encoder {
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] = [:]
        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(RowEncoder.Keyed<Key>(storage: RowEncoder.Storage()))
        }
        func unkeyedContainer() -> any UnkeyedEncodingContainer { Discard() }
        func singleValueContainer() -> any SingleValueEncodingContainer { Discard() }
    }

    private struct Discard: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        var codingPath: [any CodingKey] = []
        var count = 0
        mutating func encodeNil() throws {}
        mutating func encode<T: Encodable>(_ value: T) throws {}
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
            NestedKey
        > {
            KeyedEncodingContainer(RowEncoder.Keyed<NestedKey>(storage: RowEncoder.Storage()))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { Discard() }
        mutating func superEncoder() -> any Swift.Encoder { Capture() }
    }
}

/// Decodes a flat `Decodable` value from a row, the reverse of `RowEncoder`. Mismatched
/// or missing columns throw a `DecodingError` that names the column.
///
/// The rows of one fetch share their names, so the column of each key is looked up by
/// name once per fetch: the first row's decoding learns it, by name, and publishes the
/// layout in the fetch's `Plan`; every later row finds each key's column by the key's
/// position in its `CodingKeys` enum, with no text compared or hashed, and reads its
/// values without allocating.
enum RowDecoder {
    static func decode<Value: Decodable>(_ type: Value.Type, from row: Row) throws -> Value {
        try Value(from: Decoder(row: row))
    }

    /// How the rows of one fetch decode: shared by those rows (which have the same names),
    /// and so by any thread a row is sent to. A fetch's first rows carry a plan that learns:
    /// their decoding publishes the layout it learned, once. The fetch then hands its other
    /// rows a plan made with that layout, which they read with no lock.
    final class Plan: Sendable {
        /// The layout every row of this plan decodes with, when it was known at the start.
        let fixed: Layout?
        private let learned = Mutex<Layout?>(nil)

        init(fixed: Layout? = nil) {
            self.fixed = fixed
        }

        /// The layout to decode with: the fixed one, or the one a row's decoding learned.
        var layout: Layout? { fixed ?? learned.withLock { $0 } }

        /// Keeps `layout` unless another decoding published one first (the same, as it
        /// depends on the names and the keys alone).
        func publish(_ layout: Layout) {
            learned.withLock { if $0 == nil { $0 = layout } }
        }

        /// The plan for the fetch's rows after the first: one with the layout the first
        /// row's decoding learned fixed, or none when it learned none (a hand-written
        /// `init(row:)`, keys that are not an enum), so that no row takes the lock again.
        var next: Plan? {
            fixed != nil ? self : learned.withLock { $0 }.map { Plan(fixed: $0) }
        }
    }

    /// The column of each key of one `CodingKeys` type, for one list of names: learned
    /// from one row's decoding, then never changed.
    final class Layout: Sendable {
        /// A column that is not there.
        static let missing = -1
        /// A key not seen while learning.
        static let unknown = -2

        let keyType: ObjectIdentifier
        let names: [String]
        /// By key tag (see `Keyed.tag(of:)`): the column's position, `missing` or `unknown`.
        let columns: [Int]

        init(keyType: ObjectIdentifier, names: [String], columns: [Int]) {
            self.keyType = keyType
            self.names = names
            self.columns = columns
        }
    }

    /// One decoding's look-ups by name, and what they teach: the next column is tried
    /// first, as properties are usually decoded in the order of the table's columns.
    /// Used by one decoding on one thread; it publishes what it learned in its plan when
    /// that decoding lets go of it.
    final class Learning {
        let names: [String]
        /// The plan to publish the layout in, when this decoding learns it.
        private let plan: Plan?
        private let keyType: ObjectIdentifier
        // The runtime access checks cost more than the look-ups.
        @exclusivity(unchecked) private var next = 0
        /// By key tag, as `Layout.columns`.
        @exclusivity(unchecked) private var learned: [Int] = []

        init(names: [String], plan: Plan?, keyType: ObjectIdentifier) {
            self.names = names
            self.plan = plan
            self.keyType = keyType
        }

        deinit {
            // A decoding that failed half way taught only some keys: the others stay
            // `unknown` and are looked up by name.
            if let plan, !learned.isEmpty {
                plan.publish(Layout(keyType: keyType, names: names, columns: learned))
            }
        }

        /// The position of the column named exactly `name`, or nil; learned for `tag`
        /// when there is a plan to publish it in.
        func column(_ name: String, tag: Int?) -> Int? {
            let found: Int?
            if next < names.count, ExactText.same(names[next], name) {
                found = next
            } else {
                found = names.indices.first { ExactText.same(names[$0], name) }
            }
            if let found { next = found + 1 }
            if plan != nil, let tag {
                if learned.count <= tag { learned += repeatElement(Layout.unknown, count: tag + 1 - learned.count) }
                learned[tag] = found ?? Layout.missing
            }
            return found
        }
    }

    /// Where a container finds its columns: a published layout, or look-ups by name.
    enum Columns {
        case fixed(Layout)
        case learning(Learning)
    }

    struct Decoder: Swift.Decoder {
        let row: Row
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            let keyType = ObjectIdentifier(type)
            guard let plan = row.plan, Keyed<Key>.isTagged else {
                return KeyedDecodingContainer(
                    Keyed<Key>(
                        values: row.values, columns: .learning(Learning(names: row.names, plan: nil, keyType: keyType)))
                )
            }
            if let layout = plan.layout {
                if layout.keyType == keyType {
                    return KeyedDecodingContainer(Keyed<Key>(values: row.values, columns: .fixed(layout)))
                }
                // The layout of another key type (a record that asks for two containers): by name.
                return KeyedDecodingContainer(
                    Keyed<Key>(
                        values: row.values, columns: .learning(Learning(names: row.names, plan: nil, keyType: keyType)))
                )
            }
            return KeyedDecodingContainer(
                Keyed<Key>(
                    values: row.values, columns: .learning(Learning(names: row.names, plan: plan, keyType: keyType))))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch(
                [Any].self, .init(codingPath: codingPath, debugDescription: "a row is keyed"))
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            throw DecodingError.typeMismatch(
                Any.self, .init(codingPath: codingPath, debugDescription: "a row is keyed"))
        }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let values: [SQLiteValue]
        let columns: Columns
        var codingPath: [any CodingKey] { [] }

        /// Whether a key is told apart by its one byte (or none): true of a `CodingKeys`
        /// enum, whose byte is its case's number. A value that small holds no reference, so
        /// keys with the same byte are the same key, with the same name.
        static var isTagged: Bool { MemoryLayout<Key>.size <= 1 }

        /// The key's byte, its case's number for an enum (see `isTagged`).
        @inline(__always)
        private static func tag(of key: Key) -> Int {
            // Reinterpreted only when it is one byte (`isTagged` keys are one or none).
            MemoryLayout<Key>.size == 1 ? Int(unsafeBitCast(key, to: UInt8.self)) : 0
        }

        private var names: [String] {
            switch columns {
            case .fixed(let layout): return layout.names
            case .learning(let learning): return learning.names
            }
        }

        var allKeys: [Key] { names.compactMap { Key(stringValue: $0) } }

        /// The position of the column of `key`, or -1 when there is no such column.
        @inline(__always)
        private func column(_ key: Key) -> Int {
            switch columns {
            case .fixed(let layout):
                let tag = Self.tag(of: key)
                if tag < layout.columns.count {
                    let column = layout.columns[tag]
                    if column != Layout.unknown { return column }
                }
                let name = key.stringValue
                return layout.names.firstIndex { ExactText.same($0, name) } ?? Layout.missing
            case .learning(let learning):
                return learning.column(key.stringValue, tag: Self.isTagged ? Self.tag(of: key) : nil) ?? Layout.missing
            }
        }

        /// The value of the column of `key`, or nil when there is no such column.
        private func lookUp(_ key: Key) -> SQLiteValue? {
            let column = column(key)
            return column >= 0 ? values[column] : nil
        }

        func contains(_ key: Key) -> Bool { column(key) >= 0 }

        func decodeNil(forKey key: Key) throws -> Bool {
            let column = column(key)
            return column < 0 || values[column].isNull
        }

        /// The value of `key`, or nil when the column is missing or NULL: one look-up, where
        /// the protocol's own `decodeIfPresent` makes three.
        private func present(_ key: Key) -> SQLiteValue? {
            guard let value = lookUp(key), !value.isNull else { return nil }
            return value
        }

        private func decoded<T>(_ key: Key, _ decode: (SQLiteValue) throws -> T) rethrows -> T? {
            guard let value = present(key) else { return nil }
            return try decode(value)
        }

        // The common kinds read their column in place, with no copy of its value.
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            let column = column(key)
            guard column >= 0 else { return nil }
            switch values[column] {
            case .text(let text): return text
            case .null: return nil
            default: throw mismatch(type, key, values[column])
            }
        }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
            let column = column(key)
            guard column >= 0 else { return nil }
            switch values[column] {
            case .real(let number): return number
            case .integer(let number): return Double(number)
            case .null: return nil
            default: throw mismatch(type, key, values[column])
            }
        }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
            let column = column(key)
            guard column >= 0 else { return nil }
            if case .integer(let number) = values[column] { return number }
            if values[column].isNull { return nil }
            return try integer(type, key, values[column])
        }
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            let column = column(key)
            guard column >= 0 else { throw missing(key) }
            guard case .text(let text) = values[column] else { throw mismatch(type, key, values[column]) }
            return text
        }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            let column = column(key)
            guard column >= 0 else { throw missing(key) }
            switch values[column] {
            case .real(let number): return number
            case .integer(let number): return Double(number)
            default: throw mismatch(type, key, values[column])
            }
        }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
            let column = column(key)
            guard column >= 0 else { throw missing(key) }
            if case .integer(let number) = values[column] { return number }
            return try integer(type, key, values[column])
        }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            try decoded(key) { try integer(Int64.self, key, $0) != 0 }
        }
        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
            try decodeIfPresent(Double.self, forKey: key).map { Float($0) }
        }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
            try decoded(key) { try integer(type, key, $0) }
        }
        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
            try decoded(key) { try integer(type, key, $0) }
        }
        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
            try decoded(key) { try integer(type, key, $0) }
        }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
            try decoded(key) { try integer(type, key, $0) }
        }
        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
            try decoded(key) { try integer(type, key, $0) }
        }
        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
            try decoded(key) { try integer(type, key, $0) }
        }
        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
            try decoded(key) { try integer(type, key, $0) }
        }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
            try decoded(key) { try integer(type, key, $0) }
        }
        func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
            try decoded(key) { try integer(type, key, $0) }
        }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard present(key) != nil else { return nil }
            return try decode(type, forKey: key)
        }

        private func missing(_ key: Key) -> DecodingError {
            DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "no column \(key.stringValue)"))
        }

        private func value(_ key: Key) throws -> SQLiteValue {
            guard let value = lookUp(key) else { throw missing(key) }
            return value
        }

        private func mismatch<T>(_ type: T.Type, _ key: Key, _ value: SQLiteValue) -> DecodingError {
            .typeMismatch(
                type,
                .init(
                    codingPath: codingPath + [key],
                    debugDescription: "column \(key.stringValue) holds \(value), not \(type)"))
        }

        // Inlined so each integer type gets its own code: the generic `T(exactly:)` costs
        // more than the rest of a look-up.
        @inline(__always)
        private func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
            try integer(type, key, try value(key))
        }

        @inline(__always)
        private func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key, _ stored: SQLiteValue) throws -> T {
            guard let number = stored.int64Value, let result = T(exactly: number) else {
                throw mismatch(type, key, stored)
            }
            return result
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try integer(Int64.self, key) != 0 }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try decode(Double.self, forKey: key)) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(type, key) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(type, key) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(type, key) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(type, key) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(type, key) }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            let stored = try value(key)
            if type == Data.self {
                guard let data = stored.dataValue else { throw mismatch(type, key, stored) }
                return data as! T
            }
            if type == Date.self {
                guard let seconds = stored.doubleValue else { throw mismatch(type, key, stored) }
                return Date(timeIntervalSince1970: seconds) as! T
            }
            if type == URL.self {
                guard let text = stored.stringValue, let url = URL(string: text) else {
                    throw mismatch(type, key, stored)
                }
                return url as! T
            }
            // Raw-value enums and UUIDs are stored as plain values; other values as JSON.
            let candidates: [String]
            switch stored {
            case .text(let text):
                let quoted = String(decoding: (try? JSONEncoder().encode(text)) ?? Data(), as: UTF8.self)
                candidates = [text, quoted]
            case .integer(let number): candidates = [String(number)]
            case .real(let number): candidates = [String(number)]
            default: throw mismatch(type, key, stored)
            }
            for candidate in candidates {
                if let decoded = try? JSONDecoder().decode(type, from: Data(candidate.utf8)) { return decoded }
            }
            throw mismatch(type, key, stored)
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            throw mismatch([String: Any].self, key, (try? value(key)) ?? .null)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw mismatch([Any].self, key, (try? value(key)) ?? .null)
        }

        // A superclass decodes from the same row, its columns looked up by name.
        func superDecoder() throws -> any Swift.Decoder { Decoder(row: Row(uniqueNames: names, values: values)) }
        func superDecoder(forKey key: Key) throws -> any Swift.Decoder { try superDecoder() }
    }
}
