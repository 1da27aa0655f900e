import Foundation
import Hummingbird
import Prometheus

/// Health, metrics and the API's own description.
struct SystemRoutes {
    let prometheus: PrometheusCollectorRegistry?
    /// `openapi.yaml`, read once.
    let openAPI: Data

    init(prometheus: PrometheusCollectorRegistry?, publicFolder: URL) {
        self.prometheus = prometheus
        openAPI = (try? Data(contentsOf: publicFolder.appendingPathComponent("openapi.yaml"))) ?? Data()
    }

    func addRoutes(to root: RouterGroup<ShopRequestContext>) {
        root.get("health", use: health)
        root.get("metrics", use: metrics)
        root.get("openapi.yaml", use: apiDescription)
    }

    @Sendable func health(_ request: Request, context: ShopRequestContext) async throws -> Response {
        Response.json(["status": "ok"])
    }

    @Sendable func metrics(_ request: Request, context: ShopRequestContext) async throws -> Response {
        var text: [UInt8] = []
        prometheus?.emit(into: &text)
        return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
                        body: .init(byteBuffer: ByteBuffer(bytes: text)))
    }

    @Sendable func apiDescription(_ request: Request, context: ShopRequestContext) async throws -> Response {
        Response(status: .ok, headers: [.contentType: "application/yaml"], body: .init(byteBuffer: ByteBuffer(bytes: openAPI)))
    }
}
