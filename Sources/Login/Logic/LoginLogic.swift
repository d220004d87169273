import Foundation
import Networking
import Signals

/// The sign-in form's business logic: the fields, their rules, and submitting them once.
@MainActor
public final class LoginLogic: APIManagerDelegate, APIManagerParameterSource {
    /// Who signs in.
    public let username = MutableProperty("")
    /// Their password.
    public let password = MutableProperty("")
    /// What is wrong with the username, if anything (nil while it is empty).
    public let usernameProblem: Property<String?>
    /// What is wrong with the password, if anything (nil while it is empty).
    public let passwordProblem: Property<String?>
    /// The signed-in user, once signed in.
    public let signedInAs: Property<String?>
    /// Submits the form: enabled only while both fields are valid, never twice at once;
    /// `cancel()` stops the request in flight.
    public private(set) lazy var submit = Action<Void, String>(enabledIf: isValid) { [weak self] in
        guard let self else { throw CancellationError() }
        return try await signIn()
    }

    private let isValid: Property<Bool>
    private let signedIn = MutableProperty<String?>(nil)
    private let manager: APIManager<LoginAPI>
    private var finish: CheckedContinuation<String, any Error>?
    /// Counts sign-in runs, so a late cancellation stops only the run it was meant for.
    private var runID = 0

    /// Why a sign-in failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Logic signing in through `engine`'s `account` service.
    public init(engine: APIEngine) {
        manager = APIManager(LoginAPI(), engine: engine)
        usernameProblem = username.map { $0.isEmpty ? nil : LoginLogic.problem(username: $0) }
        passwordProblem = password.map { $0.isEmpty ? nil : LoginLogic.problem(password: $0) }
        isValid = Property.combineLatest(username, password).map { name, secret in
            LoginLogic.problem(username: name) == nil && LoginLogic.problem(password: secret) == nil
        }
        signedInAs = Property(signedIn)
        manager.delegate = self
        manager.parameterSource = self
    }

    /// Signs out.
    public func signOut() {
        signedIn.value = nil
    }

    /// Stops a sign-in in flight: the request is cancelled now, and `submit` ends its
    /// run with a `CancellationError`.
    public func cancel() {
        manager.cancelAllRequests()
        complete(.failure(CancellationError()))
        submit.cancel()
    }

    // MARK: - Rules (strong business logic)

    /// 3 to 20 letters, digits or underscores.
    public nonisolated static func problem(username: String) -> String? {
        guard (3...20).contains(username.count) else { return "a username has 3 to 20 characters" }
        guard username.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            return "a username has only letters, digits and _"
        }
        return nil
    }

    /// At least 8 characters, with a digit.
    public nonisolated static func problem(password: String) -> String? {
        guard password.count >= 8 else { return "a password has at least 8 characters" }
        guard password.contains(where: \.isNumber) else { return "a password needs a digit" }
        return nil
    }

    // MARK: - APIManagerParameterSource

    public func parameters(for manager: any APIManaging) -> [String: String] {
        ["username": username.value, "password": password.value]
    }

    // MARK: - APIManagerDelegate

    public func apiManagerDidSucceed(_ manager: any APIManaging) {
        let user = manager.lastParameters["username"] ?? username.value
        signedIn.value = user
        complete(.success(user))
    }

    public func apiManagerDidFail(_ manager: any APIManaging) {
        // A cancelled call's run has ended already (`cancel()`, `stop(run:)`).
        guard manager.lastResult?.kind != .cancelled else { return }
        complete(.failure(Failure(description: manager.lastResult?.message ?? "signing in failed")))
    }

    // MARK: - Private

    /// One sign-in request; cancelling the task cancels the request.
    private func signIn() async throws -> String {
        runID += 1
        let run = runID
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                // A run still waiting (cancelled, its request not landed yet) ends now.
                complete(.failure(CancellationError()))
                finish = continuation
                if Task.isCancelled { return complete(.failure(CancellationError())) }
                if !manager.loadData() { complete(.failure(Failure(description: "already signing in"))) }
            }
        } onCancel: {
            Task { @MainActor [weak self] in self?.stop(run: run) }
        }
    }

    /// Stops run `run` if it is still the one waiting: its request is cancelled and it ends.
    private func stop(run: Int) {
        guard run == runID, finish != nil else { return }
        manager.cancelAllRequests()
        complete(.failure(CancellationError()))
    }

    private func complete(_ result: Result<String, any Error>) {
        let done = finish
        finish = nil
        done?.resume(with: result)
    }
}
