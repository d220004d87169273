import Foundation
import InquiryCategory
import ListingsCategory
import Networking
import Signals

/// The inquiry form's logic: reads the photo, then sends the message through the inquiry
/// APIs, so the screen makes one call (`ask`) and sees one result (`state`). A plain
/// message is one call, `inquiry/send`; one with a photo takes three: an upload slot, the
/// upload, then the message with the photo's URL. Each call is a producer tracked by an
/// `Activity`, which says whether one is on its way and why it failed; `state` is derived
/// from it and the step the logic is at.
@MainActor
package final class InquiryLogic: InquirySender {
    /// Sending, sent or failed, and whether a message is on its way: the one place that
    /// says so.
    package let state: Property<InquiryState>
    /// The step the logic is at ("sending…", "sent to the agent"); a failure the activity
    /// knows takes its place.
    private let step = MutableProperty<String?>(nil)
    private let activity = Activity<APIResult>()
    private var run: Disposable?
    private let slotManager: APIManager<InquiryUploadSlotAPI>
    private let uploadManager: APIManager<InquiryUploadAPI>
    private let sendManager: APIManager<InquirySendAPI>

    /// The largest photo accepted, in bytes.
    package static let maximumPhotoSize = 512 * 1024

    /// Logic sending through `engine`'s `account` service.
    package init(engine: APIEngine) {
        slotManager = APIManager(InquiryUploadSlotAPI(), engine: engine)
        uploadManager = APIManager(InquiryUploadAPI(), engine: engine)
        sendManager = APIManager(InquirySendAPI(), engine: engine)
        // The activity changes running and the failure in one batch, and a call starts or
        // ends in one batch with the step: one change per start or end.
        state = Property.combineLatest(step, activity.isRunning, activity.failure).map { step, isRunning, failure in
            let problem = failure.map { "! not sent: \($0.message ?? "the inquiry service failed")" }
            return InquiryState(status: problem ?? step, isSending: isRunning)
        }
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
    package func ask(kind: ListingKind, listingID: Int, text: String, photoPath: String?) -> String? {
        guard !state.value.isSending else { return "a message is already on its way" }
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return "write something to ask" }
        var photo: Data?
        if let photoPath {
            switch Self.readPhoto(at: photoPath) {
            case .success(let data): photo = data
            case .failure(let problem): return problem.description
            }
        }
        let message = InquiryMessage(kind: kind.rawValue, listingID: listingID, text: text, photo: photo)
        // A call that did not start has ended, and said why, already: its failure shows.
        if let photo {
            start(
                slotManager.call { data, _ in data["slot"]?.stringValue }, "uploading the photo…"
            ) { [weak self] slot in
                self?.upload(photo, into: slot, then: message)
            }
        } else {
            send(message, photoURL: nil)
        }
        return nil
    }

    /// Stops the message on its way, if any; the status then says it was not sent.
    package func cancel() {
        guard state.value.isSending else { return }
        withBatchedChanges {
            run?.dispose()
            step.value = "! not sent: cancelled"
        }
    }

    private func upload(_ photo: Data, into slot: String?, then message: InquiryMessage) {
        let parameters = ["slot": slot ?? "", "photo": photo.base64EncodedString()]
        start(uploadManager.call(with: parameters) { data, _ in data["url"]?.stringValue }, nil) {
            [weak self] url in
            self?.send(message, photoURL: url)
        }
    }

    private func send(_ message: InquiryMessage, photoURL: String?) {
        var parameters = ["kind": message.kind, "id": String(message.listingID), "text": message.text]
        parameters["photo_url"] = photoURL
        start(
            sendManager.call(with: parameters) { data, _ in data["reference"]?.stringValue }, "sending…"
        ) { [weak self] reference in
            self?.step.value = "sent to the agent (\(reference ?? "?"))"
        }
    }

    /// Starts `call`, tracked, showing `status` (the step shown so far when nil) while it
    /// goes, in one batch; `next` gets its output (in the batch of the call's end), and a
    /// failure is the activity's.
    private func start<Output>(
        _ call: Producer<Output, APIResult>, _ status: String?, next: @escaping @MainActor (Output) -> Void
    ) {
        withBatchedChanges {
            if let status { step.value = status }
            run = activity.track(call).start { outcome in
                if case .success(let output) = outcome { next(output) }
            }
        }
    }
}
