import Foundation
import Networking
import Signals

/// The sign-in API: `account/login` with `username` and `password`, a POST.
public struct LoginAPI: APIDefinition {
    public let serviceName = "account"
    public let methodName = "account/login"
    public let httpMethod = HTTPMethod.post

    /// Creates the definition.
    public init() {}

    public func validateParameters(_ parameters: [String: String]) -> String? {
        LoginLogic.problem(username: parameters["username"] ?? "")
            ?? LoginLogic.problem(password: parameters["password"] ?? "")
    }

    public func validateResponse(_ response: JSONValue) -> String? {
        response["token"]?.stringValue == nil ? "the account service sent no token" : nil
    }
}
