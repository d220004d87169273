import Foundation
import Networking
import Signals

/// A message to a listing's agent, plain or with a photo.
public struct InquiryMessage: Sendable {
    /// The listing's kind name (`rent`, `new`, `resale`).
    public let kind: String
    /// The listing's id.
    public let listingID: Int
    /// What to ask.
    public let text: String
    /// A photo to attach, if any.
    public let photo: Data?

    /// A message.
    public init(kind: String, listingID: Int, text: String, photo: Data? = nil) {
        self.kind = kind
        self.listingID = listingID
        self.text = text
        self.photo = photo
    }
}

/// How one kind of message is sent; the sender picks one per message.
@MainActor
public protocol InquiryStrategy {
    /// Sends `message`; calls `completion` once with the inquiry's reference or an error.
    func send(_ message: InquiryMessage, completion: @escaping (Result<String, InquiryError>) -> Void)
    /// Stops the message on its way, if any: its completion reports the cancellation.
    func cancel()
}

extension InquiryStrategy {
    /// Does nothing: a strategy that finishes at once has nothing to stop.
    public func cancel() {}
}

/// Why an inquiry was not sent.
public struct InquiryError: Error, Equatable, CustomStringConvertible, Sendable {
    /// What went wrong.
    public let description: String
}

/// Sends inquiries: the controller makes one call and gets one result, whatever the
/// message needs (the strategy pattern).
@MainActor
public final class InquirySender {
    private let plain: any InquiryStrategy
    private let withPhoto: any InquiryStrategy

    /// A sender over `engine`'s `account` service.
    public init(engine: APIEngine) {
        plain = PlainInquiryStrategy(engine: engine)
        withPhoto = PhotoInquiryStrategy(engine: engine)
    }

    /// A sender with given strategies (for tests).
    public init(plain: any InquiryStrategy, withPhoto: any InquiryStrategy) {
        self.plain = plain
        self.withPhoto = withPhoto
    }

    /// Sends `message` with the strategy its kind needs.
    public func send(_ message: InquiryMessage, completion: @escaping (Result<String, InquiryError>) -> Void) {
        (message.photo == nil ? plain : withPhoto).send(message, completion: completion)
    }

    /// Stops the message on its way, if any.
    public func cancel() {
        plain.cancel()
        withPhoto.cancel()
    }
}

// MARK: - Strategies

/// One call: `inquiry/send`.
final class PlainInquiryStrategy: InquiryStrategy {
    private let engine: APIEngine
    private weak var current: Call?

    init(engine: APIEngine) {
        self.engine = engine
    }

    func send(_ message: InquiryMessage, completion: @escaping (Result<String, InquiryError>) -> Void) {
        let call = Call(InquiryAPI(method: "inquiry/send"), engine: engine, parameters: [
            "kind": message.kind, "id": String(message.listingID), "text": message.text,
        ]) { result in
            completion(result.flatMap { reference($0) })
        }
        current = call
    }

    func cancel() {
        current?.cancel()
    }
}

/// Three calls: ask for an upload slot, upload the photo to it, then send with its URL.
/// Cancelling stops the call in flight, and no later call starts.
final class PhotoInquiryStrategy: InquiryStrategy {
    private let engine: APIEngine
    private weak var current: Call?

    init(engine: APIEngine) {
        self.engine = engine
    }

    func send(_ message: InquiryMessage, completion: @escaping (Result<String, InquiryError>) -> Void) {
        let engine = self.engine
        let first = Call(InquiryAPI(method: "inquiry/upload-slot"), engine: engine, parameters: [:]) { [weak self] slot in
            guard case .success(let data) = slot, let slotID = data["slot"]?.stringValue else {
                return completion(.failure(slot.failure ?? InquiryError(description: "no upload slot")))
            }
            let photo = message.photo?.base64EncodedString() ?? ""
            let second = Call(InquiryAPI(method: "inquiry/upload"), engine: engine,
                              parameters: ["slot": slotID, "photo": photo]) { [weak self] upload in
                guard case .success(let uploaded) = upload, let url = uploaded["url"]?.stringValue else {
                    return completion(.failure(upload.failure ?? InquiryError(description: "the photo was not stored")))
                }
                let third = Call(InquiryAPI(method: "inquiry/send"), engine: engine, parameters: [
                    "kind": message.kind, "id": String(message.listingID), "text": message.text, "photo_url": url,
                ]) { sent in
                    completion(sent.flatMap { reference($0) })
                }
                self?.current = third
            }
            self?.current = second
        }
        current = first
    }

    func cancel() {
        current?.cancel()
    }
}

private func reference(_ data: JSONValue) -> Result<String, InquiryError> {
    guard let reference = data["reference"]?.stringValue else {
        return .failure(InquiryError(description: "the inquiry service sent no reference"))
    }
    return .success(reference)
}

extension Result where Failure == InquiryError {
    fileprivate var failure: InquiryError? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

/// The inquiry APIs: POSTs to the `account` service.
struct InquiryAPI: APIDefinition {
    let serviceName = "account"
    let methodName: String
    let httpMethod = HTTPMethod.post

    init(method: String) {
        methodName = method
    }
}

/// One call of one API, landing in a closure: the strategies' building block. It keeps
/// itself alive until its call lands.
@MainActor
final class Call: APIManagerDelegate, APIManagerParameterSource {
    private let manager: APIManager<InquiryAPI>
    private let parameters: [String: String]
    private var completion: ((Result<JSONValue, InquiryError>) -> Void)?
    private var keepAlive: Call?

    @discardableResult
    init(_ api: InquiryAPI, engine: APIEngine, parameters: [String: String],
         completion: @escaping (Result<JSONValue, InquiryError>) -> Void) {
        manager = APIManager(api, engine: engine)
        self.parameters = parameters
        self.completion = completion
        manager.delegate = self
        manager.parameterSource = self
        keepAlive = self
        if !manager.loadData() { land(.failure(InquiryError(description: "the call did not start"))) }
    }

    /// Stops the call; it lands as a failure saying so.
    func cancel() {
        manager.cancelAllRequests()
    }

    func parameters(for manager: any APIManaging) -> [String: String] {
        parameters
    }

    func apiManagerDidSucceed(_ manager: any APIManaging) {
        land(.success(manager.fetchData() ?? .null))
    }

    func apiManagerDidFail(_ manager: any APIManaging) {
        land(.failure(InquiryError(description: manager.lastResult?.message ?? "the inquiry service failed")))
    }

    private func land(_ result: Result<JSONValue, InquiryError>) {
        let done = completion
        completion = nil
        keepAlive = nil
        done?(result)
    }
}

/// The inquiry form's logic: reads the photo, sends through the sender, tells the result.
@MainActor
public final class InquiryLogic {
    /// Sending, sent or failed, for the screen.
    public let status: Property<String?>
    /// Whether a message is on its way.
    public let isSending: Property<Bool>
    private let statusState = MutableProperty<String?>(nil)
    private let sendingState = MutableProperty(false)
    private let sender: InquirySender

    /// The largest photo accepted, in bytes.
    public static let maximumPhotoSize = 512 * 1024

    /// Logic sending with `sender`.
    public init(sender: InquirySender) {
        self.sender = sender
        status = Property(statusState)
        isSending = Property(sendingState)
    }

    /// Reads a photo without ever holding more than the limit: regular files only, size
    /// checked before reading, and at most one byte past the limit read.
    static func readPhoto(at path: String) -> Result<Data, InquiryError> {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let size = (attributes[.size] as? NSNumber)?.intValue,
              let handle = FileHandle(forReadingAtPath: path) else {
            return .failure(InquiryError(description: "cannot read \(path)"))
        }
        defer { try? handle.close() }
        guard size <= maximumPhotoSize else {
            return .failure(InquiryError(description: "the photo is \(size / 1024) KB; at most \(maximumPhotoSize / 1024) KB"))
        }
        let data = (try? handle.read(upToCount: maximumPhotoSize + 1)) ?? Data()
        guard !data.isEmpty else { return .failure(InquiryError(description: "the photo is empty")) }
        guard data.count <= maximumPhotoSize else {
            return .failure(InquiryError(description: "the photo is larger than \(maximumPhotoSize / 1024) KB"))
        }
        return .success(data)
    }

    /// Stops the message on its way, if any; the status then says it was not sent.
    public func cancel() {
        guard sendingState.value else { return }
        sender.cancel()
    }

    /// Asks about a listing; returns a problem at once for bad input.
    public func ask(kind: String, listingID: Int, text: String, photoPath: String?) -> String? {
        guard !sendingState.value else { return "a message is already on its way" }
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { return "write something to ask" }
        var photo: Data?
        if let photoPath {
            switch Self.readPhoto(at: photoPath) {
            case .success(let data): photo = data
            case .failure(let problem): return problem.description
            }
        }
        sendingState.value = true
        statusState.value = photo == nil ? "sending…" : "uploading the photo…"
        sender.send(InquiryMessage(kind: kind, listingID: listingID, text: text, photo: photo)) { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let reference): statusState.value = "sent to the agent (\(reference))"
            case .failure(let error): statusState.value = "! not sent: \(error)"
            }
            sendingState.value = false
        }
        return nil
    }
}
