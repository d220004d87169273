import Foundation

/// Encodes a flat `Encodable` value into a row: numbers and Booleans as integers or reals,
/// strings as text, `Data` as blobs, `Date` as seconds since 1970, nil as NULL, and any
/// nested value as JSON text.
enum RowEncoder {
    static func encode<Value: Encodable>(_ value: Value) throws -> Row {
        let encoder = Encoder()
        try value.encode(to: encoder)
        return encoder.storage.row
    }

    final class Storage {
        var row: Row = [:]
    }

    struct Encoder: Swift.Encoder {
        let storage = Storage()
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] = [:]

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Keyed<Key>(storage: storage))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            fatalUnsupported()
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            fatalUnsupported()
        }

        private func fatalUnsupported() -> Never {
            preconditionFailure("a record must encode as a keyed container (a struct or class with properties)")
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let storage: Storage
        var codingPath: [any CodingKey] = []

        mutating func encodeNil(forKey key: Key) throws { storage.row[key.stringValue] = .null }
        mutating func encode(_ value: Bool, forKey key: Key) throws { storage.row[key.stringValue] = .integer(value ? 1 : 0) }
        mutating func encode(_ value: String, forKey key: Key) throws { storage.row[key.stringValue] = .text(value) }
        mutating func encode(_ value: Double, forKey key: Key) throws { storage.row[key.stringValue] = .real(value) }
        mutating func encode(_ value: Float, forKey key: Key) throws { storage.row[key.stringValue] = .real(Double(value)) }
        mutating func encode(_ value: Int, forKey key: Key) throws { storage.row[key.stringValue] = .integer(Int64(value)) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { storage.row[key.stringValue] = .integer(Int64(value)) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { storage.row[key.stringValue] = .integer(Int64(value)) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { storage.row[key.stringValue] = .integer(Int64(value)) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { storage.row[key.stringValue] = .integer(value) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { storage.row[key.stringValue] = .integer(Int64(truncatingIfNeeded: value)) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { storage.row[key.stringValue] = .integer(Int64(value)) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { storage.row[key.stringValue] = .integer(Int64(value)) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { storage.row[key.stringValue] = .integer(Int64(value)) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { storage.row[key.stringValue] = .integer(Int64(truncatingIfNeeded: value)) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            switch value {
            case let data as Data: storage.row[key.stringValue] = .blob(data)
            case let date as Date: storage.row[key.stringValue] = .real(date.timeIntervalSince1970)
            case let url as URL: storage.row[key.stringValue] = .text(url.absoluteString)
            default:
                let json = try JSONEncoder().encode(value)
                storage.row[key.stringValue] = .text(String(decoding: json, as: UTF8.self))
            }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(Keyed<NestedKey>(storage: Storage()))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            preconditionFailure("encode nested collections as Codable values, not nested containers")
        }

        mutating func superEncoder() -> any Swift.Encoder { Encoder() }
        mutating func superEncoder(forKey key: Key) -> any Swift.Encoder { Encoder() }
    }
}

/// Decodes a flat `Decodable` value from a row, the reverse of `RowEncoder`. Mismatched
/// or missing columns throw a `DecodingError` that names the column.
enum RowDecoder {
    static func decode<Value: Decodable>(_ type: Value.Type, from row: Row) throws -> Value {
        try Value(from: Decoder(row: row))
    }

    struct Decoder: Swift.Decoder {
        let row: Row
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] = [:]

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Keyed<Key>(row: row))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch([Any].self, .init(codingPath: codingPath, debugDescription: "a row is keyed"))
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            throw DecodingError.typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "a row is keyed"))
        }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let row: Row
        var codingPath: [any CodingKey] = []
        var allKeys: [Key] { row.keys.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { row[key.stringValue] != nil }

        func decodeNil(forKey key: Key) throws -> Bool { row[key.stringValue]?.isNull ?? true }

        private func value(_ key: Key) throws -> SQLiteValue {
            guard let value = row[key.stringValue] else {
                throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no column \(key.stringValue)"))
            }
            return value
        }

        private func mismatch<T>(_ type: T.Type, _ key: Key, _ value: SQLiteValue) -> DecodingError {
            .typeMismatch(type, .init(codingPath: codingPath + [key],
                                      debugDescription: "column \(key.stringValue) holds \(value), not \(type)"))
        }

        private func integer<T: FixedWidthInteger>(_ type: T.Type, _ key: Key) throws -> T {
            let stored = try value(key)
            guard let number = stored.int64Value, let result = T(exactly: number) else { throw mismatch(type, key, stored) }
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
                guard let text = stored.stringValue, let url = URL(string: text) else { throw mismatch(type, key, stored) }
                return url as! T
            }
            guard let text = stored.stringValue else { throw mismatch(type, key, stored) }
            do {
                return try JSONDecoder().decode(type, from: Data(text.utf8))
            } catch {
                throw mismatch(type, key, stored)
            }
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw mismatch([String: Any].self, key, (try? value(key)) ?? .null)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw mismatch([Any].self, key, (try? value(key)) ?? .null)
        }

        func superDecoder() throws -> any Swift.Decoder { Decoder(row: row) }
        func superDecoder(forKey key: Key) throws -> any Swift.Decoder { Decoder(row: row) }
    }
}
