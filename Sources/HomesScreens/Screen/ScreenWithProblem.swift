/// What an action returns when it opened a screen but what it was asked to do at once
/// did not work (a sign-in refused): the screen is shown after the problem.
@MainActor
package struct ScreenWithProblem {
    /// The screen to show.
    package let screen: any Screen
    /// Why the action's work did not go through.
    package let problem: String

    /// `screen`, to be shown after `problem`.
    package init(screen: any Screen, problem: String) {
        self.screen = screen
        self.problem = problem
    }
}
