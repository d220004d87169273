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
/// position in its `CodingKeys` enum, with no text compared or hashed.
///
/// Later rows also share one keyed container: the standard library boxes every container
/// it is given (an allocation, and a generic metadata look-up for the box and for our
/// container, per record), which cost more than reading the row. The fetch's `Session`
/// keeps the first container it made and hands it to each later record, pointed at that
/// record's values (lent, not copied). That container holds the session's reader
/// unretained, so the box, which copies it on every call, counts no reference; the session
/// keeps the reader for good should a record keep the container (see `Session.deinit`).
/// The row itself is borrowed (`Record.init(row:)`), so handing it over counts none either.
@usableFromInline
enum RowDecoder {
    // Inlinable, down to the record's own `init(from:)`, so that a fetch's loop is
    // specialized for its record type with no generic copies of the record between them.
    @inlinable
    static func decode<Value: Decodable>(_ type: Value.Type, from row: borrowing Row) throws -> Value {
        // A row of a fetch whose layout is known decodes through the fetch's session, unless
        // another decoding holds it (a kept row decoded on another thread, or within a
        // record's own decoding): then as any row does, with containers of its own.
        // A method of the session, not `if let session`, which would retain it.
        if let value = try row.plan?.session?.decode(type, from: row.values) { return value }
        return try decodeAlone(type, from: copy row)
    }

    /// Decodes `row` with containers of its own.
    @usableFromInline
    static func decodeAlone<Value: Decodable>(_ type: Value.Type, from row: Row) throws -> Value {
        try Value(from: Decoder(row: row))
    }

    /// How the rows of one fetch decode: shared by those rows (which have the same names),
    /// and so by any thread a row is sent to. A fetch's first rows carry a plan that learns:
    /// their decoding publishes the layout it learned, once. The fetch then hands its other
    /// rows a plan made with that layout, which they read with no lock.
    @usableFromInline
    final class Plan: Sendable {
        /// The layout every row of this plan decodes with, when it was known at the start.
        let fixed: Layout?
        /// The shared container of the rows of a fixed plan.
        @usableFromInline let session: Session?
        private let learned = Mutex<Layout?>(nil)

        init(fixed: Layout? = nil) {
            self.fixed = fixed
            session = fixed.map(Session.init)
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
        static let missing: Int32 = -1
        /// A key not seen while learning.
        static let unknown: Int32 = -2

        let keyType: ObjectIdentifier
        let names: [String]
        /// By key tag (see `Keyed.tag(of:)`), for every byte a tag can be: the column's
        /// position, `missing` or `unknown`. Every byte has its entry, so a look-up need not
        /// check the tag against what was learned.
        let columns: [Int32]

        init(keyType: ObjectIdentifier, names: [String], learned: [Int32]) {
            self.keyType = keyType
            self.names = names
            // Filled in place: concatenating a `repeatElement` copies through the generic
            // `Collection` path, which allocates for each element in a debug build.
            var columns = [Int32](repeating: Self.unknown, count: max(256, learned.count))
            for (tag, column) in learned.enumerated() { columns[tag] = column }
            self.columns = columns
        }
    }

    /// The decoding state of a fetch's later rows: the one container they share, and the
    /// reader it reads the current record's values through.
    ///
    /// Used by one decoding at a time, the one whose `claim()` won.
    @usableFromInline
    final class Session: @unchecked Sendable {
        // @unchecked: `reader`, `cached` and `box` are touched only between a `claim()`
        // that won (an atomic exchange) and its `release()`, as a try-lock would guard
        // them, and in `deinit`.
        private let claimed = Atomic<Bool>(false)
        let layout: Layout
        private let reader: Reader
        /// The container made for the first record: a `Cached<Key>` for `layout.keyType`.
        private var cached: AnyObject?
        /// The standard library's box of that container, to tell at the end whether a
        /// record kept it.
        private var box: AnyObject?

        deinit {
            // The container reads `reader` unretained (see `SessionReader`): if a record kept
            // it, the reader stays, for as long as the process, so that reading it (which
            // throws, see `Reader.owner`) never reads freed memory. Only a record that keeps
            // its container past `init(from:)` costs this, once per fetch.
            cached = nil
            if box != nil, !isKnownUniquelyReferenced(&box) {
                _ = Unmanaged.passRetained(reader)
            }
        }

        init(layout: Layout) {
            self.layout = layout
            reader = Reader(names: layout.names, layout: layout)
        }

        /// Decodes a record from `values` (a row's, in the names' order, lent for the
        /// decoding) through this session; nil when another decoding holds it.
        @inlinable
        func decode<Value: Decodable>(_ type: Value.Type, from values: borrowing [SQLiteValue]) throws -> Value? {
            guard claim() else { return nil }
            defer { release() }
            return try values.withUnsafeBufferPointer { values in
                begin(values)
                defer { end() }
                return try Value(from: SessionDecoder(session: self))
            }
        }

        /// Whether this thread is decoding a record with the session now.
        var isDecodingHere: Bool { reader.isReadable }

        /// Whether this decoding now holds the session (to be given back by `release()`).
        @usableFromInline
        func claim() -> Bool {
            claimed.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged
        }

        @usableFromInline
        func release() {
            claimed.store(false, ordering: .releasing)
        }

        /// Points the shared container at one record's `values` (the row's, in the names'
        /// order); holding the session.
        @usableFromInline
        func begin(_ values: UnsafeBufferPointer<SQLiteValue>) {
            reader.buffer = values
            reader.owner.store(currentThreadID(), ordering: .releasing)
        }

        /// Lets go of the record's values, so that a container kept by a record holds no row
        /// but its own; holding the session.
        @usableFromInline
        func end() {
            reader.owner.store(0, ordering: .releasing)
            reader.buffer = nil
        }

        /// The shared container, made on first use; holding the session.
        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
            if let cached {
                // Only ever a `Cached<Key>` of `layout.keyType`, which the caller checked.
                return unsafeDowncast(cached, to: Cached<Key>.self).container
            }
            let container = KeyedDecodingContainer(Keyed<Key, SessionReader>(SessionReader(reader)))
            cached = Cached(container)
            // The box is the container's one stored property (`_box`, as the standard
            // library has always made it); were it not one reference, the reader would be
            // kept for good instead.
            if MemoryLayout<KeyedDecodingContainer<Key>>.size == MemoryLayout<AnyObject>.size {
                box = unsafeBitCast(container, to: AnyObject.self)
            } else {
                _ = Unmanaged.passRetained(reader)
            }
            return container
        }

        /// A container of another key type, reading a copy of the current values by name.
        func uncachedContainer<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(
                Keyed<Key, OwnReader>(
                    OwnReader(Reader(names: layout.names, values: reader.values, plan: nil, keyType: nil))))
        }
    }

    /// A container, kept by a class so that its type can be recovered without a cast.
    final class Cached<Key: CodingKey> {
        let container: KeyedDecodingContainer<Key>

        init(_ container: KeyedDecodingContainer<Key>) {
            self.container = container
        }
    }

    /// What a container reads: one row's values, and where each key's column is. A reader
    /// of a fetch's session is given each record's values in turn; any other reader reads
    /// one row's, and learns (or looks up by name) where the keys are.
    ///
    /// Used by one decoding on one thread; a learning reader publishes what it learned in
    /// its plan when that decoding lets go of it.
    final class Reader {
        /// The values of the row of a reader that is not a session's.
        // The runtime access checks cost more than the look-ups.
        @exclusivity(unchecked) private var stored: [SQLiteValue]
        /// Of a session's reader: the values of the record being decoded, lent for its
        /// decoding (read only by its owner, see `owner`); nil between records.
        @exclusivity(unchecked) var buffer: UnsafeBufferPointer<SQLiteValue>?
        /// Of a session's reader: the thread decoding a record with it now, 0 between
        /// records. A container a record kept past its decoding, read later or on another
        /// thread, finds another owner and throws: it never reads a row not its own, nor
        /// `values` while another thread sets them.
        let owner = Atomic<UInt>(0)
        let isShared: Bool
        let names: [String]
        /// The columns by key tag, when the layout is known.
        private let layout: Layout?
        /// The plan to publish the layout in, when this reader learns it.
        private let plan: Plan?
        private let keyType: ObjectIdentifier?
        @exclusivity(unchecked) private var next = 0
        /// By key tag, as `Layout.columns`.
        @exclusivity(unchecked) private var learned: [Int32] = []

        /// A session's reader, its values set for each record.
        init(names: [String], layout: Layout) {
            self.names = names
            self.layout = layout
            stored = []
            plan = nil
            keyType = nil
            isShared = true
        }

        /// A reader of `values`, with `layout` when it is known, learning it for `plan`
        /// otherwise (when there is one).
        init(names: [String], values: [SQLiteValue], layout: Layout? = nil, plan: Plan?, keyType: ObjectIdentifier?) {
            stored = values
            self.names = names
            self.layout = layout
            self.plan = layout == nil ? plan : nil
            self.keyType = keyType
            isShared = false
        }

        /// The values of the row being decoded, as an array.
        var values: [SQLiteValue] { buffer.map(Array.init) ?? stored }

        deinit {
            // A decoding that failed half way taught only some keys: the others stay
            // `unknown` and are looked up by name.
            if let plan, let keyType, !learned.isEmpty {
                plan.publish(Layout(keyType: keyType, names: names, learned: learned))
            }
        }

        /// The position of the column of `key`, whose tag is `tag`, or `Layout.missing`.
        @inline(__always)
        func column<Key: CodingKey>(of key: Key, tag: Int) -> Int {
            // The key itself, not a closure giving its name: a closure capturing a generic
            // key is allocated in a debug build.
            if let layout, tag < layout.columns.count {
                let column = layout.columns[tag]
                if column != Layout.unknown { return Int(column) }
            }
            return look(key.stringValue, tag: layout == nil ? tag : nil)
        }

        /// The position of the column named exactly `name`, or `Layout.missing`; learned for
        /// `tag` when there is a plan to publish it in.
        private func look(_ name: String, tag: Int?) -> Int {
            let found: Int?
            if next < names.count, ExactText.same(names[next], name) {
                found = next
            } else {
                found = names.indices.first { ExactText.same(names[$0], name) }
            }
            if let found { next = found + 1 }
            if plan != nil, let tag, tag < 256 {
                while learned.count <= tag { learned.append(Layout.unknown) }
                learned[tag] = found.map(Int32.init) ?? Layout.missing
            }
            return found ?? Int(Layout.missing)
        }

        /// Whether this reader may be read on this thread now: always, unless it is a
        /// session's and the record it was given to has been decoded (see `owner`).
        @inline(__always)
        var isReadable: Bool {
            !isShared || owner.load(ordering: .acquiring) == currentThreadID()
        }

        /// The value at `column`, or nil when there is none (a missing column).
        @inline(__always)
        func value(at column: Int) -> SQLiteValue? {
            // Not a `? :` of the two: its `nil` would be the value NULL (a literal `SQLiteValue`).
            guard column >= 0 else { return nil }
            if let buffer {
                guard column < buffer.count else { return nil }
                return buffer[column]
            }
            guard column < stored.count else { return nil }
            return stored[column]
        }
    }

    /// The decoder of a row of its own (see `decode(_:from:)`).
    struct Decoder: Swift.Decoder {
        let row: Row
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            let keyType = ObjectIdentifier(type)
            var layout: Layout?
            var plan: Plan?
            if let rowPlan = row.plan, Keyed<Key, OwnReader>.isTagged {
                if let known = rowPlan.layout {
                    // The layout of another key type (a record that asks for two containers): by name.
                    layout = known.keyType == keyType ? known : nil
                } else {
                    plan = rowPlan
                }
            }
            let reader = Reader(names: row.names, values: row.values, layout: layout, plan: plan, keyType: keyType)
            return KeyedDecodingContainer(Keyed<Key, OwnReader>(OwnReader(reader)))
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

    /// The decoder of a fetch's later rows: one reference, handing out the session's container.
    @usableFromInline
    struct SessionDecoder: Swift.Decoder {
        @usableFromInline let session: Session

        @usableFromInline
        init(session: Session) {
            self.session = session
        }
        @usableFromInline var codingPath: [any CodingKey] { [] }
        @usableFromInline var userInfo: [CodingUserInfoKey: Any] { [:] }

        @usableFromInline func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            // A decoder kept past its record's decoding (or used on another thread) holds
            // no claim of the session: it must not touch the session's state.
            guard session.isDecodingHere else {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: [],
                        debugDescription:
                            "the decoder of a fetched row was used after its record's init(from:) returned"))
            }
            guard ObjectIdentifier(type) == session.layout.keyType else {
                return session.uncachedContainer(keyedBy: type)
            }
            return session.container(keyedBy: type)
        }

        @usableFromInline func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            throw DecodingError.typeMismatch(
                [Any].self, .init(codingPath: codingPath, debugDescription: "a row is keyed"))
        }

        @usableFromInline func singleValueContainer() throws -> any SingleValueDecodingContainer {
            throw DecodingError.typeMismatch(
                Any.self, .init(codingPath: codingPath, debugDescription: "a row is keyed"))
        }
    }

    /// Where a keyed container finds its reader (unretained: it is alive while the
    /// container may read it).
    protocol ReaderSource {
        var reader: Unmanaged<Reader> { get }
    }

    /// A row's own reader, which the container holds.
    struct OwnReader: ReaderSource {
        let held: Reader

        init(_ reader: Reader) {
            held = reader
        }

        var reader: Unmanaged<Reader> { .passUnretained(held) }
    }

    /// A session's reader, which the container does not hold: the session does (and keeps
    /// it if a record kept the container, see `Session.deinit`).
    struct SessionReader: ReaderSource {
        unowned(unsafe) let held: Reader

        init(_ reader: Reader) {
            held = reader
        }

        var reader: Unmanaged<Reader> { .passUnretained(held) }
    }

    /// A keyed container, reading through `Source`: a row's own reader (`OwnReader`), or a
    /// session's (`SessionReader`), which holds no reference, so that the standard
    /// library's box, which copies the container on every call, copies it for free.
    struct Keyed<Key: CodingKey, Source: ReaderSource>: KeyedDecodingContainerProtocol {
        private let source: Source
        var codingPath: [any CodingKey] { [] }

        init(_ source: Source) {
            self.source = source
        }

        /// `body` with the reader.
        @inline(__always)
        private func reading<Result>(_ body: (Reader) throws -> Result) rethrows -> Result {
            try source.reader._withUnsafeGuaranteedRef(body)
        }

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

        var allKeys: [Key] { reading { reader in reader.names.compactMap { Key(stringValue: $0) } } }

        /// The value of the column of `key`, or nil when there is no such column.
        @inline(__always)
        private func lookUp(_ key: Key) throws -> SQLiteValue? {
            try reading { reader in
                guard reader.isReadable else { throw kept(key) }
                // Keys that are not tagged are looked up by name (tag 0 is never learned for them).
                return reader.value(at: reader.column(of: key, tag: Self.isTagged ? Self.tag(of: key) : 256))
            }
        }

        /// The error of a read through a container kept past its record's decoding.
        private func kept(_ key: Key) -> DecodingError {
            .dataCorrupted(
                .init(
                    codingPath: codingPath + [key],
                    debugDescription:
                        "a container of a fetched row was read after its record's init(from:) returned; read the values there"
                ))
        }

        /// Whether the row has a column for `key`; false for a kept container, whose every
        /// decode throws.
        func contains(_ key: Key) -> Bool { ((try? lookUp(key)) ?? nil) != nil }

        func decodeNil(forKey key: Key) throws -> Bool {
            try lookUp(key)?.isNull ?? true
        }

        /// The value of `key`, or nil when the column is missing or NULL: one look-up, where
        /// the protocol's own `decodeIfPresent` makes three.
        @inline(__always)
        private func present(_ key: Key) throws -> SQLiteValue? {
            guard let value = try lookUp(key), !value.isNull else { return nil }
            return value
        }

        @inline(__always)
        private func decoded<T>(_ key: Key, _ decode: (SQLiteValue) throws -> T) throws -> T? {
            guard let value = try present(key) else { return nil }
            return try decode(value)
        }

        // The common kinds read their column in place.
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
            switch try lookUp(key) {
            case .text(let text): return text
            case .null, .none: return nil
            case let value?: throw mismatch(type, key, value)
            }
        }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
            switch try lookUp(key) {
            case .real(let number): return number
            case .integer(let number): return Double(number)
            case .null, .none: return nil
            case let value?: throw mismatch(type, key, value)
            }
        }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
            switch try lookUp(key) {
            case .integer(let number): return number
            case .null, .none: return nil
            case let value?: return try integer(type, key, value)
            }
        }
        func decode(_ type: String.Type, forKey key: Key) throws -> String {
            switch try lookUp(key) {
            case .text(let text): return text
            case .none: throw missing(key)
            case let value?: throw mismatch(type, key, value)
            }
        }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
            switch try lookUp(key) {
            case .real(let number): return number
            case .integer(let number): return Double(number)
            case .none: throw missing(key)
            case let value?: throw mismatch(type, key, value)
            }
        }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
            switch try lookUp(key) {
            case .integer(let number): return number
            case .none: throw missing(key)
            case let value?: return try integer(type, key, value)
            }
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
            guard try present(key) != nil else { return nil }
            return try decode(type, forKey: key)
        }

        private func missing(_ key: Key) -> DecodingError {
            DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "no column \(key.stringValue)"))
        }

        private func value(_ key: Key) throws -> SQLiteValue {
            guard let value = try lookUp(key) else { throw missing(key) }
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
            throw mismatch([String: Any].self, key, (try lookUp(key)) ?? .null)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw mismatch([Any].self, key, (try lookUp(key)) ?? .null)
        }

        // A superclass decodes from the same row, its columns looked up by name.
        func superDecoder() throws -> any Swift.Decoder {
            try reading { reader in
                guard reader.isReadable else {
                    throw DecodingError.dataCorrupted(
                        .init(codingPath: codingPath, debugDescription: "a kept container of a fetched row has no row"))
                }
                return Decoder(row: Row(uniqueNames: reader.names, values: reader.values))
            }
        }
        func superDecoder(forKey key: Key) throws -> any Swift.Decoder { try superDecoder() }
    }
}

/// The calling thread, as a number: what a session's reader compares its owner with.
@usableFromInline @inline(__always)
func currentThreadID() -> UInt {
    #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
    #else
        UInt(pthread_self())
    #endif
}
