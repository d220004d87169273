import Signals

/// RxExample's `GithubSignupViewModel2` (drivers), ported: a `Driver` of state is a
/// `Property`, RxCocoa's `Signal` of taps a `Signal`.
///
/// Nothing here times or hops: the view observes on the main scheduler itself, so the
/// view model needs no scheduler, and its test no `SharingScheduler.mock`.
final class GithubSignupViewModel2: Sendable {
    let validatedUsername: Property<ValidationResult>
    let validatedPassword: Property<ValidationResult>
    let validatedPasswordRepeated: Property<ValidationResult>
    let signupEnabled: Property<Bool>
    let signedIn: Signal<Bool>
    let signingIn: Property<Bool>
    /// The failure of the last sign-up, which `asDriver(onErrorJustReturn:)` dropped.
    let signupFailure: Property<NetworkError?>

    init(
        input: (
            username: Property<String>,
            password: Property<String>,
            repeatedPassword: Property<String>,
            loginTaps: Signal<Void>
        ),
        dependency: (
            api: GitHubAPI,
            validationService: GitHubValidationService,
            wireframe: Wireframe
        )
    ) {
        let api = dependency.api
        let validationService = dependency.validationService
        let wireframe = dependency.wireframe

        // A property needs a value before the first validation answers; validating the
        // current name answers at once, so `.empty` is never seen unless the name is empty.
        validatedUsername = Property(
            initial: .empty,
            then: input.username.currentAndChanges.flatMapLatest { username in
                validationService.validateUsername(username)
                    .replaceError(with: .failed(message: "Error contacting server"))
            })

        validatedPassword = input.password.map { password in validationService.validatePassword(password) }

        validatedPasswordRepeated = Property.combineLatest(input.password, input.repeatedPassword)
            .map { password, repeated in
                validationService.validateRepeatedPassword(password, repeatedPassword: repeated)
            }

        let signingIn = Activity<NetworkError>()
        self.signingIn = signingIn.isRunning
        signupFailure = signingIn.failure

        let usernameAndPassword = Property.combineLatest(input.username, input.password)

        signedIn = input.loginTaps.withLatest(from: usernameAndPassword) { _, pair in pair }
            .flatMapLatest { username, password in
                signingIn.track(api.signup(username, password: password))
                    .replaceError(with: false)
            }
            .flatMapLatest { loggedIn in
                let message = loggedIn ? "Mock: Signed in to GitHub." : "Mock: Sign in to GitHub failed"
                return wireframe.promptFor(message, cancelAction: "OK", actions: [])
                    .map { _ in loggedIn }
            }
            .share(replay: 1)

        signupEnabled = Property.combineLatest(
            validatedUsername,
            validatedPassword,
            validatedPasswordRepeated,
            signingIn.isRunning
        )
        .map { username, password, repeatPassword, signingIn in
            username.isValid && password.isValid && repeatPassword.isValid && !signingIn
        }
    }
}
