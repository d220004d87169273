import Foundation
import HomesAPI
import Networking
import Testing

/// The embedded API's list pages, which it assembles from items encoded once at start.
@Suite struct APIServerListTests {
    let server = HomesAPIServer(count: 10)

    func page(_ path: String) throws -> (body: Data, json: JSONValue) {
        let response = server.handle(HTTPRequest(method: .get, url: URL(string: "http://127.0.0.1/api/\(path)")!))
        #expect(response.status == 200)
        #expect(response.headers["Content-Type"] == "application/json")
        return (response.body, try JSONValue(parsing: response.body))
    }

    @Test(arguments: HomesAPIServer.Service.allCases)
    func aListPageIsTheCanonicalJSONOfItsItemsAndPagesCoverEveryListingOnce(service: HomesAPIServer.Service) throws {
        let keys = service.pageKeys
        let prefix = service.keyPrefix
        var ids: [Int] = []
        for number in 1...4 {
            let (body, json) = try page("\(service.listMethod)?\(keys.page)=\(number)&\(keys.size)=4")
            // Byte for byte what the encoder writes for the same value: nothing hand-assembled shows.
            #expect(json.encoded() == body)
            #expect(json["total"]?.intValue == 10)
            let items = json["items"]?.arrayValue ?? []
            #expect(items.count == [4, 4, 2, 0][number - 1])
            for item in items {
                #expect(item[prefix + "rooms"]?.intValue != nil)
                #expect(item[prefix + "name"]?.stringValue?.isEmpty == false)
                ids += item[prefix + "id"]?.intValue.map { [$0] } ?? []
            }
        }
        #expect(ids == Array(1...10))
    }

    @Test func aFilteredPageCountsOnlyWhatMatches() throws {
        let (all, _) = try page("rentals/list?page_size=100")
        let rooms =
            (try JSONValue(parsing: all))["items"]?.arrayValue?.filter { $0["rooms"]?.intValue == 2 }.count ?? -1
        let (body, json) = try page("rentals/list?page_size=100&rooms=2")
        #expect(json.encoded() == body)
        #expect(json["total"]?.intValue == rooms)
        #expect(json["items"]?.arrayValue?.count == rooms)
        #expect(json["items"]?.arrayValue?.allSatisfy { $0["rooms"]?.intValue == 2 } == true)
    }
}
