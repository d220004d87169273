import Favorites
import FavoritesCategory
import FavoritesScreens
import Foundation
import Inquiry
import InquiryCategory
import ListingsCategory
import ListingsScreens
import LoginCategory
import LoginScreens
import Mediator
import Networking

/// Every feature's mediator target, each registered under the name its category calls:
/// the one place the features are put together (the tests put them together here too).
@MainActor
struct FeatureTargets {
    let engine: APIEngine
    let favorites: FavoritesLogic
    let now: @Sendable () -> Date

    /// Registers the targets with `mediator`; each is made on its first call.
    func register(in mediator: Mediator) {
        let (engine, favorites, now) = (engine, favorites, now)
        mediator.register(target: Mediator.listingsTarget) { [unowned mediator] in
            ListingTarget(engine: engine, mediator: mediator, now: now)
        }
        mediator.register(target: Mediator.favoritesTarget) { [unowned mediator] in
            FavoritesTarget(logic: favorites, mediator: mediator, now: now)
        }
        mediator.register(target: Mediator.accountTarget) { AccountTarget(engine: engine) }
        mediator.register(target: Mediator.inquiryTarget) { InquiryTarget(engine: engine) }
    }
}
