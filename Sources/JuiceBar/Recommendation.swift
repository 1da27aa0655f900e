extension Menu {
    /// A member's most-ordered juice that the stock can make now; of equally loved ones, the one
    /// ordered most recently. `orders` are newest first.
    public func recommendation(fromOrders orders: [JuiceID], stock: Stock) -> Juice? {
        var counts: [JuiceID: Int] = [:]
        var newest: [JuiceID: Int] = [:]
        for (index, juice) in orders.enumerated() {
            counts[juice, default: 0] += 1
            if newest[juice] == nil { newest[juice] = index }
        }
        return juices
            .filter { counts[$0.id] != nil && stock.makeableCount(of: $0) > 0 }
            .max { (counts[$0.id]!, -newest[$0.id]!) < (counts[$1.id]!, -newest[$1.id]!) }
    }
}
