import Networking

/// `inquiry/upload`: a photo, base64, into a slot; the service answers with its URL.
struct InquiryUploadAPI: APIDefinition {
    let serviceName = "account"
    let methodName = "inquiry/upload"
    let httpMethod = HTTPMethod.post
    let requestStrategy = RequestStrategy.ignoreNewWhileLoading

    func validateParameters(_ parameters: [String: String]) -> String? {
        parameters["slot"] != nil && parameters["photo"]?.isEmpty == false ? nil : "an upload needs a slot and a photo"
    }

    func validateResponse(_ response: JSONValue) -> String? {
        response["url"]?.stringValue == nil ? "the photo was not stored" : nil
    }
}
