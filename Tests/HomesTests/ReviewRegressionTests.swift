import Foundation
import HomesAPI
import Listings
import Networking
import Testing
import ViewModels

@testable import HomesScreens
@testable import Inquiry

/// Regressions for defects found in review of the app; each failed before its fix.
@MainActor @Suite struct HomesReviewRegressionTests {
    @Test func mapsOfAbsurdCoordinatesNeverTrap() {
        let points = [
            ListingMapPoint(id: 1, name: "a", latitude: -1e308, longitude: -1.5e308),
            ListingMapPoint(id: 2, name: "b", latitude: 1e308, longitude: 1.5e308),
        ]
        let map = MapViewModel(points: points, width: 10, height: 4)
        #expect(map.grid.count == 4)
        #expect(map.legend.count == 2)
    }

    @Test func photosAreCheckedBeforeTheyAreRead() throws {
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

    @Test func anUploadWhoseEntriesCannotBeForgottenStopsInsteadOfLooping() async {
        final class StuckStore: OperationLogStore, @unchecked Sendable {
            let inner = InMemoryOperationLogStore()
            func append(event: String, attributes: [String: String], timestamp: Date) -> OperationLogEntry {
                inner.append(event: event, attributes: attributes, timestamp: timestamp)
            }
            func oldest(_ limit: Int) -> [OperationLogEntry] { inner.oldest(limit) }
            func remove(_ sequences: Set<Int64>) -> Bool { false }
            var count: Int { inner.count }
        }
        final class CountingUploader: OperationLogUploader {
            var uploads = 0
            func upload(_ batch: [OperationLogEntry], completion: @escaping (Bool) -> Void) {
                uploads += 1
                completion(true)
            }
        }
        let uploader = CountingUploader()
        let logger = OperationLogger(store: StuckStore(), uploader: uploader)
        for _ in 0..<40 { logger.record("page_view") }
        logger.uploadPending()
        #expect(uploader.uploads == 1)
    }

    @Test func theServerRefusesAbsurdLogBatches() {
        let server = HomesAPIServer()
        for count in ["9223372036854775807", "-5", "0", "lots"] {
            let request = HTTPRequest(
                method: .post, url: URL(string: "http://x/api/logs/upload")!,
                body: Data("count=\(count)".utf8))
            #expect(server.handle(request).status == 400)
        }
        #expect(server.eventsUploaded == 0)
    }

    @Test func aFailedSignInShowsEvenWhenSomeoneIsSignedIn() {
        let model = LoginViewModel(
            username: "bob", password: "wrongpass1", usernameProblem: nil, passwordProblem: nil,
            canSubmit: true, isSubmitting: false, signedInAs: "mei",
            failure: "wrong username or password")
        #expect(model.status == "! wrong username or password (still signed in as mei)")
    }
}

extension Result where Failure == InquiryError {
    var failureText: String? {
        if case .failure(let error) = self { return error.description }
        return nil
    }
}
