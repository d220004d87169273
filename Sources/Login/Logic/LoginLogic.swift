import Foundation
import Networking
import Signals

/// The sign-in form's business logic: the fields, their rules, and submitting them once.
///
/// It is the one delegate of its API manager: `submit()` starts the call, and the
/// delegate methods land its outcome in `signedInAs` or `failure`.
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
    /// Whether `submit()` would start: both fields valid and no sign-in on its way.
    public let canSubmit: Property<Bool>
    /// Whether a sign-in is on its way.
    public let isSubmitting: Property<Bool>
    /// Why the last sign-in failed ("cancelled" when it was stopped); nil after a success,
    /// when a new one starts, and once a field changes.
    public let failure: Property<String?>
    /// The signed-in user, once signed in.
    public let signedInAs: Property<String?>

    private let signedIn = MutableProperty<String?>(nil)
    private let submitting = MutableProperty(false)
    private let failed = MutableProperty<String?>(nil)
    private let manager: APIManager<LoginAPI>
    private let bag = DisposeBag()

    /// Logic signing in through `engine`'s `account` service.
    public init(engine: APIEngine) {
        manager = APIManager(LoginAPI(), engine: engine)
        usernameProblem = username.map { $0.isEmpty ? nil : LoginLogic.problem(username: $0) }
        passwordProblem = password.map { $0.isEmpty ? nil : LoginLogic.problem(password: $0) }
        let isValid = Property.combineLatest(username, password).map { name, secret in
            LoginLogic.problem(username: name) == nil && LoginLogic.problem(password: secret) == nil
        }
        canSubmit = Property.combineLatest(isValid, submitting).map { valid, busy in valid && !busy }
        isSubmitting = Property(submitting)
        failure = Property(failed)
        signedInAs = Property(signedIn)
        manager.delegate = self
        manager.parameterSource = self
        // A changed field makes the last failure stale.
        Signal.merge(username.signal, password.signal)
            .observe { [failed] _ in if failed.value != nil { failed.value = nil } }.dispose(in: bag)
    }

    /// Starts signing in with the fields as they are; false (and nothing sent) while the
    /// form is invalid or a sign-in is on its way.
    @discardableResult
    public func submit() -> Bool {
        guard canSubmit.value else { return false }
        if failed.value != nil { failed.value = nil }
        submitting.value = true
        guard manager.loadData() else {
            submitting.value = false
            failed.value = manager.lastResult?.message ?? "signing in did not start"
            return false
        }
        return true
    }

    /// Signs out.
    public func signOut() {
        signedIn.value = nil
    }

    /// Stops a sign-in on its way: its request is cancelled now and `failure` says so.
    public func cancel() {
        guard submitting.value else { return }
        manager.cancelAllRequests()
        submitting.value = false
        failed.value = "cancelled"
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
        signedIn.value = manager.lastParameters["username"] ?? username.value
        if failed.value != nil { failed.value = nil }
        submitting.value = false
    }

    public func apiManagerDidFail(_ manager: any APIManaging) {
        // A cancelled call was ended by `cancel()`, which said so; a newer sign-in may be
        // on its way already.
        guard manager.lastResult?.kind != .cancelled else { return }
        failed.value = manager.lastResult?.message ?? "signing in failed"
        submitting.value = false
    }
}
