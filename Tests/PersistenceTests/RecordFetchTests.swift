import Dispatch
import Foundation
import Persistence
import Testing

// Fetching records: `Codable` records through the decoder that learns a fetch's columns on
// its first row, and hand-written `init(row:)` through `Row.value(at:)` and `Row.value(_:)`.

private struct HomeTable: Table {
    let database: Database
    let name = "home"
    let primaryKey = "id"
    let columns = [
        Column("id", .integer), Column("code", .text, notNull: true), Column("title", .text),
        Column("price", .real), Column("rooms", .integer), Column("details", .text),
    ]
}

private struct Details: Codable, Equatable {
    var floor: Int
    var view: String?
}

private enum Kind: String, Codable {
    case flat, house
}

/// Every property optional but the code; a nested value stored as JSON text.
private struct Home: Codable, Record, Equatable {
    var id: Int64
    var code: String
    var title: String?
    var price: Double?
    var rooms: Int?
    var details: Details?
}

/// Its keys are not its properties' names, and are declared out of column order.
private struct Renamed: Codable, Record, Equatable {
    var label: String?
    var reference: String
    var number: Int64

    enum CodingKeys: String, CodingKey {
        case label = "title"
        case reference = "code"
        case number = "id"
    }
}

/// Decodes its keys in the reverse of the columns' order, and asks about one twice.
private struct Backwards: Codable, Record, Equatable {
    var rooms: Int?
    var price: Double?
    var code: String
    var hasTitle: Bool

    enum CodingKeys: String, CodingKey { case rooms, price, title, code }

    init(rooms: Int?, price: Double?, code: String, hasTitle: Bool) {
        (self.rooms, self.price, self.code, self.hasTitle) = (rooms, price, code, hasTitle)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        rooms = try container.decodeIfPresent(Int.self, forKey: .rooms)
        price = try container.decodeIfPresent(Double.self, forKey: .price)
        hasTitle = try container.contains(.title) && !container.decodeNil(forKey: .title)
        code = try container.decode(String.self, forKey: .code)
    }

    // Read only.
    func encode(to encoder: any Encoder) throws {}
}

/// Keys that are not an enum (too wide to be told apart by their case): looked up by name.
private struct ByName: Codable, Record, Equatable {
    var code: String
    var title: String?

    struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(code: String, title: String?) {
        (self.code, self.title) = (code, title)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        code = try container.decode(String.self, forKey: Key(stringValue: "code"))
        title = try container.decodeIfPresent(String.self, forKey: Key(stringValue: "title"))
    }

    // Read only.
    func encode(to encoder: any Encoder) throws {}
}

/// A subclass whose superclass decodes from the same row, through `superDecoder()`.
private class Listed: Codable {
    var id: Int64
    var code: String
}

private final class Priced: Listed, Record {
    var price: Double?

    enum CodingKeys: String, CodingKey { case price }

    required init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        price = try container.decodeIfPresent(Double.self, forKey: .price)
        try super.init(from: container.superDecoder())
    }

    override func encode(to encoder: any Encoder) throws {}
}

/// Asks for two kinds of keys, and lists the keys of the row's columns.
private struct TwoKinds: Codable, Record, Equatable {
    var code: String
    var title: String?
    var known: [String]

    enum First: String, CodingKey { case code, rooms }
    enum Second: String, CodingKey { case title, price, id }

    init(code: String, title: String?, known: [String]) {
        (self.code, self.title, self.known) = (code, title, known)
    }

    init(from decoder: any Decoder) throws {
        let first = try decoder.container(keyedBy: First.self)
        let second = try decoder.container(keyedBy: Second.self)
        code = try first.decode(String.self, forKey: .code)
        title = try second.decodeIfPresent(String.self, forKey: .title)
        known = (first.allKeys.map(\.stringValue) + second.allKeys.map(\.stringValue)).sorted()
    }

    func encode(to encoder: any Encoder) throws {}
}

/// Keeps its decoder's container and reads it only when asked, after the fetch.
private struct Lazy: Codable, Record {
    let container: KeyedDecodingContainer<CodingKeys>

    enum CodingKeys: String, CodingKey { case code, title }

    init(from decoder: any Decoder) throws {
        container = try decoder.container(keyedBy: CodingKeys.self)
    }

    var code: String { get throws { try container.decode(String.self, forKey: .code) } }
    var title: String? { get throws { try container.decodeIfPresent(String.self, forKey: .title) } }

    func encode(to encoder: any Encoder) throws {}
}

/// Keeps its container on every third row only, and reads it after the fetch.
private struct SometimesLazy: Codable, Record {
    var code: String
    let kept: KeyedDecodingContainer<CodingKeys>?

    enum CodingKeys: String, CodingKey { case id, code }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        code = try container.decode(String.self, forKey: .code)
        kept = try container.decode(Int.self, forKey: .id) % 3 == 0 ? container : nil
    }

    func encode(to encoder: any Encoder) throws {}
}

/// Needs a title, which some rows do not have.
private struct Titled: Codable, Record {
    var code: String
    var title: String
}

/// Has a property the table has no column for.
private struct WithColour: Codable, Record {
    var code: String
    var colour: String
}

private struct WithOptionalColour: Codable, Record, Equatable {
    var code: String
    var colour: String?
}

/// Rooms as a number, which a row holding text there cannot give.
private struct Counted: Codable, Record {
    var code: String
    var rooms: Int
}

/// A record that keeps the row it was read from.
private struct Kept: Record {
    var row: Row

    init(row: Row) throws { self.row = row }
    func row(for table: any Table) throws -> Row { row }
}

/// Read by a hand-written initializer, its columns by position and by name.
private struct HandRead: Record, Equatable {
    var id: Int64
    var code: String
    var title: String?
    var price: Double?
    var rooms: Int?

    init(id: Int64, code: String, title: String?, price: Double?, rooms: Int?) {
        (self.id, self.code, self.title, self.price, self.rooms) = (id, code, title, price, rooms)
    }

    init(row: Row) throws {
        id = try row.value(at: 0)
        code = try row.value(at: 1)
        title = try row.value(at: 2)
        price = try row.value("price")
        rooms = try row.value("rooms")
    }

    func row(for table: any Table) throws -> Row { [:] }
}

/// Reads the same query again for each of its rows, while the outer read is stepping.
private struct Nosy: Record {
    var code: String
    var seen: [String]

    struct Inner: Codable, Record { var code: String }

    init(row: Row) throws {
        code = try row.value("code")
        let database = DatabaseRegistry.shared.database(at: try row.value("path"))
        seen = try NosyTable(database: database).records(Inner.self).map(\.code)
        // Not closed while the outer read steps: it would finalize that statement.
        database.close()
    }

    func row(for table: any Table) throws -> Row { [:] }
}

private struct NosyTable: Table {
    let database: Database
    let name = "nosy"
    let primaryKey = "id"
    let columns = [Column("id", .integer), Column("code", .text, notNull: true), Column("path", .text)]
}

private func filled(_ count: Int = 300) throws -> (folder: TemporaryFolder, table: HomeTable, homes: [Home]) {
    let folder = TemporaryFolder()
    let table = HomeTable(database: folder.database())
    var homes: [Home] = []
    for index in 1...count {
        let home = Home(
            id: Int64(index), code: "h-\(index)", title: index % 3 == 0 ? nil : "Home \(index)",
            price: index % 4 == 0 ? nil : Double(index) * 10.5, rooms: index % 5 == 0 ? nil : index % 7,
            details: index % 2 == 0 ? Details(floor: index % 9, view: index % 4 == 0 ? nil : "park") : nil)
        try table.insert(home)
        homes.append(home)
    }
    return (folder, table, homes)
}

@Suite struct RecordFetchTests {
    @Test func codableRecordsComeBackAsStoredOverManyRowsOfOneStatement() throws {
        let (_, table, homes) = try filled()
        // The same statement, run again: each fetch learns its columns anew.
        #expect(try table.records(Home.self) == homes)
        #expect(try table.records(Home.self) == homes)
        #expect(try table.records(Home.self, where: "rooms IS NULL") == homes.filter { $0.rooms == nil })
        #expect(try table.records(Home.self, orderBy: "id DESC", limit: 7) == Array(homes.reversed().prefix(7)))
    }

    @Test func keysThatAreNotTheColumnsNamesOrOrderReadTheirColumns() throws {
        let (_, table, homes) = try filled()
        #expect(
            try table.records(Renamed.self)
                == homes.map { Renamed(label: $0.title, reference: $0.code, number: $0.id) })
        #expect(
            try table.records(Backwards.self)
                == homes.map { Backwards(rooms: $0.rooms, price: $0.price, code: $0.code, hasTitle: $0.title != nil) })
        #expect(try table.records(ByName.self) == homes.map { ByName(code: $0.code, title: $0.title) })
        // Two record types over the same query, one after the other.
        #expect(try table.records(Home.self) == homes)
    }

    @Test func superclassesAndSecondContainersReadTheSameRow() throws {
        let (_, table, homes) = try filled(30)
        let priced = try table.records(Priced.self)
        #expect(priced.map(\.id) == homes.map(\.id))
        #expect(priced.map(\.code) == homes.map(\.code))
        #expect(priced.map(\.price) == homes.map(\.price))
        let known = ["code", "id", "price", "rooms", "title"]
        #expect(
            try table.records(TwoKinds.self) == homes.map { TwoKinds(code: $0.code, title: $0.title, known: known) })
    }

    @Test func aNullColumnOnALaterRowIsAnErrorNamingIt() throws {
        let (_, table, _) = try filled()
        // Rows 1 and 2 have titles; row 3 is the first without one.
        #expect(try table.records(Titled.self, limit: 2).map(\.title) == ["Home 1", "Home 2"])
        #expect {
            try table.records(Titled.self)
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.debugDescription == "column title holds NULL, not String"
                && context.codingPath.map(\.stringValue) == ["title"]
        }
    }

    @Test func aMissingColumnIsKeyNotFoundNamingItOrNilWhenOptional() throws {
        let (_, table, homes) = try filled(20)
        #expect {
            try table.records(WithColour.self)
        } throws: { error in
            guard case DecodingError.keyNotFound(let key, let context) = error else { return false }
            return key.stringValue == "colour" && context.debugDescription == "no column colour"
        }
        #expect(try table.records(WithOptionalColour.self) == homes.map { WithOptionalColour(code: $0.code) })
    }

    @Test func aValueOfTheWrongTypeOnALaterRowIsAnErrorNamingItsColumn() throws {
        let (_, table, _) = try filled(20)
        // SQLite keeps text it cannot convert in an INTEGER column.
        try table.database.execute(#"UPDATE "home" SET "rooms" = 'many' WHERE "id" = 12"#)
        #expect(try table.records(Counted.self, limit: 4).map(\.rooms) == [1, 2, 3, 4])
        #expect {
            try table.records(Counted.self, where: "rooms IS NOT NULL")
        } throws: { error in
            guard case DecodingError.typeMismatch(_, let context) = error else { return false }
            return context.debugDescription == "column rooms holds 'many', not Int"
        }
        #expect(throws: (any Error).self) { try table.records(HandRead.self) }
    }

    @Test func nestedAndOptionalValuesComeBack() throws {
        struct Listing: Codable, Record, Equatable {
            var code: String
            var details: Details?
            var kind: Kind
            var tags: [String]
        }
        struct ListingTable: Table {
            let database: Database
            let name = "listing"
            let primaryKey = "id"
            let columns = [
                Column("id", .integer), Column("code", .text), Column("details", .text), Column("kind", .text),
                Column("tags", .text),
            ]
        }
        let folder = TemporaryFolder()
        let table = ListingTable(database: folder.database())
        let listings = (0..<50).map {
            Listing(
                code: "l-\($0)", details: $0 % 2 == 0 ? Details(floor: $0, view: nil) : nil,
                kind: $0 % 3 == 0 ? .house : .flat, tags: Array(repeating: "t", count: $0 % 4))
        }
        for listing in listings { try table.insert(listing) }
        #expect(try table.records(Listing.self) == listings)
    }

    @Test func aRecordThatKeepsItsRowKeepsItsOwnValues() throws {
        let (_, table, homes) = try filled(40)
        let kept = try table.records(Kept.self)
        #expect(kept.map { $0.row["code"] } == homes.map { .text($0.code) })
        // A kept row decodes later as it read, here and on other threads at once.
        #expect(try kept.map { try Home(row: $0.row) } == homes)
        let decoded = DecodedHomes(count: kept.count)
        DispatchQueue.concurrentPerform(iterations: kept.count) { index in
            decoded.set(index, try? Home(row: kept[index].row))
        }
        #expect(decoded.all == homes)
    }

    @Test func aRecordThatKeepsItsContainerReadsItsOwnRowAfterTheFetch() throws {
        let (_, table, homes) = try filled(50)
        // A record that keeps its container on the fetch's first row: every row gets a
        // container of its own, which reads that row's values whenever it is asked.
        let lazy = try table.records(Lazy.self)
        #expect(try lazy.map { try $0.code } == homes.map(\.code))
        #expect(try lazy.map { try $0.title } == homes.map(\.title))
        // One that keeps it on later rows only gets the fetch's shared container there,
        // which holds no row once the fetch is over: every read of it is an error (it
        // contains nothing), never a crash, nor another row's value, nor a quiet nil.
        let sometimes = try table.records(SometimesLazy.self)
        #expect(sometimes.map(\.code) == homes.map(\.code))
        var checked = 0
        for record in sometimes {
            guard let kept = record.kept else { continue }
            checked += 1
            #expect(throws: DecodingError.self) { try kept.decode(String.self, forKey: .code) }
            #expect(throws: DecodingError.self) { try kept.decodeIfPresent(String.self, forKey: .code) }
            #expect(throws: DecodingError.self) { try kept.decodeNil(forKey: .code) }
            #expect(throws: DecodingError.self) { try kept.decodeIfPresent(Int.self, forKey: .id) }
            #expect(!kept.contains(.code))
        }
        #expect(checked > 10)
    }

    /// The shared container reads its fetch's reader unretained: a record that keeps it
    /// keeps that reader alive, fetch after fetch, so a read of any kept container, after
    /// its fetch and while later fetches decode, throws and reads no freed memory.
    @Test func containersKeptFromManyFetchesThrowLongAfterTheirFetches() throws {
        let (_, table, homes) = try filled(30)
        var kept: [KeyedDecodingContainer<SometimesLazy.CodingKeys>] = []
        for _ in 0..<5 {
            kept += try table.records(SometimesLazy.self).compactMap(\.kept)
            #expect(try table.records(Home.self) == homes)
        }
        #expect(kept.count > 10)
        for container in kept {
            #expect(throws: DecodingError.self) { try container.decode(String.self, forKey: .code) }
            #expect(container.allKeys.isEmpty == false)
        }
        // Fetched again, with every kept container let go of, the rows decode as ever.
        kept = []
        #expect(try table.records(Home.self) == homes)
    }

    @Test func aQueryRunAgainWhileItsRowsAreReadRunsOnItsOwn() throws {
        let folder = TemporaryFolder()
        let path = folder.path()
        let table = NosyTable(database: DatabaseRegistry.shared.database(at: path))
        defer { table.database.close() }
        let codes = (1...5).map { "n-\($0)" }
        for code in codes { try table.insert(["code": .text(code), "path": .text(path)]) }
        // Each row's initializer runs the very query whose rows are being read.
        let nosy = try table.records(Nosy.self)
        #expect(nosy.map(\.code) == codes)
        #expect(nosy.allSatisfy { $0.seen == codes })
        #expect(try table.records(Nosy.self).count == 5)
    }

    @Test func handWrittenInitializersReadColumnsByPositionAndName() throws {
        let (_, table, homes) = try filled()
        #expect(
            try table.records(HandRead.self)
                == homes.map { HandRead(id: $0.id, code: $0.code, title: $0.title, price: $0.price, rooms: $0.rooms) })
    }

    @Test func rowValuesReadAsEachKindAndNameTheColumnThatFails() throws {
        let row: Row = [
            "id": 7, "price": 2.5, "whole": 3.0, "title": "Loft", "photo": .blob(Data([1, 2])), "none": nil,
            "flag": 1, "at": 86_400,
        ]
        #expect(try row.value(at: 0) == Int64(7))
        #expect(try row.value(at: 0) == 7)
        #expect(try row.value(at: 0, as: Int32.self) == 7)
        #expect(try row.value("price") == 2.5)
        #expect(try row.value("id") == 7.0)
        #expect(try row.value("whole", as: Int.self) == 3)
        #expect(try row.value("title") == "Loft")
        #expect(try row.value("photo") == Data([1, 2]))
        #expect(try row.value("none", as: String?.self) == nil)
        #expect(try row.value("title", as: String?.self) == "Loft")
        #expect(try row.value("flag") == true)
        #expect(try row.value("at") == Date(timeIntervalSince1970: 86_400))
        #expect(try row.value("none") == SQLiteValue.null)

        func failure(_ read: () throws -> Any) -> String? {
            do {
                _ = try read()
                return nil
            } catch DecodingError.typeMismatch(_, let context), DecodingError.keyNotFound(_, let context) {
                return context.debugDescription
            } catch {
                return "\(error)"
            }
        }
        #expect(failure { try row.value("none", as: String.self) } == "column none holds NULL, not String")
        #expect(failure { try row.value("title", as: Int64.self) } == "column title holds 'Loft', not Int64")
        #expect(failure { try row.value("price", as: Int.self) } == "column price holds 2.5, not Int")
        #expect(failure { try row.value(at: 3, as: Double.self) } == "column title holds 'Loft', not Double")
        #expect(failure { try row.value("colour", as: String.self) } == "no column colour")
        #expect(failure { try row.value(at: 8, as: String.self) } == "no column at position 8: the row has 8")
        #expect(failure { try row.value(at: -1, as: String.self) } == "no column at position -1: the row has 8")
        #expect(failure { try row.value("big", as: Int32.self) } == "no column big")
        let big: Row = ["big": .integer(Int64(Int32.max) + 1)]
        #expect(failure { try big.value("big", as: Int32.self) } == "column big holds 2147483648, not Int32")
    }
}

/// Results written by many threads at once, each to its own slot.
private final class DecodedHomes: @unchecked Sendable {
    // Guarded by `lock`; small, and only for this test.
    private let lock = NSLock()
    private var homes: [Home?]

    init(count: Int) { homes = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ home: Home?) {
        lock.withLock { homes[index] = home }
    }

    var all: [Home] { lock.withLock { homes.compactMap { $0 } } }
}
