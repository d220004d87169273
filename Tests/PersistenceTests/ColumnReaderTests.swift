import Foundation
import Persistence
import Testing

// `ColumnReadable` records: read by `init(columns:)` from the statement's columns in place
// when fetched, and from a row's values by the `init(row:)` they get.

private struct KindsTable: Table {
    let database: Database
    let name = "kinds"
    let primaryKey = "id"
    let columns = [
        Column("id", .integer), Column("title", .text), Column("price", .real), Column("rooms", .integer),
        Column("photo", .blob), Column("flag", .integer),
    ]
}

/// Every kind, each column read as an optional; the columns by position, as `SELECT *` orders them.
private struct Kinds: ColumnReadable, Equatable {
    var id: Int64
    var title: String?
    var price: Double?
    var rooms: Int?
    var photo: Data?
    var flag: Bool?

    init(id: Int64, title: String?, price: Double?, rooms: Int?, photo: Data?, flag: Bool?) {
        (self.id, self.title, self.price, self.rooms, self.photo, self.flag) = (id, title, price, rooms, photo, flag)
    }

    init(columns: borrowing ColumnReader) throws {
        id = try columns.value(at: 0)
        title = try columns.value(at: 1)
        price = try columns.value(at: 2)
        rooms = try columns.value(at: 3)
        photo = try columns.value(at: 4)
        flag = try columns.value(at: 5)
    }

    func row(for table: any Table) throws -> Row {
        [
            "id": .integer(id), "title": title.map { .text($0) } ?? .null, "price": price.map { .real($0) } ?? .null,
            "rooms": rooms.map { .integer(Int64($0)) } ?? .null, "photo": photo.map { .blob($0) } ?? .null,
            "flag": flag.map { .integer($0 ? 1 : 0) } ?? .null,
        ]
    }
}

/// The same columns read as other types: what a `Row` would give for each.
private struct Converted: ColumnReadable {
    var id32: Int32
    var idAsDouble: Double
    var idAsValue: SQLiteValue
    var titleAsValue: SQLiteValue
    var priceAsDate: Date?
    var count: Int

    init(columns: borrowing ColumnReader) throws {
        id32 = try columns.value(at: 0)
        idAsDouble = try columns.value(at: 0)
        idAsValue = try columns.value(at: 0)
        titleAsValue = try columns.value(at: 1)
        priceAsDate = try columns.value(at: 2)
        count = columns.count
    }

    func row(for table: any Table) throws -> Row { [:] }
}

/// Reads one column as `Value`, to see what reading it gives or throws.
private struct One<Value: ColumnValue>: ColumnReadable {
    static var position: Int { 1 }
    var value: Value

    init(columns: borrowing ColumnReader) throws {
        value = try columns.value(at: Self.position)
    }

    func row(for table: any Table) throws -> Row { [:] }
}

/// Reads the price column as `Value`.
private struct Price<Value: ColumnValue>: ColumnReadable {
    var value: Value

    init(columns: borrowing ColumnReader) throws {
        value = try columns.value(at: 2)
    }

    func row(for table: any Table) throws -> Row { [:] }
}

/// Reads a position past the row's last column.
private struct PastTheEnd: ColumnReadable {
    var value: Int64?

    init(columns: borrowing ColumnReader) throws {
        value = try columns.value(at: 9)
    }

    func row(for table: any Table) throws -> Row { [:] }
}

private func filled(_ count: Int = 200) throws -> (folder: TemporaryFolder, table: KindsTable, kinds: [Kinds]) {
    let folder = TemporaryFolder()
    let table = KindsTable(database: folder.database())
    var kinds: [Kinds] = []
    for index in 1...count {
        let kind = Kinds(
            id: Int64(index), title: index % 3 == 0 ? nil : "Home \(index) ✓",
            price: index % 4 == 0 ? nil : Double(index) / 4,
            rooms: index % 5 == 0 ? nil : index % 7, photo: index % 2 == 0 ? Data([UInt8(index % 256), 0, 1]) : nil,
            flag: index % 6 == 0 ? nil : index % 2 == 0)
        try table.insert(kind)
        kinds.append(kind)
    }
    return (folder, table, kinds)
}

/// The description of the `DecodingError` `read` throws, or nil when it throws none.
private func failure(_ read: () throws -> Any) -> String? {
    do {
        _ = try read()
        return nil
    } catch DecodingError.typeMismatch(_, let context) {
        return
            "typeMismatch [\(context.codingPath.map(\.stringValue).joined(separator: "."))] \(context.debugDescription)"
    } catch DecodingError.keyNotFound(let key, let context) {
        return "keyNotFound \(key.stringValue): \(context.debugDescription)"
    } catch {
        return "\(error)"
    }
}

@Suite struct ColumnReaderTests {
    @Test func fetchedRecordsReadEveryKindAndNullsAsStored() throws {
        let (_, table, kinds) = try filled()
        #expect(try table.records(Kinds.self) == kinds)
        // Run again, and with a condition, an order and a limit.
        #expect(try table.records(Kinds.self) == kinds)
        #expect(
            try table.records(Kinds.self, where: "rooms IS NULL", orderBy: "id DESC", limit: 5)
                == Array(kinds.filter { $0.rooms == nil }.reversed().prefix(5)))
    }

    @Test func aRowReadsThroughTheSameInitializer() throws {
        let (_, table, kinds) = try filled(30)
        // `init(row:)`, which a `ColumnReadable` record gets, reads a row's values.
        #expect(try table.findAll().map { try Kinds(row: $0) } == kinds)
        #expect(try table.record(Kinds.self, primaryKey: 12) == kinds[11])
    }

    @Test func valuesReadAsOtherTypesAsARowWouldGiveThem() throws {
        let (_, table, _) = try filled(4)
        let fetched = try table.records(Converted.self)
        let fromRows = try table.findAll().map { try Converted(row: $0) }
        for converted in [fetched, fromRows] {
            #expect(converted.map(\.id32) == [1, 2, 3, 4])
            #expect(converted.map(\.idAsDouble) == [1, 2, 3, 4])
            #expect(converted.map(\.idAsValue) == [1, 2, 3, 4])
            #expect(converted.map(\.titleAsValue) == ["Home 1 ✓", "Home 2 ✓", .null, "Home 4 ✓"])
            #expect(
                converted.map(\.priceAsDate)
                    == [0.25, 0.5, 0.75, nil].map { $0.map(Date.init(timeIntervalSince1970:)) })
            #expect(converted.map(\.count) == [6, 6, 6, 6])
        }
        // A whole real reads as an integer; any other does not.
        try table.database.execute(#"UPDATE "kinds" SET "price" = 3.0 WHERE "id" = 1"#)
        #expect(try table.records(Price<Int>.self, limit: 1).map(\.value) == [3])
        #expect(try table.records(Price<Int?>.self, limit: 1).map(\.value) == [3])
        #expect(
            failure { try table.records(Price<Int>.self) } == "typeMismatch [price] column price holds 0.5, not Int")
    }

    @Test func aWrongTypeOrANullOrNoSuchColumnIsAnErrorNamingIt() throws {
        let (_, table, _) = try filled(3)
        let rows = try table.findAll()
        // Fetched, and read from a row: the same errors.
        let expectations: [(() throws -> Any, () throws -> Any, String)] = [
            (
                { try table.records(One<Int64>.self) }, { try One<Int64>(row: rows[0]) },
                "typeMismatch [title] column title holds 'Home 1 ✓', not Int64"
            ),
            (
                { try table.records(One<Data?>.self) }, { try One<Data?>(row: rows[0]) },
                "typeMismatch [title] column title holds 'Home 1 ✓', not Optional<Data>"
            ),
            (
                { try table.records(PastTheEnd.self) }, { try PastTheEnd(row: rows[0]) },
                "keyNotFound 9: no column at position 9: the row has 6"
            ),
        ]
        for (fetched, fromRow, expected) in expectations {
            #expect(failure(fetched) == expected)
            #expect(failure(fromRow) == expected)
        }
        // Row 3 is the first without a title: NULL is no `String`.
        #expect(try table.records(One<String>.self, limit: 2).map(\.value) == ["Home 1 ✓", "Home 2 ✓"])
        #expect(
            failure { try table.records(One<String>.self) }
                == "typeMismatch [title] column title holds NULL, not String")
        #expect(failure { try One<String>(row: rows[2]) } == "typeMismatch [title] column title holds NULL, not String")
        #expect(try table.records(One<String?>.self).map(\.value) == ["Home 1 ✓", "Home 2 ✓", nil])
        // The statement is usable after a failed read.
        #expect(try table.records(Kinds.self).count == 3)
    }
}

/// Both `Codable` and `ColumnReadable`: fetched in place, encoded by `Codable`.
private struct Both: Codable, ColumnReadable, Equatable {
    var id: Int64
    var title: String?
    /// Whether `init(columns:)` made it (not stored).
    var readInPlace = false

    enum CodingKeys: String, CodingKey { case id, title }

    init(id: Int64, title: String?, readInPlace: Bool = true) {
        (self.id, self.title, self.readInPlace) = (id, title, readInPlace)
    }

    init(columns: borrowing ColumnReader) throws {
        id = try columns.value(at: 0)
        title = try columns.value(at: 1)
        readInPlace = true
    }
}

@Suite struct CodableColumnReadableTests {
    @Test func aCodableColumnReadableRecordIsStoredByCodableAndReadInPlace() throws {
        let folder = TemporaryFolder()
        let table = KindsTable(database: folder.database())
        try table.insert(Both(id: 1, title: "Loft"))
        try table.insert(Both(id: 2, title: nil))
        #expect(try table.records(Both.self) == [Both(id: 1, title: "Loft"), Both(id: 2, title: nil)])
        // A row is read by `init(columns:)` too, not by `Decodable`.
        #expect(try table.record(Both.self, primaryKey: 2) == Both(id: 2, title: nil))
        #expect(try Both(row: ["id": 3, "title": "Barn"]) == Both(id: 3, title: "Barn"))
    }
}
