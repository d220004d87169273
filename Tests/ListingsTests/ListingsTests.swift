import Foundation
import HomesAPI
import HomesTesting
import Listings
import ListingsCategory
import Networking
import Signals
import SignalsTesting
import Testing

@MainActor @Suite struct ListingListReformerTests {
    @Test(arguments: ListingKind.allCases)
    func eachKindsKeyStyleMatchesTheEmbeddedServer(kind: ListingKind) throws {
        let server = try #require(HomesAPIServer.Service(rawValue: kind.serviceName))
        #expect(kind.keyPrefix == server.keyPrefix)
        #expect(kind.pageKeys == server.pageKeys)
        let service = kind.service(baseURL: URL(string: "http://x/api")!)
        #expect(service.name == kind.serviceName)
        #expect((service.pageKey, service.pageSizeKey) == kind.pageKeys)
    }

    @Test func threeServicesWithDifferentKeysBecomeOneShape() async {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        var seen: [ListingKind: ListingSummary] = [:]
        for kind in ListingKind.allCases {
            await harness.run { logic.show(kind) }
            let first = logic.state.value.listings.first
            #expect(first?.kind == kind)
            #expect(first?.id == 1)
            #expect(first.map { $0.price > 0 && $0.area > 0 && !$0.district.isEmpty } == true)
            seen[kind] = first
        }
        #expect(seen.count == 3)
    }

    @Test func itemsMissingRequiredFieldsAreSkipped() async {
        let data: JSONValue = [
            "items": [
                ["esf_id": 1, "esf_name": "A", "esf_price": 10], ["esf_id": 2], "junk",
                ["esf_id": "3", "esf_name": "B", "esf_price": 5],
            ]
        ]
        let reformed = ListingListReformer().reform(
            data, of: APICall(definition: ListingListAPI(kind: .resale), parameters: [:]))
        #expect(reformed.map(\.id) == [1])
        #expect(reformed.first?.title == "A")
    }
}

@MainActor @Suite struct ListingLogicTests {
    @Test func showMoreAndTheLastPage() async {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        let counts = logic.state.map(\.listings.count).skipRepeats().record()
        await harness.run { logic.show(.rent) }
        #expect(await harness.run { logic.loadMore() })
        #expect(await harness.run { logic.loadMore() })
        #expect(logic.state.value.isComplete)
        #expect(await !harness.run { logic.loadMore() })
        counts.assertValues([0, 8, 16, 20])
    }

    @Test func loadingIsVisibleWhileARequestIsInFlight() async {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        let loading = logic.state.map(\.isLoading).record()
        harness.transport.holding = true
        await harness.run { logic.show(.new) }
        #expect(logic.state.value.isLoading)
        #expect(await !harness.run { logic.refresh() })
        harness.transport.release()
        await harness.flush()
        loading.assertValues([false, true, false])
    }

    @Test func aNewFilterCancelsTheRequestInFlight() async {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        await harness.run { logic.show(.rent) }
        harness.transport.holding = true
        let problems = logic.state.map(\.problem).record()
        #expect(await harness.run { logic.filter([("rooms", "2")]) } == nil)
        #expect(await harness.run { logic.filter([("district", "Xuhui")]) } == nil)
        harness.transport.release()
        await harness.flush()
        #expect(logic.state.value.listings.allSatisfy { $0.district == "Xuhui" })
        #expect(logic.state.value.filters == ["rooms": "2", "district": "Xuhui"])
        problems.assertValues([nil])
    }

    @Test func aDetailReloadedTwiceStaysLoadingWithNoProblemUntilTheNewestLands() async {
        let harness = HomesHarness()
        let logic = ListingDetailLogic(kind: .rent, id: 3, engine: harness.engine)
        harness.transport.holding = true
        await harness.run {
            logic.reload()
            logic.reload()
        }
        // The first call was replaced: that is no problem, and the second still loads.
        #expect(logic.state.value.isLoading)
        #expect(logic.state.value.problem == nil)
        harness.transport.release()
        await harness.flush()
        #expect(!logic.state.value.isLoading)
        #expect(logic.state.value.problem == nil)
        #expect(logic.state.value.detail?.id == 3)
        // Stopping a load says so.
        harness.transport.holding = true
        await harness.run { logic.reload() }
        logic.cancel()
        await harness.flush()
        #expect(!logic.state.value.isLoading)
        #expect(logic.state.value.problem == "cancelled")
        harness.transport.release()
    }

    @Test func badFiltersAreRefusedWithAMessage() async {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        #expect(await harness.run { logic.filter([("colour", "red")]) }?.hasPrefix("unknown filter colour") == true)
        #expect(await harness.run { logic.filter([("rooms", "-1")]) } == "rooms needs a whole number, not -1")
        #expect(logic.state.value.filters.isEmpty)
        // Contradictions are refused, whether they come in one filter or across two.
        #expect(
            await harness.run { logic.filter([("min_price", "20000"), ("max_price", "1000")]) }
                == "min_price 20000 is above max_price 1000: no listing could match")
        #expect(await harness.run { logic.filter([("max_price", "1000")]) } == nil)
        #expect(
            await harness.run { logic.filter([("min_price", "20000")]) }
                == "min_price 20000 is above max_price 1000: no listing could match")
        #expect(logic.state.value.filters == ["max_price": "1000"])
    }

    /// A list opened with a query (a saved search, a link) shows that kind with those
    /// filters and no others, or refuses them all and stays as it was.
    @Test func aQueryShowsItsKindWithItsFiltersAlone() async {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        #expect(await harness.run { logic.filter([("district", "Xuhui")]) } == nil)
        #expect(await harness.run { logic.show(ListingQuery(kind: .new, filters: ["rooms": "2"])) } == nil)
        #expect(logic.state.value.kind == .new && logic.state.value.filters == ["rooms": "2"])
        #expect(!logic.state.value.listings.isEmpty)
        #expect(
            await harness.run { logic.show(ListingQuery(kind: .resale, filters: ["rooms": "2", "colour": "red"])) }?
                .hasPrefix("unknown filter colour") == true)
        #expect(
            await harness.run { logic.show(ListingQuery(kind: .rent, filters: ["min_price": "9", "max_price": "1"])) }
                == "min_price 9 is above max_price 1: no listing could match")
        #expect(logic.state.value.kind == .new && logic.state.value.filters == ["rooms": "2"])
    }

    @Test func aRejectedSignatureBecomesAProblem() async {
        let harness = HomesHarness()
        harness.engine.services.register(
            APIService(
                name: "rentals", baseURL: URL(string: "http://x/api")!,
                signatureRejectedCodes: [4010], signingSecret: Array("wrong".utf8)))
        let logic = ListingLogic(engine: harness.engine)
        await harness.run { logic.show(.rent) }
        #expect(logic.state.value.problem == "signature rejected")
        #expect(logic.state.value.listings.isEmpty)
        #expect(!logic.state.value.isLoading)
    }
}

/// The map's points are the state's: every page loaded, numbered as the list numbers them.
@MainActor @Suite struct ListingMapPointsTests {
    @Test func everyPageLoadedIsOnTheMapNumberedAsInTheList() async {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        await harness.run { logic.show(.new) }
        await harness.run { _ = logic.loadMore() }
        let state = logic.state.value
        #expect(state.listings.count == 16)
        #expect(state.mapPoints.map(\.number) == Array(1...16))
        #expect(state.mapPoints.map(\.id) == state.listings.map(\.id))
        #expect(state.mapPoints.map(\.name) == state.listings.map(\.name))
        // A new query starts the map afresh, with its first page.
        await harness.run { _ = logic.filter([(key: "rooms", value: "2")]) }
        #expect(logic.state.value.mapPoints.map(\.id) == logic.state.value.listings.map(\.id))
        #expect(logic.state.value.mapPoints.map(\.number) == Array(1...logic.state.value.listings.count))
    }
}

@MainActor @Suite struct ListingLogicReviewRegressionTests {
    @Test func aFailedFirstPageNeverMixesWithAnotherQuerysPages() async {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        await harness.run { logic.show(.new) }
        #expect(await harness.run { logic.loadMore() })
        await harness.run { logic.show(.rent) }
        harness.engine.reachability.update(isReachable: false)
        await harness.run { logic.show(.new) }
        #expect(logic.state.value.listings.isEmpty)
        harness.engine.reachability.update(isReachable: true)
        #expect(await !harness.run { logic.loadMore() })
        #expect(logic.state.value.listings.isEmpty)
    }

    @Test func filtersApplyAllOrNothing() async {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        await harness.run { logic.show(.rent) }
        let problem = await harness.run { logic.filter([("rooms", "2"), ("colour", "red")]) }
        #expect(problem?.hasPrefix("unknown filter colour") == true)
        #expect(logic.state.value.filters.isEmpty)
    }

    @Test func aDetailsProblemClearsWhenItLoadsAndRefreshGoesToTheNetwork() async {
        let harness = HomesHarness()
        let logic = ListingDetailLogic(kind: .rent, id: 2, engine: harness.engine)
        harness.engine.reachability.update(isReachable: false)
        await harness.run { logic.load() }
        #expect(logic.state.value.problem == "the network is unreachable")
        harness.engine.reachability.update(isReachable: true)
        await harness.run { logic.load() }
        #expect(logic.state.value.problem == nil)
        #expect(logic.state.value.detail?.id == 2)
        let served = harness.transport.server.requestsServed
        await harness.run { logic.reload() }
        #expect(harness.transport.server.requestsServed == served + 1)
    }
}

/// The list's and the detail's state are derived from their pages and their activity:
/// a request's start, its end and its failure each change the state once, never showing
/// "not loading" with the old rows or without the problem in between.
@MainActor @Suite struct ListingStateDerivationTests {
    @Test func aPageStartsAndLandsWithOneChangeEach() async {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        let states = logic.state.record()
        harness.transport.holding = true
        logic.show(.new)
        var loading = ListingPages()
        loading.kind = .new
        states.assertValues([ListingState(), ListingState(pages: loading, isLoading: true)])
        harness.transport.release()
        await harness.flush()
        let landed = logic.state.value.pages
        #expect(landed.listings.count == 8 && landed.hasFirstPage && !landed.isComplete)
        states.assertValues([
            ListingState(), ListingState(pages: loading, isLoading: true), ListingState(pages: landed),
        ])
    }

    @Test func aFailedPageStartsAndFailsWithOneChangeEach() async {
        let harness = HomesHarness()
        harness.engine.services.register(
            APIService(
                name: "rentals", baseURL: URL(string: "http://x/api")!,
                signatureRejectedCodes: [4010], signingSecret: Array("wrong".utf8)))
        let logic = ListingLogic(engine: harness.engine)
        let states = logic.state.record()
        harness.transport.holding = true
        logic.show(.rent)
        harness.transport.release()
        await harness.flush()
        states.assertValues([
            ListingState(), ListingState(isLoading: true), ListingState(problem: "signature rejected"),
        ])
    }

    @Test func aStoppedPageChangesTheStateOnceAndSaysSo() async {
        let harness = HomesHarness()
        let logic = ListingLogic(engine: harness.engine)
        let states = logic.state.record()
        harness.transport.holding = true
        logic.show(.rent)
        logic.cancel()
        var cancelled = ListingPages()
        cancelled.wasCancelled = true
        states.assertValues([
            ListingState(), ListingState(isLoading: true), ListingState(pages: cancelled, problem: "cancelled"),
        ])
        harness.transport.release()
        await harness.flush()
        #expect(states.values.count == 3)
    }

    @Test func aDetailStartsLandsAndFailsWithOneChangeEach() async {
        let harness = HomesHarness()
        let logic = ListingDetailLogic(kind: .rent, id: 3, engine: harness.engine)
        let states = logic.state.record()
        harness.transport.holding = true
        logic.load()
        harness.transport.release()
        await harness.flush()
        let detail = logic.state.value.detail
        #expect(detail?.id == 3)
        harness.engine.services.register(
            APIService(
                name: "rentals", baseURL: URL(string: "http://x/api")!,
                signatureRejectedCodes: [4010], signingSecret: Array("wrong".utf8)))
        harness.transport.holding = true
        logic.reload()
        harness.transport.release()
        await harness.flush()
        states.assertValues([
            ListingDetailState(), ListingDetailState(isLoading: true), ListingDetailState(detail: detail),
            ListingDetailState(detail: detail, isLoading: true),
            ListingDetailState(detail: detail, problem: "signature rejected"),
        ])
    }
}
