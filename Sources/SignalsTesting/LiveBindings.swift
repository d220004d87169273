import Signals

/// Fails the test if `object`, or anything it holds, still keeps a live binding.
///
/// A live binding is a `Disposable` that is not disposed, or a `DisposeBag` with live
/// disposables. Use it after tearing a screen down to prove its controller let go of everything.
/// The search follows stored properties (of classes, structs, enums, optionals and
/// collections) but does not look inside the library's own objects (signals, inputs,
/// properties, actions, schedulers), whose observers belong to whoever observes them.
///
/// ```swift
/// controller.close()
/// assertNoLiveBindings(in: controller)
/// ```
public func assertNoLiveBindings(
    in object: AnyObject,
    fileID: String = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
) {
    let live = liveBindings(in: object)
    guard !live.isEmpty else { return }
    reportFailure(
        "\(live.count) live binding(s) left:\n" + live.map { "  \($0)" }.joined(separator: "\n"),
        fileID: fileID, filePath: filePath, line: line, column: column
    )
}

/// The paths (like `self.bag[2]`) of live bindings reachable from `object`.
public func liveBindings(in object: AnyObject) -> [String] {
    var visited: Set<ObjectIdentifier> = []
    var found: [String] = []
    search(object, path: "self", depth: 0, visited: &visited, found: &found)
    return found
}

private func search(_ value: Any, path: String, depth: Int, visited: inout Set<ObjectIdentifier>, found: inout [String])
{
    guard depth < 12 else { return }
    if let bag = value as? DisposeBag {
        let count = bag.liveCount
        if count > 0 { found.append("\(path): DisposeBag with \(count) live disposable(s)") }
        return
    }
    if let disposable = value as? Disposable {
        if !disposable.isDisposed { found.append("\(path): \(type(of: disposable))") }
        return
    }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .class {
        let object = value as AnyObject
        guard visited.insert(ObjectIdentifier(object)).inserted else { return }
        // The library's own objects hold other people's observers, not this object's
        // bindings: do not look inside them.
        if String(reflecting: type(of: object)).hasPrefix("Signals.") { return }
    }
    var current: Mirror? = mirror
    while let level = current {
        for (offset, child) in level.children.enumerated() {
            let label = child.label.map { ".\($0)" } ?? "[\(offset)]"
            search(child.value, path: path + label, depth: depth + 1, visited: &visited, found: &found)
        }
        current = level.superclassMirror
    }
}
