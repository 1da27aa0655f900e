import Synchronization

/// Work waiting for one drainer at a time: whoever adds to an idle line must start draining it,
/// and the drainer takes up to `maximum` at a time, oldest first, until the line is empty. The
/// batching writers (`Batcher`, `SQLiteGroupCommitWriter`, `SQLiteBatchedWrites`) queue their writes here.
final class WaitingLine<Element: Sendable>: Sendable {
    private struct State {
        var waiting: [Element] = []
        var isDraining = false

        /// Takes the oldest `count` waiting (fewer when fewer wait).
        mutating func takeOldest(_ count: Int) -> [Element] {
            let taken = Array(waiting.prefix(count))
            waiting.removeFirst(taken.count)
            return taken
        }
    }

    private let state = Mutex(State())
    /// The most one batch takes, so that one batch never holds a lock for long.
    let maximum: Int

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// Adds `element`; true when nobody is draining, and the caller must start.
    func add(_ element: Element) -> Bool {
        state.withLock { state in
            state.waiting.append(element)
            defer { state.isDraining = true }
            return !state.isDraining
        }
    }

    /// The next batch, for a drainer that takes one batch at a time: the line is idle again
    /// unless `more` waited, and then the caller must start draining again.
    func take() -> (batch: [Element], more: Bool) {
        state.withLock { state in
            let batch = state.takeOldest(maximum)
            state.isDraining = !state.waiting.isEmpty
            return (batch, state.isDraining)
        }
    }

    /// For the drainer of a batch still open: up to `room` more, oldest first, each that `fits`,
    /// stopping at the first that does not (so none overtakes one waiting before it).
    func takeMore(upTo room: Int, while fits: (Element) -> Bool) -> [Element] {
        state.withLock { state in
            state.takeOldest(state.waiting.prefix(room).prefix(while: fits).count)
        }
    }

    /// The next batch; nil when nothing waits, and then the line is idle again.
    func next() -> [Element]? {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.isDraining = false
                return nil
            }
            return state.takeOldest(maximum)
        }
    }
}
