import Favorites
import Foundation
import Inquiry
import Listings
import Signals
import TextViews
import ViewModels

/// Coordinates the detail screen: the listing, its favourite mark, and fav/unfav.
@MainActor
public final class ListingDetailController: Screen {
    public let name = "detail"
    public var identity: String { "detail/\(logic.kind.rawValue)/\(logic.id)" }
    public let rootView: any TextView
    public let changes: Signal<Void>
    public let isBusy: Property<Bool>
    private let logic: ListingDetailLogic
    private let favorites: FavoritesLogic
    private let inquiry: InquiryLogic
    private let now: @Sendable () -> Date
    private let title = LabelView()
    private let facts = TableView<ListingDetailViewModel.Fact>(columns: [
        TableColumn { $0.label }, TableColumn { $0.value },
    ])
    private let mark = LabelView()
    private let inquiryStatus = LabelView()
    private let changed: Signal<Void>.Input
    private let bag = DisposeBag()

    init(logic: ListingDetailLogic, favorites: FavoritesLogic, inquiry: InquiryLogic, now: @escaping @Sendable () -> Date) {
        self.logic = logic
        self.favorites = favorites
        self.inquiry = inquiry
        self.now = now
        rootView = StackView([facts, mark, inquiryStatus])
        (changes, changed) = Signal<Void>.pipe()
        isBusy = Property.combineLatest(logic.isLoading, inquiry.isSending).map { loading, sending in loading || sending }
        facts.emptyText = ""
        let isSaved = favorites.isSaved(kind: logic.kind.rawValue, listingID: logic.id)
        let viewModel = Property.combineLatest(logic.detail, logic.isLoading, logic.problem, isSaved)
            .map { detail, isLoading, problem, isSaved in
                ListingDetailViewModel(detail: detail, isLoading: isLoading, problem: problem, isFavorite: isSaved, now: now())
            }
        viewModel.bind(\.title, to: facts) { view, title in view.title = title }.dispose(in: bag)
        viewModel.bind(\.facts, to: facts) { view, facts in view.rows = facts }.dispose(in: bag)
        viewModel.bind(\.status, to: facts) { view, status in view.status = status }.dispose(in: bag)
        viewModel.bind(\.favoriteMark, to: mark) { view, text in view.text = text }.dispose(in: bag)
        viewModel.signal.observe { [changed] _ in changed.send() }.dispose(in: bag)
        inquiry.status.bind(to: inquiryStatus) { view, status in view.text = status ?? "" }.dispose(in: bag)
        inquiry.status.signal.observe { [changed] _ in changed.send() }.dispose(in: bag)
        logic.load()
    }


    public func cancelWork() {
        logic.cancel()
        inquiry.cancel()
    }

    public func completions(for command: String) -> [String] {
        command == "ask" ? ["--photo"] : []
    }

    // MARK: - Commands

    public var commands: [CommandHelp] {
        [CommandHelp(usage: "fav", summary: "save this listing"), CommandHelp(usage: "unfav", summary: "forget it"),
         CommandHelp(usage: "refresh", summary: "reload it"),
         CommandHelp(usage: "ask TEXT [--photo FILE]", summary: "ask the agent, with a photo if you like")]
    }

    public func handle(_ input: Command) -> CommandOutcome? {
        let (command, arguments) = (input.name, input.arguments)
        switch command {
        case "refresh":
            logic.reload()
            return .handled
        case "ask":
            return ask(arguments, photo: input.options["--photo"])
        case "fav", "unfav":
            guard arguments.isEmpty else { return .error("usage: \(command)") }
            guard let detail = logic.detail.value else { return .error("the listing has not loaded") }
            let problem = command == "fav"
                ? favorites.save(kind: detail.kind.rawValue, listingID: detail.id, name: detail.name, price: detail.price)
                : favorites.remove(kind: detail.kind.rawValue, listingID: detail.id)
            return problem.map(CommandOutcome.error) ?? .handled
        default:
            return nil
        }
    }

    // MARK: - Event responses

    private func ask(_ words: [String], photo: String?) -> CommandOutcome {
        if photo?.isEmpty == true { return .error("usage: ask TEXT [--photo FILE]: --photo needs a file") }
        return inquiry.ask(kind: logic.kind.rawValue, listingID: logic.id, text: words.joined(separator: " "),
                           photoPath: photo).map(CommandOutcome.error) ?? .handled
    }
}
