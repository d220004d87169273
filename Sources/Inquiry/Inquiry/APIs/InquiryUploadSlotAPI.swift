import Networking

/// `inquiry/upload-slot`: a slot to upload a photo to.
struct InquiryUploadSlotAPI: APIDefinition {
    let serviceName = "account"
    let methodName = "inquiry/upload-slot"
    let httpMethod = HTTPMethod.post
    let requestStrategy = RequestStrategy.ignoreNewWhileLoading

    func validateResponse(_ response: JSONValue) -> String? {
        response["slot"]?.stringValue == nil ? "no upload slot" : nil
    }
}
