internal import CoreMetrics
internal import Metrics
internal import Prometheus
internal import Synchronization

/// The server's metrics, through swift-metrics into one Prometheus registry that `/metrics` writes.
final class ServerMetrics: Sendable {
    let registry: PrometheusCollectorRegistry
    private let translationTimer: CoreMetrics.Timer
    private let scriptFailures: CoreMetrics.Counter
    private let reloadsSucceeded: CoreMetrics.Counter
    private let reloadsFailed: CoreMetrics.Counter
    private let lastReloadFailed: CoreMetrics.Gauge
    private let scriptsInForceGauge: CoreMetrics.Gauge
    private let customScriptsInForceGauge: CoreMetrics.Gauge
    /// The request counter of each route and status seen: making one through swift-metrics looks
    /// it up in the registry by its labels, about 5,000 instructions a request (callgrind).
    private let answeredCounters = Mutex<[AnsweredKey: CoreMetrics.Counter]>([:])

    private struct AnsweredKey: Hashable {
        let route: String
        let status: Int
    }

    /// Bootstraps swift-metrics with a Prometheus factory; call once per process.
    static func bootstrap() -> ServerMetrics {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        // A translation takes tens of microseconds; the buckets reach down there.
        factory.defaultDurationHistogramBuckets = [
            .microseconds(10), .microseconds(25), .microseconds(50), .microseconds(100), .microseconds(250),
            .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10),
            .milliseconds(50), .milliseconds(100), .milliseconds(500), .seconds(1),
        ]
        MetricsSystem.bootstrap(factory)
        return ServerMetrics(registry: registry)
    }

    private init(registry: PrometheusCollectorRegistry) {
        self.registry = registry
        translationTimer = CoreMetrics.Timer(label: "pushmap_translation_duration_seconds")
        scriptFailures = CoreMetrics.Counter(label: "pushmap_script_failures_total")
        reloadsSucceeded = CoreMetrics.Counter(label: "pushmap_script_reloads_total", dimensions: [("result", "ok")])
        reloadsFailed = CoreMetrics.Counter(label: "pushmap_script_reloads_total", dimensions: [("result", "failed")])
        lastReloadFailed = CoreMetrics.Gauge(label: "pushmap_script_reload_failing")
        scriptsInForceGauge = CoreMetrics.Gauge(label: "pushmap_scripts_in_force")
        customScriptsInForceGauge = CoreMetrics.Gauge(label: "pushmap_custom_scripts_in_force")
        // Present from the start, so a dashboard sees zeros rather than nothing.
        scriptFailures.increment(by: 0)
        reloadsSucceeded.increment(by: 0)
        reloadsFailed.increment(by: 0)
        lastReloadFailed.record(0)
        startCampaignCounters()
    }

    /// One answered request, by route (the route's template, `unmatched` for any other path) and status.
    func requestAnswered(route: String, status: Int) {
        let key = AnsweredKey(route: route, status: status)
        let counter = answeredCounters.withLock { counters in
            if let counter = counters[key] { return counter }
            // Routes are the document's paths or `unmatched`, and statuses the few the server gives.
            let counter = CoreMetrics.Counter(label: "pushmap_http_requests_total", dimensions: [("route", route), ("status", String(status))])
            counters[key] = counter
            return counter
        }
        counter.increment()
    }

    /// How long translations took (intent bytes to payload bytes): `count` of them, made together
    /// since `started` (a streamed chunk's lines); the histogram counts translations one by one,
    /// so each is given their mean.
    func translated(_ count: Int, since started: ContinuousClock.Instant) {
        let each = (ContinuousClock.now - started).nanoseconds / Int64(Swift.max(1, count))
        for _ in 0..<count { translationTimer.recordNanoseconds(each) }
    }

    /// A mapping script failed on an intent.
    func scriptFailed() { scriptFailures.increment() }

    /// New scripts took effect: `templates` in force, `custom` of them from the script folders.
    func reloaded(templates: Int, custom: Int) {
        reloadsSucceeded.increment()
        lastReloadFailed.record(0)
        scriptsInForce(templates: templates, custom: custom)
    }

    /// The folders a failed reload could not read are back as they were, with the scripts in force.
    func reloadFailureCleared() {
        lastReloadFailed.record(0)
    }

    /// A reload failed; the scripts before it stay in force.
    func reloadFailed() {
        reloadsFailed.increment()
        lastReloadFailed.record(1)
    }

    /// The scripts in force.
    func scriptsInForce(templates: Int, custom: Int) {
        scriptsInForceGauge.record(templates)
        customScriptsInForceGauge.record(custom)
    }

    /// The Prometheus text exposition.
    func exposition() -> [UInt8] { registry.emitToBuffer() }
}
