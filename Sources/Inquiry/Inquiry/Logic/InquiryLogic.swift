import Foundation
import InquiryCategory
import ListingsCategory
import Networking
import Signals

/// The inquiry form's logic: reads the photo, then sends the message through the inquiry
/// APIs, so the screen makes one call (`ask`) and sees one result (`state`). A plain
/// message is one call, `inquiry/send`; one with a photo takes three, one after the other:
/// an upload slot, the upload, then the message with the photo's URL. Asking is an
/// `Action` whose work is that chain of producers: it is the gate, so a question asked
/// while one is on its way is refused, never queued or sent twice. An `Activity` tracking
/// the action says whether one is on its way and why it failed; `state` is derived from it
/// and the step the logic is at.
@MainActor
package final class InquiryLogic: InquirySender {
    /// Sending, sent or failed, and whether a message is on its way: the one place that
    /// says so.
    package let state: Property<InquiryState>
    /// One question at a time; its output is the reference the agent's service gave it.
    private let asking: Action<InquiryMessage, String?>
    private let activity = Activity<any Error>()
    /// Sends when the user cancels: the calls of the question on its way last until then.
    /// (An action whose work calls a completion ends a cancelled run at once and drops its
    /// result; stopping the requests is the work's own business.)
    private let cancels: Signal<Void>.Input

    /// The largest photo accepted, in bytes.
    package static let maximumPhotoSize = 512 * 1024

    /// Logic sending through `engine`'s `account` service.
    package init(engine: APIEngine) {
        let calls = Calls(
            slot: APIManager(InquiryUploadSlotAPI(), engine: engine),
            upload: APIManager(InquiryUploadAPI(), engine: engine), send: APIManager(InquirySendAPI(), engine: engine))
        // The step the logic is at ("sending…", "sent to the agent"); a failure the
        // activity knows takes its place.
        let step = MutableProperty<String?>(nil)
        let (cancelled, cancels) = Signal<Void>.pipe()
        self.cancels = cancels
        asking = Action { message, done in
            // The reference and the end of the run in one batch (the run's end also turns
            // the action's `isExecuting`, and so the activity, false): one change of `state`
            // per end, as for a failure.
            calls.asking(message, step: step).take(until: cancelled).start(
                value: { reference in
                    withBatchedChanges {
                        step.value = "sent to the agent (\(reference ?? "?"))"
                        done(.success(reference))
                    }
                },
                failed: { failure in withBatchedChanges { done(.failure(failure)) } },
                // Ended with no reference (or stopped by a cancel, whose run has ended
                // already): only the first call of `done` counts.
                completed: { withBatchedChanges { done(.failure(APIResult(kind: .noContent))) } })
        }
        activity.track(asking)
        // The activity changes running and the failure in one batch, and a call starts or
        // ends in one batch with the step: one change per start or end.
        state = Property.combineLatest(step, activity.isRunning, activity.failure).map { step, isRunning, failure in
            InquiryState(status: Self.describe(failure) ?? step, isSending: isRunning)
        }
    }

    /// What the screen says of the failure a question ended with.
    private nonisolated static func describe(_ failure: (any Error)?) -> String? {
        switch failure {
        case nil: nil
        case is CancellationError: "! not sent: cancelled"
        case let result as APIResult: "! not sent: \(result.message ?? "the inquiry service failed")"
        default: "! not sent: the inquiry service failed"
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

    /// Asks about a listing; returns a problem at once for bad input, or when a question
    /// is already on its way (the action refuses to start another: nothing is sent).
    package func ask(kind: ListingKind, listingID: Int, text: String, photoPath: String?) -> String? {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else { return "write something to ask" }
        var photo: Data?
        if let photoPath {
            switch Self.readPhoto(at: photoPath) {
            case .success(let data): photo = data
            case .failure(let problem): return problem.description
            }
        }
        let message = InquiryMessage(kind: kind.rawValue, listingID: listingID, text: text, photo: photo)
        // The start and its first step in one batch: one change of `state`. A call that did
        // not start has ended, and said why, already: its failure shows.
        guard withBatchedChanges({ asking.apply(message) }) else {
            return "a message is already on its way: this one was not sent"
        }
        return nil
    }

    /// Stops the message on its way, if any: its run ends now, so the status says it was
    /// not sent, and its call in flight is cancelled (and no later call starts).
    package func cancel() {
        withBatchedChanges { asking.cancel() }
        cancels.send()
    }

    /// The inquiry APIs' managers, and the calls one question makes of them.
    private struct Calls: Sendable {
        let slot: APIManager<InquiryUploadSlotAPI>
        let upload: APIManager<InquiryUploadAPI>
        let send: APIManager<InquirySendAPI>

        /// The calls that ask `message`, one after the other, each setting `step` as it starts
        /// (the upload keeps the step before it); the one value is the message's reference.
        func asking(_ message: InquiryMessage, step: MutableProperty<String?>) -> Producer<String?, APIResult> {
            let send = self.send
            @Sendable func sending(photoURL: String?) -> Producer<String?, APIResult> {
                var parameters = ["kind": message.kind, "id": String(message.listingID), "text": message.text]
                parameters["photo_url"] = photoURL
                return send.call(with: parameters) { data, _ in data["reference"]?.stringValue }
                    .on(started: { step.value = "sending…" })
            }
            guard let photo = message.photo else { return sending(photoURL: nil) }
            let upload = self.upload
            return slot.call { data, _ in data["slot"]?.stringValue }
                .on(started: { step.value = "uploading the photo…" })
                .flatMap(.concat) { slot in
                    upload.call(with: ["slot": slot ?? "", "photo": photo.base64EncodedString()]) { data, _ in
                        data["url"]?.stringValue
                    }
                }
                .flatMap(.concat) { url in sending(photoURL: url) }
        }
    }
}
