import Foundation

/// Why a call found nothing to run.
///
/// Not-found is a value, never a crash: the app shows its ``description`` as a notice.
public struct NotFound: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of not-found.
    public enum Reason: Sendable, Equatable {
        /// No target is registered under the name.
        case unknownTarget
        /// The target has no action of that name.
        case unknownAction
        /// The action refused its parameters, saying why.
        case badParameters(String)
        /// The action may not be called from a URL.
        case remoteCallRefused
        /// A route patch disabled the call, with its message.
        case disabled(String)
        /// The URL is not `scheme://target/action?query` for this mediator's scheme.
        case badURL
    }

    /// Why.
    public let reason: Reason
    /// The target that was asked for.
    public let target: String
    /// The action that was asked for.
    public let action: String

    /// A sentence for a notice screen.
    public var description: String {
        switch reason {
        case .unknownTarget: return "There is no \(target) here."
        case .unknownAction: return "\(target) cannot \(action)."
        case .badParameters(let why): return "\(target)/\(action) cannot open: \(why)"
        case .remoteCallRefused: return "\(target)/\(action) cannot be opened from a link."
        case .disabled(let message): return message
        case .badURL: return "That link is not one this app understands."
        }
    }
}

/// What a call gave back.
public enum MediatorOutcome {
    /// The action's value (a controller, a screen, data).
    case value(Any)
    /// The action ran and returned nothing.
    case done
    /// Nothing ran; ``NotFound`` says why.
    case notFound(NotFound)

    /// The value, if the action returned one of type `T`.
    public func value<T>(as type: T.Type) -> T? {
        if case .value(let value) = self { return value as? T }
        return nil
    }

    /// The not-found value, if nothing ran.
    public var notFound: NotFound? {
        if case .notFound(let notFound) = self { return notFound }
        return nil
    }
}

/// Thrown by an action that cannot run with the parameters it was given.
public enum MediatorError: Error, Sendable {
    /// The parameters are missing or malformed; the text says which and how.
    case badParameters(String)
}

/// The actions of one target, filled in by the target when it is first used.
public final class TargetActions {
    struct Action {
        let allowsRemoteCalls: Bool
        let perform: (MediatorParameters) throws -> Any?
    }

    private(set) var actions: [String: Action] = [:]

    init() {}

    /// Declares the action `name`, run by `perform`.
    ///
    /// Only actions with `allowsRemoteCalls` may be called from a URL: that is the
    /// allow-list. Declaring a name again replaces its action.
    ///
    /// - Parameters:
    ///   - name: The action's name, as callers and URLs spell it.
    ///   - allowsRemoteCalls: Whether ``Mediator/open(url:)-(String)`` may run the action;
    ///     native calls always may.
    ///   - perform: Runs the action with the call's parameters and returns its value, or
    ///     nil for ``MediatorOutcome/done``. It throws ``MediatorError/badParameters(_:)``
    ///     to refuse its parameters; the caller gets a ``NotFound`` value saying why.
    public func on(
        _ name: String, allowsRemoteCalls: Bool = false,
        _ perform: @escaping (MediatorParameters) throws -> Any?
    ) {
        actions[name] = Action(allowsRemoteCalls: allowsRemoteCalls, perform: perform)
    }
}

/// A business module's entry point for the mediator.
///
/// It is the only thing of a business module that other modules reach, through the
/// module's category on ``Mediator``.
public protocol MediatorTarget: AnyObject {
    /// Declares the actions this target answers.
    func registerActions(_ actions: TargetActions)
}

/// Lets business modules call each other by target and action name, without imports.
///
/// Calls come natively or from a URL and take one path. Each business module ships a
/// target and a small typed extension (the "category" pattern), so callers never spell
/// names; the app registers the targets:
///
/// ```swift
/// final class ListingTarget: MediatorTarget {
///     func registerActions(_ actions: TargetActions) {
///         actions.on("detail", allowsRemoteCalls: true) { params in
///             guard let id = params.int("id") else { throw MediatorError.badParameters("id must be a number") }
///             return ListingDetailController(id: id)
///         }
///     }
/// }
/// extension Mediator {
///     func listingDetail(id: Int) -> MediatorOutcome {
///         perform(target: "listing", action: "detail", params: ["id": id])
///     }
/// }
/// mediator.register(target: "listing") { ListingTarget() }
/// mediator.listingDetail(id: 7)                  // native
/// mediator.open(url: "homes://listing/detail?id=7")  // remote, same path
/// ```
// Safe to share: the registry and routes are touched only under `lock` (target making under `making`); actions run on the caller's thread, which for screens is the main actor.
public final class Mediator: @unchecked Sendable {
    private struct Registration {
        let make: () -> any MediatorTarget
        let keepsTarget: Bool
        /// Distinguishes re-registrations of one name, so a target made for an older
        /// registration is never kept for a newer one.
        let generation: Int
        var target: (any MediatorTarget)?
        var actions: TargetActions?
    }

    /// The URL scheme this mediator answers, e.g. `homes`.
    public let scheme: String
    private let lock = NSLock()
    private var registrations: [String: Registration] = [:]
    private var generations = 0
    /// Serializes making kept targets (recursive: a target may call the mediator while
    /// it is made) so each is made once.
    private let making = NSRecursiveLock()
    /// Serializes route patches, so the table in force and the stored patch agree.
    private let patching = NSLock()
    private var routes = RouteTable()
    private let patchStore: (any RoutePatchStore)?

    /// Creates a mediator for URLs of `scheme`.
    ///
    /// Call ``restoreStoredPatch()`` once the targets are registered to apply the last
    /// stored route patch.
    ///
    /// - Parameters:
    ///   - scheme: The URL scheme to answer, e.g. `homes`; compared without case.
    ///   - patchStore: Where valid route patches are kept between launches; nil keeps
    ///     none.
    public init(scheme: String, patchStore: (any RoutePatchStore)? = nil) {
        self.scheme = scheme.lowercased()
        self.patchStore = patchStore
    }

    // MARK: - Registration

    /// Registers the target `name`, made by `make` on first use.
    ///
    /// Registering a name again replaces its target; a target made for the older
    /// registration is never kept for the newer one.
    ///
    /// - Parameters:
    ///   - name: The target's name, as callers and URLs spell it.
    ///   - keepsTarget: Whether the target is made once and kept; otherwise each call gets
    ///     a fresh one.
    ///   - make: Makes the target; called outside the mediator's lock, so it may call the
    ///     mediator.
    public func register(target name: String, keepsTarget: Bool = true, _ make: @escaping () -> any MediatorTarget) {
        lock.lock()
        generations += 1
        let replaced = registrations.updateValue(
            Registration(make: make, keepsTarget: keepsTarget, generation: generations), forKey: name)
        lock.unlock()
        // Let go after the lock: the replaced target's deinit may call the mediator.
        withExtendedLifetime(replaced) {}
    }

    /// Whether a target named `name` is registered.
    public func hasTarget(_ name: String) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return registrations[name] != nil
    }

    // MARK: - Calls

    /// Runs `action` of `target` with `params` as a native call.
    ///
    /// A native call may run any action, allow-listed for URLs or not; a route patch may
    /// still remap or disable it.
    ///
    /// - Parameters:
    ///   - target: The registered target's name.
    ///   - action: The action's name.
    ///   - params: The call's parameters.
    /// - Returns: The action's value, ``MediatorOutcome/done`` when it returned nothing,
    ///   or a ``NotFound`` value saying why nothing ran.
    public func perform(target: String, action: String, params: MediatorParameters = [:]) -> MediatorOutcome {
        call(target: target, action: action, params: params, remote: false)
    }

    /// Runs the call a URL names, `scheme://target/action?k=v`, as a remote call.
    ///
    /// Only actions declared with `allowsRemoteCalls` run; the query's values reach the
    /// action as text.
    ///
    /// - Parameter url: The link, in this mediator's ``scheme``.
    /// - Returns: The action's value, ``MediatorOutcome/done`` when it returned nothing,
    ///   or a ``NotFound`` value for a malformed URL, a refused or unknown call.
    public func open(url: String) -> MediatorOutcome {
        guard let parsed = MediatorURL(url, scheme: scheme) else {
            return .notFound(NotFound(reason: .badURL, target: "", action: ""))
        }
        return call(target: parsed.target, action: parsed.action, params: parsed.parameters, remote: true)
    }

    /// Runs the call `url` names (see `open(url:)`).
    public func open(url: URL) -> MediatorOutcome {
        open(url: url.absoluteString)
    }

    private func call(target: String, action: String, params: MediatorParameters, remote: Bool) -> MediatorOutcome {
        var target = target
        var action = action
        switch currentRoutes.resolve(target: target, action: action) {
        case .disabled(let message):
            return .notFound(NotFound(reason: .disabled(message), target: target, action: action))
        case .remapped(let newTarget, let newAction):
            target = newTarget
            action = newAction
        case .unchanged:
            break
        }
        guard let actions = actions(of: target) else {
            return .notFound(NotFound(reason: .unknownTarget, target: target, action: action))
        }
        guard let entry = actions.actions[action] else {
            return .notFound(NotFound(reason: .unknownAction, target: target, action: action))
        }
        if remote && !entry.allowsRemoteCalls {
            return .notFound(NotFound(reason: .remoteCallRefused, target: target, action: action))
        }
        do {
            guard let value = try entry.perform(params) else { return .done }
            return .value(value)
        } catch MediatorError.badParameters(let why) {
            return .notFound(NotFound(reason: .badParameters(why), target: target, action: action))
        } catch {
            return .notFound(NotFound(reason: .badParameters("\(error)"), target: target, action: action))
        }
    }

    /// The actions of `name`, making (and keeping, if asked) its target outside the
    /// registry lock; a kept target is made once even when first called from many threads.
    func actions(of name: String) -> TargetActions? {
        guard let registration = registration(named: name) else { return nil }
        if let actions = registration.actions, registration.keepsTarget { return actions }
        guard registration.keepsTarget else { return Self.make(registration) }
        making.lock()
        defer { making.unlock() }
        guard let current = self.registration(named: name) else { return nil }
        if let actions = current.actions { return actions }
        let (target, actions) = Self.makeTarget(current)
        lock.lock()
        if registrations[name]?.generation == current.generation {
            registrations[name]?.target = target
            registrations[name]?.actions = actions
        }
        lock.unlock()
        return actions
    }

    private func registration(named name: String) -> Registration? {
        lock.lock()
        defer { lock.unlock() }
        return registrations[name]
    }

    private static func make(_ registration: Registration) -> TargetActions {
        makeTarget(registration).1
    }

    private static func makeTarget(_ registration: Registration) -> (any MediatorTarget, TargetActions) {
        let target = registration.make()
        let actions = TargetActions()
        target.registerActions(actions)
        return (target, actions)
    }

    // MARK: - Route patches

    private var currentRoutes: RouteTable {
        lock.lock()
        defer { lock.unlock() }
        return routes
    }

    /// Replaces the route table in force with a route patch.
    ///
    /// Every entry of the patch remaps a call to another target/action (which must exist,
    /// be allow-listed for URLs, and not be disabled or remapped by the same patch) or
    /// disables it with a message. A valid patch is stored for the next start.
    ///
    /// - Parameter data: The patch, a JSON object with a `version` and `routes`.
    /// - Throws: ``RoutePatchError``, naming the entry, when the patch is malformed, has an
    ///   invalid entry, or is older than the one in force; the patch is rejected whole and
    ///   the previous table stays.
    public func apply(patch data: Data) throws {
        patching.lock()
        defer { patching.unlock() }
        let table = try RouteTable(patch: data, scheme: scheme) { target, action in
            guard let actions = self.actions(of: target) else { return "no target \(target)" }
            guard let entry = actions.actions[action] else { return "\(target) has no action \(action)" }
            return entry.allowsRemoteCalls ? nil : "\(target)/\(action) is not allowed from URLs"
        }
        guard table.version >= currentRoutes.version else {
            throw RoutePatchError(
                message: "patch version \(table.version) is older than the version in force, \(currentRoutes.version)")
        }
        lock.lock()
        routes = table
        lock.unlock()
        patchStore?.save(data)
    }

    /// Applies the stored route patch, if any.
    ///
    /// - Returns: Why the stored patch was rejected, or nil when it was applied or there
    ///   is none. A rejected patch is ignored: the table stays as it was.
    @discardableResult
    public func restoreStoredPatch() -> RoutePatchError? {
        guard let data = patchStore?.load() else { return nil }
        do {
            try apply(patch: data)
            return nil
        } catch let error as RoutePatchError {
            return error
        } catch {
            return RoutePatchError(message: "\(error)")
        }
    }

    /// The patch version in force (0 with no patch).
    public var routeVersion: Int { currentRoutes.version }
}
