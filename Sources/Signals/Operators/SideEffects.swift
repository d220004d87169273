import Foundation

extension Signal {
    /// Runs `value` and `completed` as the events pass, before this signal's observers get them.
    ///
    /// The values and the completion go on unchanged. The closures run once per event, however many observers there are, on the thread
    /// that delivers it, from the moment the first observer arrives.
    ///
    /// ```swift
    /// let saves = saveTaps.on(value: { _ in analytics.track("save") })
    /// ```
    @inlinable
    public func on(
        value: (@Sendable (Value) -> Void)? = nil,
        completed: (@Sendable () -> Void)? = nil
    ) -> Signal<Value> {
        derivedInDelivery { output in
            forward(
                to: output,
                value: { element in
                    value?(element)
                    output.sendInDelivery(element)
                },
                completed: {
                    completed?()
                    output.sendCompleted()
                })
        }
    }

    /// Writes a line for each event of this signal, then passes the events on unchanged.
    ///
    /// The lines are `started` when the first observer arrives, `value(…)` for each value,
    /// `completed`, and `disposed` when the signal lets go of its source without having
    /// completed (its last observer left after it was released).
    ///
    /// - Parameters:
    ///   - label: The text each line starts with.
    ///   - log: Receives each line, on the thread that delivers the event; by default it
    ///     writes to standard error. Pass your own function to send the lines elsewhere,
    ///     or to capture them in a test.
    ///
    /// ```swift
    /// let results = queries.logEvents("query").flatMapLatest(search)
    /// // query: started
    /// // query: value(ho)
    /// ```
    public func logEvents(
        _ label: String,
        to log: @escaping @Sendable (String) -> Void = { StandardError.writeLine($0) }
    ) -> Signal<Value> {
        derivedInDelivery { output in
            let ended = AtomicFlag()
            output.onStart {
                log("\(label): started")
                output.addUpstream(
                    AnyDisposable {
                        if !ended.value { log("\(label): disposed") }
                    })
            }
            forward(
                to: output,
                value: { element in
                    log("\(label): value(\(element))")
                    output.sendInDelivery(element)
                },
                completed: {
                    ended.exchange(true)
                    log("\(label): completed")
                    output.sendCompleted()
                })
        }
    }
}

/// Where ``Signal/logEvents(_:to:)`` writes by default.
@usableFromInline
enum StandardError {
    /// Writes `line` and a newline to standard error, in one write.
    @usableFromInline
    static func writeLine(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
