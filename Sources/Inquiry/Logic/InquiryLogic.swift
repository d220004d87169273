import Foundation
import InquiryCategory
import ListingsCategory
import Networking
import Signals

/// The inquiry form's logic: reads the photo, then sends the message through the inquiry
/// APIs as the one delegate of their managers, so the screen makes one call (`ask`) and
/// sees one result (`status`). A plain message is one call, `inquiry/send`; one with a
/// photo takes three: an upload slot, the upload, then the message with the photo's URL.
@MainActor
public final class InquiryLogic: APIManagerDelegate, APIManagerParameterSource, InquirySender {
    /// Sending, sent or failed, for the screen.
    public let status: Property<String?>
    /// Whether a message is on its way.
    public let isSending: Property<Bool>
    private let statusState = MutableProperty<String?>(nil)
    private let sendingState = MutableProperty(false)
    private let slotManager: APIManager<InquiryUploadSlotAPI>
    private let uploadManager: APIManager<InquiryUploadAPI>
    private let sendManager: APIManager<InquirySendAPI>
    /// The message on its way, with what its calls so far answered.
    private var message: InquiryMessage?
    private var slot: String?
    private var photoURL: String?

    /// The largest photo accepted, in bytes.
    public static let maximumPhotoSize = 512 * 1024

    /// Logic sending through `engine`'s `account` service.
    public init(engine: APIEngine) {
        slotManager = APIManager(InquiryUploadSlotAPI(), engine: engine)
        uploadManager = APIManager(InquiryUploadAPI(), engine: engine)
        sendManager = APIManager(InquirySendAPI(), engine: engine)
        status = Property(statusState)
        isSending = Property(sendingState)
        slotManager.delegate = self
        slotManager.parameterSource = self
        uploadManager.delegate = self
        uploadManager.parameterSource = self
        sendManager.delegate = self
        sendManager.parameterSource = self
    }

    /// Reads a photo without ever holding more than the limit: regular files only, size
    /// checked before reading, and at most one byte past the limit read.
    static func readPhoto(at path: String) -> Result<Data, InquiryError> {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            attributes[.type] as? FileAttributeType == .typeRegular,
            let size = (attributes[.size] as? NSNumber)?.intValue,
            let handle = FileHandle(forReadingAtPath: path)
        else {
            return .failure(InquiryError(description: "cannot read \(path)"))
        }
        defer { try? handle.close() }
        guard size <= maximumPhotoSize else {
            return .failure(
                InquiryError(description: "the photo is \(size / 1024) KB; at most \(maximumPhotoSize / 1024) KB"))
        }
        let data = (try? handle.read(upToCount: maximumPhotoSize + 1)) ?? Data()
        guard !data.isEmpty else { return .failure(InquiryError(description: "the photo is empty")) }
        guard data.count <= maximumPhotoSize else {
            return .failure(InquiryError(description: "the photo is larger than \(maximumPhotoSize / 1024) KB"))
        }
        return .success(data)
    }

    /// Asks about a listing; returns a problem at once for bad input.
    public func ask(kind: ListingKind, listingID: Int, text: String, photoPath: String?) -> String? {
        guard !sendingState.value else { return "a message is already on its way" }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return "write something to ask" }
        var photo: Data?
        if let photoPath {
            switch Self.readPhoto(at: photoPath) {
            case .success(let data): photo = data
            case .failure(let problem): return problem.description
            }
        }
        message = InquiryMessage(kind: kind.rawValue, listingID: listingID, text: text, photo: photo)
        slot = nil
        photoURL = nil
        sendingState.value = true
        statusState.value = photo == nil ? "sending…" : "uploading the photo…"
        if photo == nil {
            start(sendManager)
        } else {
            start(slotManager)
        }
        return nil
    }

    /// Stops the message on its way, if any; the status then says it was not sent.
    public func cancel() {
        guard sendingState.value else { return }
        slotManager.cancelAllRequests()
        uploadManager.cancelAllRequests()
        sendManager.cancelAllRequests()
    }

    // MARK: - The managers' delegate and parameter source

    public func parameters(for manager: any APIManaging) -> [String: String] {
        guard let message else { return [:] }
        switch ObjectIdentifier(manager) {
        case ObjectIdentifier(uploadManager):
            return ["slot": slot ?? "", "photo": message.photo?.base64EncodedString() ?? ""]
        case ObjectIdentifier(sendManager):
            var parameters = ["kind": message.kind, "id": String(message.listingID), "text": message.text]
            parameters["photo_url"] = photoURL
            return parameters
        default:
            return [:]
        }
    }

    public func apiManagerDidSucceed(_ manager: any APIManaging) {
        let data = manager.fetchData()
        switch ObjectIdentifier(manager) {
        case ObjectIdentifier(slotManager):
            slot = data?["slot"]?.stringValue
            start(uploadManager)
        case ObjectIdentifier(uploadManager):
            photoURL = data?["url"]?.stringValue
            statusState.value = "sending…"
            start(sendManager)
        default:
            finish("sent to the agent (\(data?["reference"]?.stringValue ?? "?"))")
        }
    }

    public func apiManagerDidFail(_ manager: any APIManaging) {
        finish("! not sent: \(manager.lastResult?.message ?? "the inquiry service failed")")
    }

    private func start<Definition: APIDefinition>(_ manager: APIManager<Definition>) {
        if !manager.loadData() {
            finish("! not sent: \(manager.lastResult?.message ?? "the call did not start")")
        }
    }

    private func finish(_ outcome: String) {
        message = nil
        statusState.value = outcome
        sendingState.value = false
    }
}
