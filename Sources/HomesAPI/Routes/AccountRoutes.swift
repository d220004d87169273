import Networking

/// Accounts: logging in.
extension HomesAPIServer {
    static let accountRoutes = [
        // Credentials in a URL end up in logs and histories.
        Route(.only(.post, refusal: "log in with POST: credentials never travel in a URL"), "account/login") {
            $0.login($1)
        }
    ]

    /// The demo accounts: any valid username, with the password `homes2026`.
    private func login(_ parameters: [String: String]) -> HTTPResponse {
        guard let user = parameters["username"], !user.isEmpty, parameters["password"] == "homes2026" else {
            return .json(["code": 4001, "message": "wrong username or password"], status: 401)
        }
        return .json(["token": .string("token-\(user)"), "user": .string(user)])
    }
}
