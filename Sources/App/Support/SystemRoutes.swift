import Foundation
import Hummingbird
import Prometheus

/// Health, metrics and the API's own description.
struct SystemRoutes {
    let prometheus: PrometheusCollectorRegistry?
    /// `openapi.yaml`, read once.
    let openAPI: Data
    let refusals: WriteRefusals

    init(prometheus: PrometheusCollectorRegistry?, publicFolder: URL, refusals: WriteRefusals) {
        self.prometheus = prometheus
        self.refusals = refusals
        openAPI = (try? Data(contentsOf: publicFolder.appendingPathComponent("openapi.yaml"))) ?? Data()
    }

    func addRoutes(to root: RouterGroup<ShopRequestContext>) {
        root.get("health", use: health)
        root.get("metrics", use: metrics)
        root.get("openapi.yaml", use: apiDescription)
    }

    /// 200 `{"status": "ok"}` while the shop takes writes. While it refuses them (a full disk, its
    /// database away) 503 `{"status": "refusing_writes", "cause": "storage_full", "since": …,
    /// "message": …}`, so a proxy or a monitor that only reads the status sees it; pages and
    /// reads are served all the same (docs/operations.md, "Faults").
    @Sendable func health(_ request: Request, context: ShopRequestContext) async throws -> Response {
        guard let refusing = refusals.current else { return Response.json(["status": "ok"]) }
        let message = Words.of(context.language).say(Message(WriteRefusals.messageKey(for: refusing.cause)))
        return Response.json(Health(status: "refusing_writes", cause: refusing.cause, since: refusing.since, message: message),
                             status: .serviceUnavailable)
    }

    private struct Health: Encodable {
        let status: String
        let cause: String
        let since: Date
        let message: String
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
