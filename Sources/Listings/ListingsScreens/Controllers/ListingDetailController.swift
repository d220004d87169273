import FavoritesCategory
import Foundation
import HomesScreens
import InquiryCategory
import Listings
import ListingsCategory
import Mediator
import Signals
import TextViews
import ViewModels

/// Coordinates the detail screen: the listing, its favourite mark, fav/unfav and asking
/// the agent. Favourites and inquiries are other features: reached through the mediator.
@MainActor
package final class ListingDetailController: Screen {
    package let name = "detail"
    package var identity: String { "detail/\(logic.kind.rawValue)/\(logic.id)" }
    package let rootView: any TextView
    package let changes: Signal<Void>
    package let isBusy: Property<Bool>
    private let logic: ListingDetailLogic
    private let mediator: Mediator
    private let inquiry: (any InquirySender)?
    private let now: @Sendable () -> Date
    private let title = LabelView()
    private let facts = TableView<ListingDetailViewModel.Fact>(columns: [
        TableColumn { $0.label }, TableColumn { $0.value },
    ])
    private let mark = LabelView()
    private let inquiryStatus = LabelView()
    private let changed: Signal<Void>.Input
    private let bag = DisposeBag()

    /// The screen of `logic`'s listing; favourites and inquiries through `mediator`.
    init(logic: ListingDetailLogic, mediator: Mediator, now: @escaping @Sendable () -> Date) {
        self.logic = logic
        self.mediator = mediator
        self.now = now
        let inquiry = mediator.inquirySender()
        self.inquiry = inquiry
        rootView = StackView([facts, mark, inquiryStatus])
        (changes, changed) = Signal<Void>.pipe()
        facts.emptyText = ""
        let listing = SavedListing(kind: logic.kind, id: logic.id)
        let isSaved = mediator.savedListings().map { $0.contains(listing) }.skipRepeats()
        let asked = inquiry?.state ?? Property(value: InquiryState())
        let viewModel = Property.combineLatest(logic.state, isSaved, asked).map { state, isSaved, asked in
            ListingDetailViewModel(
                detail: state.detail, isLoading: state.isLoading, problem: state.problem, isFavorite: isSaved,
                now: now(), inquiryStatus: asked.status, isSending: asked.isSending)
        }
        isBusy = viewModel.map(\.isBusy)
        viewModel.bind(\.title, to: facts) { view, title in view.title = title }.dispose(in: bag)
        viewModel.bind(\.facts, to: facts) { view, facts in view.rows = facts }.dispose(in: bag)
        viewModel.bind(\.status, to: facts) { view, status in view.status = status }.dispose(in: bag)
        viewModel.bind(\.favoriteMark, to: mark) { view, text in view.text = text }.dispose(in: bag)
        viewModel.bind(\.inquiryStatus, to: inquiryStatus) { view, text in view.text = text }.dispose(in: bag)
        viewModel.signal.observe { [changed] _ in changed.send() }.dispose(in: bag)
        logic.load()
    }

    package func cancelWork() {
        logic.cancel()
        inquiry?.cancel()
    }

    // MARK: - Commands

    package var commands: [CommandHelp] {
        [
            CommandHelp(usage: "fav", summary: "save this listing"), CommandHelp(usage: "unfav", summary: "forget it"),
            CommandHelp(usage: "refresh", summary: "reload it"),
            CommandHelp(
                usage: "ask TEXT [--photo FILE]", summary: "ask the agent, with a photo if you like",
                flags: [CommandHelp.Flag("--photo", takesFile: true)], takesRestOfLine: true),
        ]
    }

    package func handle(_ input: Command) -> CommandOutcome? {
        let (command, arguments) = (input.name, input.arguments)
        switch command {
        case "refresh":
            logic.reload()
            return .handled
        case "ask":
            return ask(arguments, photo: input.options["--photo"])
        case "fav", "unfav":
            guard arguments.isEmpty else { return .error("usage: \(command)") }
            guard let detail = logic.state.value.detail else { return .error("the listing has not loaded") }
            let problem =
                command == "fav"
                ? mediator.saveFavorite(kind: detail.kind, id: detail.id, name: detail.name, price: detail.price)
                : mediator.forgetFavorite(kind: detail.kind, id: detail.id)
            return problem.map(CommandOutcome.error) ?? .handled
        default:
            return nil
        }
    }

    // MARK: - Event responses

    private func ask(_ words: [String], photo: String?) -> CommandOutcome {
        if photo?.isEmpty == true { return .error("usage: ask TEXT [--photo FILE]: --photo needs a file") }
        guard let inquiry else { return .error("questions to agents are not available") }
        return inquiry.ask(
            kind: logic.kind, listingID: logic.id, text: words.joined(separator: " "),
            photoPath: photo
        ).map(CommandOutcome.error) ?? .handled
    }
}
