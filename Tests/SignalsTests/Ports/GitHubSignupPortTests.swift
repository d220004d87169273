import Signals
import SignalsTesting
import Testing

// RxExample's mocks (`MockGitHubAPI.swift`, `MockWireframe.swift`), ported. RxExample
// builds a mock request from a timeline with its own `TestScheduler.mock(values:errors:)`;
// here that is `Producer(marbles:values:failures:frame:on:)`.

struct MockGitHubAPI: GitHubAPI {
    let onUsernameAvailable: @Sendable (String) -> Producer<Bool, NetworkError>
    let onSignup: @Sendable (String, String) -> Producer<Bool, NetworkError>

    func usernameAvailable(_ username: String) -> Producer<Bool, NetworkError> {
        onUsernameAvailable(username)
    }

    func signup(_ username: String, password: String) -> Producer<Bool, NetworkError> {
        onSignup(username, password)
    }
}

/// A wireframe whose prompts are answered with their cancel action one frame after they
/// show, and which keeps the messages it showed.
struct MockWireframe: Wireframe {
    let scheduler: TestScheduler
    let frame: Duration
    let prompts = MutableProperty<[String]>([])

    func promptFor<Action: CustomStringConvertible & Sendable>(
        _ message: String, cancelAction: Action, actions: [Action]
    ) -> Producer<Action, Never> {
        let prompts = self.prompts
        return Producer(marbles: "-(a|)", values: ["a": cancelAction], frame: frame, on: scheduler)
            .on(started: { prompts.modify { $0.append(message) } })
    }
}

/// RxExample's `RxExample_iOSTests` for both sign-up view models, with its timelines as
/// written, then what it leaves out: the passwords' validation, signing in and a failed
/// sign-up.
@Suite struct GitHubSignupPortTests {
    /// RxExample's `resolution`: a frame is 0.2 s.
    static let frame = Duration.milliseconds(200)
    static let booleans = ["t": true, "f": false]
    static let stringValues = [
        "u1": "verysecret",
        "u2": "secretuser",
        "u3": "secretusername",
        "p1": "huge secret",
        "p2": "secret",
        "p3": "abc",
        "e": "",
    ]
    // RxExample's `ValidationResult ==` ignores the messages, so one token stood for any
    // failure; here the messages are compared, so each failure has its token.
    static let usernameValidations: [String: ValidationResult] = [
        "e": .empty,
        "v": .validating,
        "o": .ok(message: "Username available"),
        "f": .failed(message: "Username already taken"),
        "x": .failed(message: "Error contacting server"),
    ]
    static let passwordValidations: [String: ValidationResult] = [
        "e": .empty,
        "s": .failed(message: "Password must be at least 5 characters"),
        "o": .ok(message: "Password acceptable"),
        "d": .failed(message: "Password different"),
        "r": .ok(message: "Password repeated"),
    ]

    /// RxExample's `mockGithubAPI(scheduler:)`. Its sign-up never ended ("--t"), which
    /// left the activity running for good; here it ends, and a third case fails.
    static func mockGithubAPI(scheduler: TestScheduler) -> MockGitHubAPI {
        MockGitHubAPI(
            onUsernameAvailable: { username in
                let timeline =
                    switch username {
                    case "secretusername": "---t"
                    case "secretuser": "---#1"
                    default: "---f"
                    }
                return Producer(
                    marbles: timeline, values: booleans, failures: ["#1": NetworkError()], frame: frame, on: scheduler)
            },
            onSignup: { username, password in
                let timeline =
                    switch (username, password) {
                    case ("secretusername", "secret"): "--(t|)"
                    case (_, "huge secret"): "-#"
                    default: "--(f|)"
                    }
                return Producer(
                    marbles: timeline, values: booleans, failures: ["#": NetworkError()], frame: frame, on: scheduler)
            })
    }

    /// The inputs of `GithubSignupViewModel1`, played from timelines (RxTest's
    /// `createHotObservable`).
    struct Inputs {
        let username = Signal<String>.pipe()
        let password = Signal<String>.pipe()
        let repeatedPassword = Signal<String>.pipe()
        let loginTaps = Signal<Void>.pipe()

        func drive(
            on scheduler: TestScheduler, username: String, password: String, repeatedPassword: String,
            loginTaps: String = ""
        ) {
            scheduler.drive(self.username.input, with: username, values: stringValues, frame: frame)
            scheduler.drive(self.password.input, with: password, values: stringValues, frame: frame)
            scheduler.drive(self.repeatedPassword.input, with: repeatedPassword, values: stringValues, frame: frame)
            scheduler.drive(self.loginTaps.input, with: loginTaps, values: ["x": ()], frame: frame)
        }
    }

    static func viewModel1(
        _ inputs: Inputs, api: MockGitHubAPI, wireframe: MockWireframe, scheduler: TestScheduler
    ) -> GithubSignupViewModel1 {
        GithubSignupViewModel1(
            input: (
                username: inputs.username.output,
                password: inputs.password.output,
                repeatedPassword: inputs.repeatedPassword.output,
                loginTaps: inputs.loginTaps.output
            ),
            dependency: (
                api: api,
                validationService: GitHubDefaultValidationService(api: api),
                wireframe: wireframe,
                scheduler: scheduler
            ))
    }

    /// The inputs of `GithubSignupViewModel2`: its drivers of text are properties.
    struct PropertyInputs {
        let username = MutableProperty("")
        let password = MutableProperty("")
        let repeatedPassword = MutableProperty("")
        let loginTaps = Signal<Void>.pipe()

        func drive(
            on scheduler: TestScheduler, username: String, password: String, repeatedPassword: String,
            loginTaps: String = ""
        ) {
            scheduler.drive(self.username, with: username, values: stringValues, frame: frame)
            scheduler.drive(self.password, with: password, values: stringValues, frame: frame)
            scheduler.drive(self.repeatedPassword, with: repeatedPassword, values: stringValues, frame: frame)
            scheduler.drive(self.loginTaps.input, with: loginTaps, values: ["x": ()], frame: frame)
        }
    }

    static func viewModel2(_ inputs: PropertyInputs, api: MockGitHubAPI, wireframe: MockWireframe)
        -> GithubSignupViewModel2
    {
        GithubSignupViewModel2(
            input: (
                username: inputs.username,
                password: inputs.password,
                repeatedPassword: inputs.repeatedPassword,
                loginTaps: inputs.loginTaps.output
            ),
            dependency: (
                api: api,
                validationService: GitHubDefaultValidationService(api: api),
                wireframe: wireframe
            ))
    }

    // MARK: RxExample's tests

    /// `testGitHubSignup_vanillaObservables_1_testEnabledUserInterfaceElements`.
    @Test func viewModel1ValidatesEachUsernameAndEnablesSignupOnceAllIsValid() {
        let scheduler = TestScheduler()
        let inputs = Inputs()
        let viewModel = Self.viewModel1(
            inputs, api: Self.mockGithubAPI(scheduler: scheduler),
            wireframe: MockWireframe(scheduler: scheduler, frame: Self.frame), scheduler: scheduler)

        let recordedSignupEnabled = viewModel.signupEnabled.record(on: scheduler)
        let recordedValidatedUsername = viewModel.validatedUsername.record(on: scheduler)
        inputs.drive(
            on: scheduler,
            username: "e---u1----u2-----u3-----------------",
            password: "e----------------------p1-----------",
            repeatedPassword: "e---------------------------p2---p1-")
        scheduler.run()

        recordedValidatedUsername.assertMarbles(
            "e---v--f--v--x---v--o----------------", values: Self.usernameValidations, frame: Self.frame)
        recordedSignupEnabled.assertMarbles(
            "f--------------------------------t---", values: Self.booleans, frame: Self.frame)
    }

    /// `testGitHubSignup_drivers_2_testEnabledUserInterfaceElements`, without
    /// `SharingScheduler.mock`: nothing in the view model picks a scheduler.
    @Test func viewModel2ValidatesEachUsernameAndEnablesSignupOnceAllIsValid() {
        let scheduler = TestScheduler()
        let inputs = PropertyInputs()
        let viewModel = Self.viewModel2(
            inputs, api: Self.mockGithubAPI(scheduler: scheduler),
            wireframe: MockWireframe(scheduler: scheduler, frame: Self.frame))

        let recordedSignupEnabled = viewModel.signupEnabled.record(on: scheduler)
        let recordedValidatedUsername = viewModel.validatedUsername.record(on: scheduler)
        inputs.drive(
            on: scheduler,
            username: "e---u1----u2-----u3-----------------",
            password: "e----------------------p1-----------",
            repeatedPassword: "e---------------------------p2---p1-")
        scheduler.run()

        recordedValidatedUsername.assertMarbles(
            "e---v--f--v--x---v--o----------------", values: Self.usernameValidations, frame: Self.frame)
        recordedSignupEnabled.assertMarbles(
            "f--------------------------------t---", values: Self.booleans, frame: Self.frame)
    }

    // MARK: What RxExample's tests leave out

    /// Each keystroke in a password field is validated at once. The signals repeat an equal
    /// result (as RxSwift's do); the properties do not.
    @Test func eachPasswordKeystrokeIsValidated() {
        let scheduler = TestScheduler()
        let api = Self.mockGithubAPI(scheduler: scheduler)
        let wireframe = MockWireframe(scheduler: scheduler, frame: Self.frame)
        let inputs = Inputs()
        let propertyInputs = PropertyInputs()
        let viewModel1 = Self.viewModel1(inputs, api: api, wireframe: wireframe, scheduler: scheduler)
        let viewModel2 = Self.viewModel2(propertyInputs, api: api, wireframe: wireframe)

        let passwords1 = viewModel1.validatedPassword.record(on: scheduler)
        let repeated1 = viewModel1.validatedPasswordRepeated.record(on: scheduler)
        let passwords2 = viewModel2.validatedPassword.record(on: scheduler)
        let repeated2 = viewModel2.validatedPasswordRepeated.record(on: scheduler)
        let password = "e---p3------p1"
        let repeatedPassword = "e-----------------p2---p1"
        inputs.drive(on: scheduler, username: "e", password: password, repeatedPassword: repeatedPassword)
        propertyInputs.drive(on: scheduler, username: "e", password: password, repeatedPassword: repeatedPassword)
        scheduler.run()

        let values = Self.passwordValidations
        passwords1.assertMarbles("e---s-------o", values: values, frame: Self.frame)
        passwords2.assertMarbles("e---s-------o", values: values, frame: Self.frame)
        repeated1.assertMarbles("e---e-------e-----d----r", values: values, frame: Self.frame)
        repeated2.assertMarbles("e-----------------d----r", values: values, frame: Self.frame)
    }

    /// A tap signs up with the fields as they are: the indicator runs while the request
    /// does and the button is disabled meanwhile; the answer is prompted, then told.
    @Test func viewModel1SignsInWhileTheIndicatorRuns() {
        let scheduler = TestScheduler()
        let inputs = Inputs()
        let wireframe = MockWireframe(scheduler: scheduler, frame: Self.frame)
        let viewModel = Self.viewModel1(
            inputs, api: Self.mockGithubAPI(scheduler: scheduler), wireframe: wireframe, scheduler: scheduler)

        let signupEnabled = viewModel.signupEnabled.record(on: scheduler)
        let signingIn = viewModel.signingIn.record(on: scheduler)
        let signedIn = viewModel.signedIn.record(on: scheduler)
        inputs.drive(
            on: scheduler, username: "e---u3", password: "e---p2", repeatedPassword: "e---p2", loginTaps: "----------x")
        scheduler.run()

        signupEnabled.assertMarbles("f------t--f-t", values: Self.booleans, frame: Self.frame)
        signingIn.assertMarbles("f---------t-f", values: Self.booleans, frame: Self.frame)
        signedIn.assertMarbles("-------------t", values: Self.booleans, frame: Self.frame)
        #expect(wireframe.prompts.value == ["Mock: Signed in to GitHub."])
    }

    @Test func viewModel2SignsInWhileTheIndicatorRuns() {
        let scheduler = TestScheduler()
        let inputs = PropertyInputs()
        let wireframe = MockWireframe(scheduler: scheduler, frame: Self.frame)
        let viewModel = Self.viewModel2(inputs, api: Self.mockGithubAPI(scheduler: scheduler), wireframe: wireframe)

        let signupEnabled = viewModel.signupEnabled.record(on: scheduler)
        let signingIn = viewModel.signingIn.record(on: scheduler)
        let signedIn = viewModel.signedIn.record(on: scheduler)
        inputs.drive(
            on: scheduler, username: "e---u3", password: "e---p2", repeatedPassword: "e---p2", loginTaps: "----------x")
        scheduler.run()

        signupEnabled.assertMarbles("f------t--f-t", values: Self.booleans, frame: Self.frame)
        signingIn.assertMarbles("f---------t-f", values: Self.booleans, frame: Self.frame)
        signedIn.assertMarbles("-------------t", values: Self.booleans, frame: Self.frame)
        #expect(wireframe.prompts.value == ["Mock: Signed in to GitHub."])
        #expect(viewModel.signupFailure.value == nil)
    }

    /// A sign-up that fails reads as "not signed in" (`catchAndReturn(false)`,
    /// `asDriver(onErrorJustReturn: false)`); the driver version's activity keeps why.
    @Test func aFailedSignupIsPromptedAndToldAsNotSignedIn() {
        let scheduler = TestScheduler()
        let api = Self.mockGithubAPI(scheduler: scheduler)
        let wireframe1 = MockWireframe(scheduler: scheduler, frame: Self.frame)
        let wireframe2 = MockWireframe(scheduler: scheduler, frame: Self.frame)
        let inputs = Inputs()
        let propertyInputs = PropertyInputs()
        let viewModel1 = Self.viewModel1(inputs, api: api, wireframe: wireframe1, scheduler: scheduler)
        let viewModel2 = Self.viewModel2(propertyInputs, api: api, wireframe: wireframe2)

        let signingIn1 = viewModel1.signingIn.record(on: scheduler)
        let signedIn1 = viewModel1.signedIn.record(on: scheduler)
        let signingIn2 = viewModel2.signingIn.record(on: scheduler)
        let signedIn2 = viewModel2.signedIn.record(on: scheduler)
        for drive in [inputs.drive, propertyInputs.drive] {
            drive(scheduler, "e---u3", "e---p1", "e---p1", "----------x")
        }
        scheduler.run()

        for (signingIn, signedIn) in [(signingIn1, signedIn1), (signingIn2, signedIn2)] {
            signingIn.assertMarbles("f---------tf", values: Self.booleans, frame: Self.frame)
            signedIn.assertMarbles("------------f", values: Self.booleans, frame: Self.frame)
        }
        #expect(wireframe1.prompts.value == ["Mock: Sign in to GitHub failed"])
        #expect(wireframe2.prompts.value == ["Mock: Sign in to GitHub failed"])
        #expect(viewModel2.signupFailure.value == NetworkError())
    }
}
