import Foundation
import Hummingbird
import Prometheus

/// Health, metrics and the API's own description.
struct SystemRoutes {
    let prometheus: PrometheusCollectorRegistry?
    let publicFolder: URL

    func addRoutes(to router: Router<ShopRequestContext>) {
        router.get("health") { _, _ in Response.json(["status": "ok"]) }
        router.get("metrics") { _, _ in
            var text: [UInt8] = []
            prometheus?.emit(into: &text)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                            body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
        let openAPI = (try? Data(contentsOf: publicFolder.appendingPathComponent("openapi.yaml"))) ?? Data()
        router.get("openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml"],
                     body: .init(byteBuffer: ByteBuffer(bytes: openAPI)))
        }
    }
}
