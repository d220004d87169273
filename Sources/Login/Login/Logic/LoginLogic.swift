import Foundation
import Networking
import Signals

/// The sign-in form's business logic: the fields, their rules, and submitting them once.
///
/// Signing in is an `Action`: it is the gate, so a submit while a sign-in is on its way
/// (or while the fields break a rule) is refused at once, never queued and never sent
/// twice. An `Activity` tracking the action says whether it runs and why it failed;
/// `state` is derived from the fields and that activity, one value per change.
@MainActor
package final class LoginLogic {
    /// The form and how signing in went: the one place that says whether a sign-in is on
    /// its way and why the last one failed.
    package let state: Property<LoginState>
    /// What the logic sets: the fields, who signed in, and whether the last sign-in's
    /// failure still shows.
    private let form: MutableProperty<Form>
    /// One sign-in at a time, enabled while the fields follow the rules; its output is the
    /// user signed in.
    private let signIn: Action<Credentials, String>
    private let activity = Activity<any Error>()
    /// Sends when the user cancels: the call on its way lasts until then. (An action whose
    /// work calls a completion ends a cancelled run at once and drops its result; stopping
    /// the request is the work's own business.)
    private let cancels: Signal<Void>.Input

    /// How long a sign-in waits before it tries again when the account service says it is
    /// overloaded ("try again shortly"), and how many times it does.
    package nonisolated static let overloadRetry = (pause: Duration.seconds(1), times: 2)

    /// Logic signing in through `engine`'s `account` service; the pause before a sign-in
    /// is tried again is measured on `scheduler`, where the call's events are delivered.
    package init(engine: APIEngine, scheduler: any Scheduler = MainScheduler()) {
        let manager = APIManager(LoginAPI(), engine: engine)
        let form = MutableProperty(Form())
        let (cancelled, cancels) = Signal<Void>.pipe()
        (self.form, self.cancels) = (form, cancels)
        signIn = Action(enabledIf: form.map { $0.isValid }) { credentials, done in
            let parameters = ["username": credentials.username, "password": credentials.password]
            let call = Self.triedAgainWhenOverloaded(
                manager.call(with: parameters) { _, call in call.parameters["username"] ?? credentials.username },
                on: scheduler)
            // Who signed in and the end of the run in one batch (the run's end also turns
            // the action's `isExecuting`, and so the activity, false): one change of `state`
            // per end, as for a failure.
            call.take(until: cancelled).start(
                value: { user in
                    withBatchedChanges {
                        form.modify { $0.signedInAs = user }
                        done(.success(user))
                    }
                },
                failed: { failure in withBatchedChanges { done(.failure(failure)) } },
                // Ended with no user (or stopped by a cancel, whose run has ended already):
                // only the first call of `done` counts, so after a value this does nothing.
                completed: { withBatchedChanges { done(.failure(APIResult(kind: .noContent))) } })
        }
        activity.track(signIn)
        // The activity changes running and the failure in one batch, and a sign-in starts
        // and lands in one batch with the fields: one change per start or end.
        state = Property.combineLatest(form, activity.isRunning, activity.failure).map { form, isRunning, failure in
            LoginState(
                username: form.username, password: form.password, isSubmitting: isRunning,
                signedInAs: form.signedInAs, failure: form.showsFailure ? Self.describe(failure) : nil)
        }
    }

    /// `call`, tried again after a pause when the account service refuses it as overloaded
    /// (503, "try again shortly"); any other failure ends it at once.
    ///
    /// Only that refusal is tried again: the server gives it before it reads the request,
    /// so nothing was done yet, where after a timeout the service may have acted on it.
    /// The other failures pass `retry` as values, and are failures again after it.
    private nonisolated static func triedAgainWhenOverloaded(
        _ call: Producer<String, APIResult>, on scheduler: any Scheduler
    ) -> Producer<String, APIResult> {
        call.map { Result<String, APIResult>.success($0) }
            .catch { failure in
                failure.kind == .serverError(status: 503)
                    ? Producer(failure: failure) : Producer(value: .failure(failure))
            }
            .retry(upTo: overloadRetry.times, after: overloadRetry.pause, on: scheduler)
            .flatMap(.concat) { outcome -> Producer<String, APIResult> in
                switch outcome {
                case .success(let user): Producer(value: user)
                case .failure(let failure): Producer(failure: failure)
                }
            }
    }

    /// What the screen says of the failure a sign-in ended with.
    private nonisolated static func describe(_ failure: (any Error)?) -> String? {
        switch failure {
        case nil: nil
        case is CancellationError: "cancelled"
        case let result as APIResult: result.message ?? "signing in failed"
        default: "signing in failed"
        }
    }

    /// Sets who signs in; a changed field makes the last failure stale.
    package func setUsername(_ username: String) {
        form.modify {
            $0.username = username
            $0.showsFailure = false
        }
    }

    /// Sets the password; a changed field makes the last failure stale.
    package func setPassword(_ password: String) {
        form.modify {
            $0.password = password
            $0.showsFailure = false
        }
    }

    /// Starts signing in with the fields as they are; false (and nothing sent) while the
    /// form is invalid or a sign-in is on its way: the action refuses that start.
    @discardableResult
    package func submit() -> Bool {
        let fields = form.value
        // The start and the failure shown again in one batch: one change of `state`. A
        // call that did not start has ended, and said why, already.
        return withBatchedChanges {
            let started = signIn.apply(Credentials(username: fields.username, password: fields.password))
            if started { form.modify { $0.showsFailure = true } }
            return started
        }
    }

    /// Signs out.
    package func signOut() {
        form.modify { $0.signedInAs = nil }
    }

    /// Stops a sign-in on its way: its run ends now, so `failure` says "cancelled", and
    /// its request is cancelled.
    package func cancel() {
        withBatchedChanges { signIn.cancel() }
        cancels.send()
    }

    /// What one sign-in sends.
    private struct Credentials: Sendable {
        let username: String
        let password: String
    }

    /// The fields and who signed in, as the logic sets them.
    private struct Form: Equatable, Sendable {
        var username = ""
        var password = ""
        var signedInAs: String?
        /// Whether the last sign-in's failure shows: from a submit until a field changes.
        var showsFailure = false

        /// Whether both fields follow the rules, so a sign-in may start.
        var isValid: Bool {
            LoginLogic.problem(username: username) == nil && LoginLogic.problem(password: password) == nil
        }
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
