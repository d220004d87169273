import Testing
import ViewModels

/// The sign-in screen's view model.
@Suite struct LoginViewModelTests {
    /// Regression (review): a failed sign-in did not show while someone was signed in:
    /// the status said only who was; it says the failure, and who is still signed in.
    @Test(.tags(.regression)) func aFailedSignInShowsEvenWhenSomeoneIsSignedIn() {
        let model = LoginViewModel(
            username: "bob", password: "wrongpass1", usernameProblem: nil, passwordProblem: nil,
            canSubmit: true, isSubmitting: false, signedInAs: "mei",
            failure: "wrong username or password")
        #expect(model.status == "! wrong username or password (still signed in as mei)")
    }
}
