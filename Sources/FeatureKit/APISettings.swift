import Foundation

/// How the app reaches its API, for the services a feature declares: where it is, how
/// requests are signed, and the server's codes for a signature it refuses.
package struct APISettings: Sendable {
    /// The API's base URL.
    package let baseURL: URL
    /// The codes the server answers a signature it refuses with.
    package let signatureRejectedCodes: Set<Int>
    /// The secret requests are signed with.
    package let signingSecret: [UInt8]

    /// Settings for the API at `baseURL`, signed with `signingSecret`.
    package init(baseURL: URL, signatureRejectedCodes: Set<Int>, signingSecret: [UInt8]) {
        self.baseURL = baseURL
        self.signatureRejectedCodes = signatureRejectedCodes
        self.signingSecret = signingSecret
    }
}
