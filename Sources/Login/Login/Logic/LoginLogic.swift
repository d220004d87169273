import Foundation
import Networking
import Signals

/// The sign-in form's business logic: the fields, their rules, and submitting them once.
///
/// `submit()` starts the call as a producer tracked by an `Activity`, which says whether
/// it runs and why it failed; `state` is derived from the fields and the activity, one
/// value per change.
@MainActor
package final class LoginLogic {
    /// The form and how signing in went: the one place that says whether a sign-in is on
    /// its way and why the last one failed.
    package let state: Property<LoginState>
    /// What the logic sets: the fields, who signed in, and whether the last sign-in's
    /// failure still shows.
    private let form = MutableProperty(Form())
    private let activity = Activity<APIResult>()
    private var run: Disposable?
    private let manager: APIManager<LoginAPI>

    /// Logic signing in through `engine`'s `account` service.
    package init(engine: APIEngine) {
        manager = APIManager(LoginAPI(), engine: engine)
        // The activity changes running and the failure in one batch, and a sign-in starts
        // and lands in one batch with the fields: one change per start or end.
        state = Property.combineLatest(form, activity.isRunning, activity.failure).map { form, isRunning, failure in
            let problem = failure.map { $0.message ?? "signing in failed" } ?? (form.wasCancelled ? "cancelled" : nil)
            return LoginState(
                username: form.username, password: form.password, isSubmitting: isRunning,
                signedInAs: form.signedInAs, failure: form.showsFailure ? problem : nil)
        }
    }

    /// Sets who signs in; a changed field makes the last failure stale.
    package func setUsername(_ username: String) {
        var next = form.value
        next.username = username
        next.showsFailure = false
        form.value = next
    }

    /// Sets the password; a changed field makes the last failure stale.
    package func setPassword(_ password: String) {
        var next = form.value
        next.password = password
        next.showsFailure = false
        form.value = next
    }

    /// Starts signing in with the fields as they are; false (and nothing sent) while the
    /// form is invalid or a sign-in is on its way.
    @discardableResult
    package func submit() -> Bool {
        let now = state.value
        guard now.canSubmit else { return false }
        let call = manager.call(with: ["username": now.username, "password": now.password]) { _, call in
            call.parameters["username"] ?? now.username
        }
        withBatchedChanges {
            var next = form.value
            (next.showsFailure, next.wasCancelled) = (true, false)
            form.value = next
            run = activity.track(call).start { [weak self] outcome in
                // A failure is the activity's; a success lands in the batch of the call's end.
                if case .success(let user) = outcome { self?.form.value.signedInAs = user }
            }
        }
        // A call that did not start has ended, and said why, already.
        return state.value.isSubmitting
    }

    /// Signs out.
    package func signOut() {
        form.value.signedInAs = nil
    }

    /// Stops a sign-in on its way: its request is cancelled now and `failure` says so.
    package func cancel() {
        guard state.value.isSubmitting else { return }
        withBatchedChanges {
            run?.dispose()
            form.value.wasCancelled = true
        }
    }

    /// The fields and who signed in, as the logic sets them.
    private struct Form: Equatable, Sendable {
        var username = ""
        var password = ""
        var signedInAs: String?
        /// Whether the last sign-in's failure shows: from a submit until a field changes.
        var showsFailure = false
        /// Whether the user stopped the last sign-in.
        var wasCancelled = false
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
