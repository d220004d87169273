import Foundation
import Listings
import ListingsCategory
import ListingsScreens
import Testing
import ViewModels

@Suite struct ListingListViewModelTests {
    let now = Date(timeIntervalSince1970: 1_000_000)

    func listing(_ id: Int, _ kind: ListingKind = .rent) -> ListingSummary {
        ListingSummary(
            kind: kind, id: id, name: "Home \(id)", title: "t", price: 3_000 + id, area: 50, district: "静安",
            updatedAt: now.addingTimeInterval(-120), latitude: 0, longitude: 0)
    }

    @Test func rowsTitleStatusAndFooter() {
        let model = ListingListViewModel(
            kind: .rent, listings: [listing(1), listing(2)], filters: ["rooms": "2"],
            isLoading: false, isComplete: false, problem: nil, now: now)
        #expect(model.title == "Rentals (rooms=2)")
        #expect(model.rows.map(\.number) == ["1", "2"])
        #expect(model.rows[0].price == "¥3,001/mo")
        #expect(model.rows[0].age == "2 min ago")
        #expect(model.status == "")
        #expect(model.footer == "2 shown - type more for the next page")
    }

    @Test func loadingProblemEmptyAndComplete() {
        let loading = ListingListViewModel(
            kind: .new, listings: [], filters: [:], isLoading: true, isComplete: false,
            problem: nil, now: now)
        #expect(loading.status == "loading…")
        #expect(loading.footer == "")
        let failed = ListingListViewModel(
            kind: .resale, listings: [], filters: [:], isLoading: false, isComplete: true,
            problem: "timed out", now: now)
        #expect(failed.status == "! timed out")
        #expect(failed.footer == "no listings")
        let all = ListingListViewModel(
            kind: .new, listings: [listing(1, .new)], filters: [:], isLoading: false,
            isComplete: true, problem: nil, now: now)
        #expect(all.footer == "1 shown, that is all")
        #expect(all.rows[0].price == "¥3,001")
        #expect(ListingListViewModel().title == "Listings")
    }

    @Test func savedListingsAreStarred() {
        let model = ListingListViewModel(
            kind: .rent, listings: [listing(1), listing(2)], filters: [:], isLoading: false,
            isComplete: false, problem: nil, now: now, isSaved: { $0.id == 2 })
        #expect(model.rows.map(\.name) == ["Home 1", "Home 2 ★"])
    }
}

@Suite struct MapViewModelTests {
    @Test func pointsLandOnTheGridNorthUpWithALegend() {
        let points = [
            ListingMapPoint(number: 9, id: 21, name: "North-west", latitude: 2, longitude: 0),
            ListingMapPoint(number: 10, id: 4, name: "South-east", latitude: 0, longitude: 4),
            ListingMapPoint(number: 11, id: 7, name: "Also south-east", latitude: 0, longitude: 4),
        ]
        let map = MapViewModel(points: points, width: 5, height: 3)
        #expect(map.grid == ["a····", "·····", "····+"])
        #expect(
            map.legend.map { [$0.marker, $0.number, $0.name] }
                == [["a", "9", "North-west"], ["b", "10", "South-east"], ["c", "11", "Also south-east"]])
        #expect(MapViewModel(points: [], width: 5, height: 3) == MapViewModel())
        let single = MapViewModel(points: [points[0]], width: 3, height: 3)
        #expect(single.grid == ["···", "·a·", "···"])
    }

    /// Every listing loaded has a place in the legend: letters, then capitals, then
    /// digits, then a shared `*`.
    @Test func everyPointIsInTheLegendPastTheAlphabet() {
        let points = (1...64).map {
            ListingMapPoint(number: $0, id: $0, name: "Home \($0)", latitude: Double($0), longitude: Double($0))
        }
        let map = MapViewModel(points: points, width: 80, height: 12)
        #expect(map.legend.map(\.number) == (1...64).map(String.init))
        #expect(map.legend.map(\.marker).joined() == "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789**")
        #expect(map.grid.joined().contains("9") && map.grid.joined().contains("*"))
    }

    /// Regression (review): coordinates far beyond the earth's (±1e308) made the map's
    /// grid arithmetic trap; the map lays them out like any other.
    @Test(.tags(.regression)) func mapsOfAbsurdCoordinatesNeverTrap() {
        let points = [
            ListingMapPoint(id: 1, name: "a", latitude: -1e308, longitude: -1.5e308),
            ListingMapPoint(id: 2, name: "b", latitude: 1e308, longitude: 1.5e308),
        ]
        let map = MapViewModel(points: points, width: 10, height: 4)
        #expect(map.grid.count == 4)
        #expect(map.legend.count == 2)
    }
}
