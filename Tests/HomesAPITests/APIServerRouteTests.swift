import Foundation
import HomesAPI
import Networking
import Testing

/// The embedded API's route table: what an unknown path and a wrong method answer.
@Suite struct APIServerRouteTests {
    let server = HomesAPIServer(count: 3)

    func answer(_ method: HTTPMethod, _ path: String) -> (status: Int, json: JSONValue?) {
        let response = server.handle(HTTPRequest(method: method, url: URL(string: "http://127.0.0.1/api/\(path)")!))
        return (response.status, try? JSONValue(parsing: response.body))
    }

    @Test(arguments: ["rentals/nope", "inquiry/nope", "shops/list", "account/logout", "Rentals/list"])
    func anUnknownAPIIsNotFoundByName(name: String) {
        let (status, json) = answer(.get, name)
        #expect(status == 404)
        #expect(json?["message"]?.stringValue == "no API \(name)")
    }

    @Test(arguments: [HTTPMethod.get, .put])
    func loggingInTakesPOSTOnly(method: HTTPMethod) {
        let (status, json) = answer(method, "account/login?username=mei&password=homes2026")
        #expect(status == 405)
        #expect(json?["code"]?.intValue == 4050)
    }

    @Test(arguments: [HTTPMethod.get, .post, .put])
    func everyOtherRouteAnswersAnyMethod(method: HTTPMethod) {
        #expect(answer(method, "config/routes").status == 200)
        #expect(answer(method, "rentals/list").status == 200)
        #expect(answer(method, "resale/detail?id=1").status == 200)
        #expect(answer(method, "inquiry/upload-slot").status == 200)
        #expect(answer(method, "logs/upload?count=2").status == 200)
    }
}
