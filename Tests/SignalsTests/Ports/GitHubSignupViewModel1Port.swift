import Signals

/// RxExample's `GithubSignupViewModel1` (plain observables), ported: every output is a
/// signal shared with a replay of one, as `share(replay: 1)` made them.
///
/// Where RxExample hard-codes `MainScheduler.instance`, the scheduler is a dependency that
/// defaults to the main scheduler; a test passes its `TestScheduler`.
final class GithubSignupViewModel1: Sendable {
    let validatedUsername: Signal<ValidationResult>
    let validatedPassword: Signal<ValidationResult>
    let validatedPasswordRepeated: Signal<ValidationResult>
    let signupEnabled: Signal<Bool>
    let signedIn: Signal<Bool>
    let signingIn: Signal<Bool>

    init(
        input: (
            username: Signal<String>,
            password: Signal<String>,
            repeatedPassword: Signal<String>,
            loginTaps: Signal<Void>
        ),
        dependency: (
            api: GitHubAPI,
            validationService: GitHubValidationService,
            wireframe: Wireframe,
            scheduler: Scheduler
        )
    ) {
        let api = dependency.api
        let validationService = dependency.validationService
        let wireframe = dependency.wireframe
        let scheduler = dependency.scheduler

        validatedUsername = input.username
            .flatMapLatest { username in
                validationService.validateUsername(username)
                    .observe(on: scheduler)
                    .replaceError(with: .failed(message: "Error contacting server"))
            }
            .share(replay: 1)

        validatedPassword = input.password
            .map { password in validationService.validatePassword(password) }
            .share(replay: 1)

        validatedPasswordRepeated = Signal.combineLatest(input.password, input.repeatedPassword)
            .map { password, repeated in
                validationService.validateRepeatedPassword(password, repeatedPassword: repeated)
            }
            .share(replay: 1)

        let activityIndicator = Activity<Never>()
        let signingIn = activityIndicator.isRunning.currentAndChanges
        self.signingIn = signingIn

        let usernameAndPassword = Signal.combineLatest(input.username, input.password)

        signedIn = input.loginTaps.withLatest(from: usernameAndPassword) { _, pair in pair }
            .flatMapLatest { username, password in
                activityIndicator.track(
                    api.signup(username, password: password)
                        .observe(on: scheduler)
                        .replaceError(with: false))
            }
            .flatMapLatest { loggedIn in
                let message = loggedIn ? "Mock: Signed in to GitHub." : "Mock: Sign in to GitHub failed"
                return wireframe.promptFor(message, cancelAction: "OK", actions: [])
                    .map { _ in loggedIn }
            }
            .share(replay: 1)

        signupEnabled = Signal.combineLatest(
            validatedUsername,
            validatedPassword,
            validatedPasswordRepeated,
            signingIn
        )
        .map { username, password, repeatPassword, signingIn in
            username.isValid && password.isValid && repeatPassword.isValid && !signingIn
        }
        .skipRepeats()
        .share(replay: 1)
    }
}
