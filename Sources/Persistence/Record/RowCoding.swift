import Foundation

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
enum RowDecoder {
    static func decode<Value: Decodable>(_ type: Value.Type, from row: Row) throws -> Value {
        try Value(from: Decoder(row: Reader(row)))
    }

    /// The row being decoded, and where the next column is likely to be: properties are
    /// usually decoded in the order of the table's columns, so most look-ups check one name.
    final class Reader {
        let row: Row
        private let names: [String]
        private let values: [SQLiteValue]
        // Used by one decoding on one thread; the runtime access check cost more than the look-up.
        @exclusivity(unchecked) private var next = 0

        init(_ row: Row) {
            self.row = row
            names = row.names
            values = row.values
        }

        /// The value of the column named exactly `name`, or nil.
        func value(_ name: String) -> SQLiteValue? {
            if next < names.count, ExactText.same(names[next], name) {
                next += 1
                return values[next - 1]
            }
            guard let index = row.index(of: name) else { return nil }
            next = index + 1
            return values[index]
        }
    }

    struct Decoder: Swift.Decoder {
        let row: Reader
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] = [:]

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Keyed<Key>(row: row))
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
        let row: Reader
        var codingPath: [any CodingKey] = []
        var allKeys: [Key] { row.row.columns.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { row.value(key.stringValue) != nil }

        func decodeNil(forKey key: Key) throws -> Bool { row.value(key.stringValue)?.isNull ?? true }

        /// The value of `key`, or nil when the column is missing or NULL: one look-up, where
        /// the protocol's own `decodeIfPresent` makes three.
        private func present(_ key: Key) -> SQLiteValue? {
            guard let value = row.value(key.stringValue), !value.isNull else { return nil }
            return value
        }

        private func decoded<T>(_ key: Key, _ decode: (SQLiteValue) throws -> T) rethrows -> T? {
            guard let value = present(key) else { return nil }
            return try decode(value)
        }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
            try decoded(key) { try integer(Int64.self, key, $0) != 0 }
        }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            try decoded(key) { stored in
                guard let text = stored.stringValue else { throw mismatch(type, key, stored) }
                return text
            }
        }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
            try decoded(key) { stored in
                guard let number = stored.doubleValue else { throw mismatch(type, key, stored) }
                return number
            }
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
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
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

        private func value(_ key: Key) throws -> SQLiteValue {
            guard let value = row.value(key.stringValue) else {
                throw DecodingError.keyNotFound(
                    key, .init(codingPath: codingPath, debugDescription: "no column \(key.stringValue)"))
            }
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
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            let stored = try value(key)
            guard let text = stored.stringValue else { throw mismatch(type, key, stored) }
            return text
        }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            let stored = try value(key)
            guard let number = stored.doubleValue else { throw mismatch(type, key, stored) }
            return number
        }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try decode(Double.self, forKey: key)) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(type, key) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(type, key) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(type, key) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(type, key) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(type, key) }
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

        func superDecoder() throws -> any Swift.Decoder { Decoder(row: row) }
        func superDecoder(forKey key: Key) throws -> any Swift.Decoder { Decoder(row: row) }
    }
}
