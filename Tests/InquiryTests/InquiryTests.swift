import Foundation
import HomesAPI
import HomesTesting
import InquiryCategory
import ListingsCategory
import Networking
import Signals
import SignalsTesting
import Testing

@testable import Inquiry

@MainActor @Suite struct InquiryTests {
    func harnessWithAccounts() -> HomesHarness {
        HomesHarness(services: [HomesHarness.account])
    }

    func photo() throws -> String {
        let path = NSTemporaryDirectory() + "door-\(UUID().uuidString).jpg"
        try Data([0xFF, 0xD8, 0xFF]).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aPlainInquiryIsOneCallAndAPhotoInquiryThreeWithOneResult() async throws {
        let harness = harnessWithAccounts()
        let logic = InquiryLogic(engine: harness.engine)
        var before = harness.transport.server.requestsServed
        #expect(await harness.run { logic.ask(kind: .rent, listingID: 1, text: "quiet?", photoPath: nil) } == nil)
        #expect(harness.transport.server.requestsServed - before == 1)
        #expect(logic.state.value.status?.hasPrefix("sent to the agent (Q-") == true)

        let path = try photo()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let statuses = logic.state.map(\.status).record()
        before = harness.transport.server.requestsServed
        #expect(await harness.run { logic.ask(kind: .new, listingID: 4, text: "light?", photoPath: path) } == nil)
        await harness.flush()
        await harness.flush()
        #expect(harness.transport.server.requestsServed - before == 3)
        #expect(
            statuses.values.dropFirst().compactMap { $0 }.map { $0.hasPrefix("sent to the agent (Q-") ? "sent" : $0 }
                == ["uploading the photo…", "sending…", "sent"])
        #expect(!logic.state.value.isSending)
    }

    @Test func cancellingAPhotoInquiryStopsItsCallAndStartsNoOther() async throws {
        let harness = harnessWithAccounts()
        let logic = InquiryLogic(engine: harness.engine)
        let path = try photo()
        defer { try? FileManager.default.removeItem(atPath: path) }
        harness.transport.holding = true
        let before = harness.transport.server.requestsServed
        #expect(await harness.run { logic.ask(kind: .new, listingID: 4, text: "light?", photoPath: path) } == nil)
        #expect(logic.state.value.isSending)
        logic.cancel()
        await harness.flush()
        #expect(!logic.state.value.isSending)
        #expect(logic.state.value.status?.hasPrefix("! not sent") == true)
        harness.transport.release()
        await harness.flush()
        await harness.flush()
        // The held upload-slot call was answered, but nothing followed it.
        #expect(harness.transport.server.requestsServed - before == 1)
        #expect(logic.state.value.status?.hasPrefix("! not sent") == true)
    }

    /// The asking action is the gate: a question asked while one is on its way is
    /// refused with a reason, not queued for later and not sent; once the first has
    /// landed, the next one goes.
    @Test func aQuestionWhileOneIsOnItsWayIsRefusedNotQueued() async throws {
        let harness = harnessWithAccounts()
        let logic = InquiryLogic(engine: harness.engine)
        let sending = logic.state.map(\.isSending).record()
        let path = try photo()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let before = harness.transport.server.requestsServed
        harness.transport.holding = true
        #expect(logic.ask(kind: .rent, listingID: 1, text: "quiet?", photoPath: nil) == nil)
        let refused = "a message is already on its way: this one was not sent"
        #expect(logic.ask(kind: .rent, listingID: 1, text: "sunny?", photoPath: nil) == refused)
        #expect(logic.ask(kind: .new, listingID: 4, text: "light?", photoPath: path) == refused)
        // Bad input says what is wrong with it, running or not.
        #expect(logic.ask(kind: .rent, listingID: 1, text: " ", photoPath: nil) == "write something to ask")
        harness.transport.release()
        await harness.flush()
        await harness.flush()
        #expect(harness.transport.server.requestsServed - before == 1)
        sending.assertValues([false, true, false])
        #expect(logic.state.value.status?.hasPrefix("sent to the agent (Q-") == true)
        #expect(await harness.run { logic.ask(kind: .rent, listingID: 1, text: "sunny?", photoPath: nil) } == nil)
        #expect(harness.transport.server.requestsServed - before == 2)
        sending.assertValues([false, true, false, true, false])
    }

    @Test func aLogicLetGoWhileItsCallIsInFlightIsFreed() async {
        let harness = harnessWithAccounts()
        harness.transport.holding = true
        weak var gone: InquiryLogic?
        do {
            let logic = InquiryLogic(engine: harness.engine)
            gone = logic
            #expect(logic.ask(kind: .rent, listingID: 1, text: "quiet?", photoPath: nil) == nil)
            await harness.flush()
        }
        // Nothing keeps it alive for its call: no closure, no call object holding on.
        #expect(gone == nil)
        harness.transport.release()
        await harness.flush()
    }

    @Test func theLogicRefusesBadInputAndReportsTheResult() async throws {
        let harness = harnessWithAccounts()
        let logic = InquiryLogic(engine: harness.engine)
        #expect(logic.ask(kind: .rent, listingID: 1, text: "  ", photoPath: nil) == "write something to ask")
        #expect(
            logic.ask(kind: .rent, listingID: 1, text: "x", photoPath: "/no/such/file") == "cannot read /no/such/file")
        let big = NSTemporaryDirectory() + "big-\(UUID().uuidString).jpg"
        try Data(count: InquiryLogic.maximumPhotoSize + 1).write(to: URL(fileURLWithPath: big))
        defer { try? FileManager.default.removeItem(atPath: big) }
        #expect(logic.ask(kind: .rent, listingID: 1, text: "x", photoPath: big)?.hasPrefix("the photo is") == true)
        #expect(await harness.run { logic.ask(kind: .rent, listingID: 1, text: "quiet?", photoPath: nil) } == nil)
        #expect(logic.state.value.status?.hasPrefix("sent to the agent (Q-") == true)
        #expect(!logic.state.value.isSending)
    }

    /// Regression (review): a photo was read before it was checked; an empty file, a
    /// folder and a file too big to send are refused, each with its reason, unread.
    @Test(.tags(.regression)) func photosAreCheckedBeforeTheyAreRead() throws {
        let folder = NSTemporaryDirectory() + "photos-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let empty = folder + "/empty.jpg"
        _ = FileManager.default.createFile(atPath: empty, contents: Data())
        let big = folder + "/big.jpg"
        _ = FileManager.default.createFile(atPath: big, contents: nil)
        let handle = try #require(FileHandle(forWritingAtPath: big))
        try handle.truncate(atOffset: UInt64(64 << 20))
        try handle.close()
        #expect(InquiryLogic.readPhoto(at: empty).failureText == "the photo is empty")
        #expect(InquiryLogic.readPhoto(at: folder).failureText == "cannot read \(folder)")
        #expect(InquiryLogic.readPhoto(at: big).failureText?.hasPrefix("the photo is 65536 KB") == true)
    }
}

extension Result where Failure == InquiryError {
    /// What the failure says, or nil for a success.
    var failureText: String? {
        if case .failure(let error) = self { return error.description }
        return nil
    }
}

/// The inquiry's state is derived from the step it is at and its activity: a question's
/// start, its end and its failure each change it once, and the calls of a photo question
/// follow each other with one change per step.
@MainActor @Suite struct InquiryStateDerivationTests {
    @Test func aQuestionStartsEndsAndFailsWithOneChangeEach() async {
        let harness = HomesHarness(services: [HomesHarness.account])
        let logic = InquiryLogic(engine: harness.engine)
        let states = logic.state.record()
        harness.transport.holding = true
        #expect(logic.ask(kind: .rent, listingID: 1, text: "quiet?", photoPath: nil) == nil)
        harness.transport.release()
        await harness.flush()
        let sent = logic.state.value.status ?? ""
        #expect(sent.hasPrefix("sent to the agent (Q-"))
        harness.engine.services.register(
            APIService(
                name: "account", baseURL: HomesHarness.baseURL, signatureRejectedCodes: [4010],
                signingSecret: Array("wrong".utf8)))
        harness.transport.holding = true
        #expect(logic.ask(kind: .rent, listingID: 1, text: "sunny?", photoPath: nil) == nil)
        harness.transport.release()
        await harness.flush()
        let failed = logic.state.value.status ?? ""
        #expect(failed.hasPrefix("! not sent: "))
        #expect(
            states.values.map { [$0.status ?? "-", $0.isSending ? "sending" : "idle"] } == [
                ["-", "idle"], ["sending…", "sending"], [sent, "idle"], ["sending…", "sending"], [failed, "idle"],
            ])
    }
}
