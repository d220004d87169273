import Foundation
import Networking
import Synchronization

/// Inquiries: an upload slot, a photo upload to it, and the message itself.
extension HomesAPIServer {
    static let inquiryRoutes = [
        Route(.any, "inquiry/upload-slot") { server, _ in server.state.withLock { uploadSlot(&$0) } },
        Route(.any, "inquiry/upload") { server, parameters in server.state.withLock { upload(parameters, &$0) } },
        Route(.any, "inquiry/send") { server, parameters in server.state.withLock { sendInquiry(parameters, &$0) } },
    ]

    private static func uploadSlot(_ state: inout State) -> HTTPResponse {
        let slot = "slot-\(state.slots.count + 1)"
        state.slots[slot] = false
        return .json(["slot": .string(slot)])
    }

    private static func upload(_ parameters: [String: String], _ state: inout State) -> HTTPResponse {
        guard let slot = parameters["slot"], state.slots[slot] == false,
            let photo = parameters["photo"], let bytes = Data(base64Encoded: photo), !bytes.isEmpty
        else {
            return .json(["message": "bad upload"], status: 400)
        }
        state.slots[slot] = true
        return .json(["url": .string("https://photos.homes.example/\(slot).jpg")])
    }

    private static func sendInquiry(_ parameters: [String: String], _ state: inout State) -> HTTPResponse {
        guard let text = parameters["text"], !text.isEmpty, parameters["id"] != nil else {
            return .json(["message": "an inquiry needs a listing and a text"], status: 400)
        }
        state.inquiries += 1
        return .json(["reference": .string("Q-\(1000 + state.inquiries)")])
    }
}
