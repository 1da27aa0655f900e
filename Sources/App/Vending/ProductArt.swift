import VendingMachine

/// Our own drawing of a product (`product-art.mustache`, inline SVG): a carton for milk, a can
/// for soda and coffee.
struct ProductArt {
    static let colors: [ProductID: (body: String, accent: String)] = [
        "strawberryMilk": ("#ffd1dc", "#e8456b"), "chocolateMilk": ("#e9d3c0", "#6b3e26"),
        "bananaMilk": ("#fff1a8", "#e0b100"), "cola": ("#d7262e", "#ffffff"), "cider": ("#2f9e54", "#ffffff"),
        "fanta": ("#ff8c1a", "#1d4fa3"), "top": ("#1b1b1b", "#c8a24a"), "cantata": ("#6b3a1f", "#f3d9a4"),
        "georgia": ("#1f3c88", "#e8e1d0"),
    ]

    let label: String
    let body: String
    let accent: String
    let isCarton: Bool

    init(_ product: Product) {
        (body, accent) = Self.colors[product.id] ?? ("#cccccc", "#555555")
        label = product.name.ko
        if case .milk = product.category { isCarton = true } else { isCarton = false }
    }
}
