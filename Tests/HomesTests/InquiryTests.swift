import Foundation
import Inquiry
import Networking
import Testing

@MainActor @Suite struct InquiryTests {
    final class Recording: InquiryStrategy {
        let name: String
        var sent: [InquiryMessage] = []
        init(_ name: String) { self.name = name }
        func send(_ message: InquiryMessage, completion: @escaping (Result<String, InquiryError>) -> Void) {
            sent.append(message)
            completion(.success(name))
        }
    }

    func harnessWithAccounts() -> HomesHarness {
        let harness = HomesHarness()
        harness.engine.services.register(APIService(name: "account", baseURL: URL(string: "http://embedded.test/api")!,
                                                    signingSecret: HomesHarness.secret))
        return harness
    }

    @Test func theSenderPicksTheStrategyByMessageKind() async {
        let plain = Recording("plain")
        let photo = Recording("photo")
        let sender = InquirySender(plain: plain, withPhoto: photo)
        var results: [String] = []
        sender.send(InquiryMessage(kind: "rent", listingID: 1, text: "hi")) { results.append((try? $0.get()) ?? "") }
        sender.send(InquiryMessage(kind: "rent", listingID: 1, text: "hi", photo: Data([1]))) { results.append((try? $0.get()) ?? "") }
        #expect(results == ["plain", "photo"])
        #expect(plain.sent.count == 1 && photo.sent.count == 1)
    }

    @Test func aPhotoInquiryTakesThreeCallsAndOneResult() async {
        let harness = harnessWithAccounts()
        let sender = InquirySender(engine: harness.engine)
        let before = harness.transport.server.requestsServed
        var results: [Result<String, InquiryError>] = []
        await harness.run {
            sender.send(InquiryMessage(kind: "new", listingID: 4, text: "light?", photo: Data([0xFF, 0xD8]))) { results.append($0) }
        }
        await harness.flush()
        await harness.flush()
        #expect(harness.transport.server.requestsServed - before == 3)
        #expect(results.count == 1)
        #expect((try? results.first?.get()).map { $0.hasPrefix("Q-") } == true)
    }

    @Test func theLogicRefusesBadInputAndReportsTheResult() async throws {
        let harness = harnessWithAccounts()
        let logic = InquiryLogic(sender: InquirySender(engine: harness.engine))
        #expect(logic.ask(kind: "rent", listingID: 1, text: "  ", photoPath: nil) == "write something to ask")
        #expect(logic.ask(kind: "rent", listingID: 1, text: "x", photoPath: "/no/such/file") == "cannot read /no/such/file")
        let big = NSTemporaryDirectory() + "big-\(UUID().uuidString).jpg"
        try Data(count: InquiryLogic.maximumPhotoSize + 1).write(to: URL(fileURLWithPath: big))
        defer { try? FileManager.default.removeItem(atPath: big) }
        #expect(logic.ask(kind: "rent", listingID: 1, text: "x", photoPath: big)?.hasPrefix("the photo is") == true)
        #expect(await harness.run { logic.ask(kind: "rent", listingID: 1, text: "quiet?", photoPath: nil) } == nil)
        #expect(logic.status.value?.hasPrefix("sent to the agent (Q-") == true)
        #expect(!logic.isSending.value)
    }
}
