/// What an action returns when it opened a screen but what it was asked to do at once
/// did not work (a sign-in refused): the screen is shown after the problem.
@MainActor
public struct ScreenWithProblem {
    /// The screen to show.
    public let screen: any Screen
    /// Why the action's work did not go through.
    public let problem: String

    /// `screen`, to be shown after `problem`.
    public init(screen: any Screen, problem: String) {
        self.screen = screen
        self.problem = problem
    }
}
