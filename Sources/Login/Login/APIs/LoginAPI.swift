import Foundation
import Networking
import Signals

/// The sign-in API: `account/login` with `username` and `password`, a POST.
package struct LoginAPI: APIDefinition {
    package let serviceName = "account"
    package let methodName = "account/login"
    package let httpMethod = HTTPMethod.post

    /// Creates the definition.
    package init() {}

    package func validateParameters(_ parameters: [String: String]) -> String? {
        LoginLogic.problem(username: parameters["username"] ?? "")
            ?? LoginLogic.problem(password: parameters["password"] ?? "")
    }

    package func validateResponse(_ response: JSONValue) -> String? {
        response["token"]?.stringValue == nil ? "the account service sent no token" : nil
    }
}
