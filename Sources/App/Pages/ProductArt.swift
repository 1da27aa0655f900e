import VendingMachine

/// Our own drawings of the products, as inline SVG: a carton for milk, a can for soda and coffee.
enum ProductArt {
    static let colors: [ProductID: (body: String, accent: String)] = [
        "strawberryMilk": ("#ffd1dc", "#e8456b"), "chocolateMilk": ("#e9d3c0", "#6b3e26"),
        "bananaMilk": ("#fff1a8", "#e0b100"), "cola": ("#d7262e", "#ffffff"), "cider": ("#2f9e54", "#ffffff"),
        "fanta": ("#ff8c1a", "#1d4fa3"), "top": ("#1b1b1b", "#c8a24a"), "cantata": ("#6b3a1f", "#f3d9a4"),
        "georgia": ("#1f3c88", "#e8e1d0"),
    ]

    static func svg(for product: Product) -> String {
        let (body, accent) = colors[product.id] ?? ("#cccccc", "#555555")
        let label = escapeHTML(product.name.ko)
        switch product.category {
        case .milk:
            return """
                <svg viewBox="0 0 80 100" role="img" aria-label="\(label)" class="art">
                <path d="M20 30 L40 12 L60 30 V92 H20 Z" fill="\(body)" stroke="\(accent)" stroke-width="2"/>
                <path d="M20 30 H60" stroke="\(accent)" stroke-width="2"/>
                <rect x="26" y="48" width="28" height="26" rx="4" fill="\(accent)"/>
                <text x="40" y="66" font-size="10" text-anchor="middle" fill="#fff">MILK</text>
                </svg>
                """
        case .soda, .coffee:
            return """
                <svg viewBox="0 0 80 100" role="img" aria-label="\(label)" class="art">
                <rect x="22" y="12" width="36" height="80" rx="8" fill="\(body)" stroke="#888" stroke-width="1.5"/>
                <rect x="26" y="8" width="28" height="6" rx="2" fill="#b5b5b5"/>
                <rect x="22" y="40" width="36" height="22" fill="\(accent)" opacity="0.9"/>
                <text x="40" y="55" font-size="9" text-anchor="middle" fill="\(body)">\(label)</text>
                </svg>
                """
        }
    }
}
