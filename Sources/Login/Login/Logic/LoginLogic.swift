import Foundation
import Networking
import Signals

/// The sign-in form's business logic: the fields, their rules, and submitting them once.
///
/// `submit()` starts the call as a producer tracked by an `Activity`, which says whether
/// it runs and why it failed; its outcome lands in `state`, one value per change.
@MainActor
package final class LoginLogic {
    /// The form and how signing in went.
    package let state: Property<LoginState>
    private let current = MutableProperty(LoginState())
    private let activity = Activity<APIResult>()
    private var run: Disposable?
    private let manager: APIManager<LoginAPI>

    /// Logic signing in through `engine`'s `account` service.
    package init(engine: APIEngine) {
        manager = APIManager(LoginAPI(), engine: engine)
        state = Property(current)
    }

    /// Sets who signs in; a changed field makes the last failure stale.
    package func setUsername(_ username: String) {
        var next = current.value
        next.username = username
        next.failure = nil
        current.value = next
    }

    /// Sets the password; a changed field makes the last failure stale.
    package func setPassword(_ password: String) {
        var next = current.value
        next.password = password
        next.failure = nil
        current.value = next
    }

    /// Starts signing in with the fields as they are; false (and nothing sent) while the
    /// form is invalid or a sign-in is on its way.
    @discardableResult
    package func submit() -> Bool {
        let form = current.value
        guard form.canSubmit else { return false }
        let call = manager.producer(parameters: ["username": form.username, "password": form.password]) {
            $0.lastParameters["username"] ?? form.username
        }
        run = activity.track(call).start { [weak self] in self?.settle($0) }
        // A call that did not start has ended, and said why, already.
        guard activity.isRunning.value else { return false }
        settle(nil)
        return true
    }

    /// Signs out.
    package func signOut() {
        current.value.signedInAs = nil
    }

    /// Stops a sign-in on its way: its request is cancelled now and `failure` says so.
    package func cancel() {
        guard current.value.isSubmitting else { return }
        run?.dispose()
        var next = current.value
        next.isSubmitting = activity.isRunning.value
        next.failure = "cancelled"
        current.value = next
    }

    /// Shows the sign-in as the activity says, and who signed in after a success.
    private func settle(_ outcome: Result<String, APIResult>?) {
        var next = current.value
        next.isSubmitting = activity.isRunning.value
        next.failure = activity.failure.value.map { $0.message ?? "signing in failed" }
        if case .success(let user) = outcome { next.signedInAs = user }
        current.value = next
    }

    // MARK: - Rules (strong business logic)

    /// 3 to 20 letters, digits or underscores.
    package nonisolated static func problem(username: String) -> String? {
        guard (3...20).contains(username.count) else { return "a username has 3 to 20 characters" }
        guard username.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            return "a username has only letters, digits and _"
        }
        return nil
    }

    /// At least 8 characters, with a digit.
    package nonisolated static func problem(password: String) -> String? {
        guard password.count >= 8 else { return "a password has at least 8 characters" }
        guard password.contains(where: \.isNumber) else { return "a password needs a digit" }
        return nil
    }
}
