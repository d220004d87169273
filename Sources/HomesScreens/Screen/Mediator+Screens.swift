import Mediator

/// How the mediator's answers become what a command does: the part every feature's
/// category shares.
@MainActor
extension Mediator {
    /// What the session should do with `outcome`: show the screen an action returned,
    /// say a problem, or show a notice for a call that found nothing to run.
    package func outcome(of outcome: MediatorOutcome) -> CommandOutcome {
        switch outcome {
        case .value(let value):
            if let screen = value as? any Screen { return .push(screen) }
            if let opened = value as? ScreenWithProblem { return .pushAfterError(opened.screen, opened.problem) }
            if let outcome = value as? CommandOutcome { return outcome }
            return .push(NoticeController(message: "That link opens nothing to show."))
        case .done:
            return .handled
        case .notFound(let notFound):
            return .push(NoticeController(message: notFound.description))
        }
    }

    /// The screen a URL names; a URL that opens nothing is an error (no screen is pushed).
    package func screen(at url: String) -> CommandOutcome {
        let opened = open(url: url)
        if let notFound = opened.notFound { return .error(notFound.description) }
        return outcome(of: opened)
    }
}
