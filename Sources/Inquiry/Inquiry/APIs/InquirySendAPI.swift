import Networking

/// `inquiry/send`: the message itself (with the URL of its photo, if it has one); the
/// service answers with the inquiry's reference.
struct InquirySendAPI: APIDefinition {
    let serviceName = "account"
    let methodName = "inquiry/send"
    let httpMethod = HTTPMethod.post
    let requestStrategy = RequestStrategy.ignoreNewWhileLoading

    func validateParameters(_ parameters: [String: String]) -> String? {
        parameters["text"]?.isEmpty == false && parameters["id"] != nil ? nil : "an inquiry needs a listing and a text"
    }

    func validateResponse(_ response: JSONValue) -> String? {
        response["reference"]?.stringValue == nil ? "the inquiry service sent no reference" : nil
    }
}
