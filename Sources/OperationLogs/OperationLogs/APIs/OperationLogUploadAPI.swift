import Networking

/// `logs/upload`: one batch of operation-log events, by POST; the service confirms how
/// many it accepted.
struct OperationLogUploadAPI: APIDefinition {
    let serviceName = "account"
    let methodName = "logs/upload"
    let httpMethod = HTTPMethod.post
    let requestStrategy = RequestStrategy.ignoreNewWhileLoading
    func validateResponse(_ response: JSONValue) -> String? {
        response["accepted"]?.intValue == nil ? "the log service did not confirm" : nil
    }
}
