import GestureControl

/// What the bridge serves from memory: the live view (`/`), the JavaScript module for
/// kiosk pages, the example page, and the config's picture (from the executable, which
/// reads the config).
public struct WebPages: Sendable {
    public static let modulePath = "/gestured-web.js"

    /// The config's picture (`gesturectl render --live`), made per request from the
    /// daemon's status (nil when the daemon did not answer) so that it shows the views and
    /// gestures as the daemon has them now.
    public let picture: @Sendable (JSONValue?) -> HTTPResponse

    public init(picture: @escaping @Sendable (JSONValue?) -> HTTPResponse) { self.picture = picture }

    var module: HTTPResponse { HTTPResponse(.ok, contentType: "text/javascript; charset=utf-8", body: Array(WebAssets.module.utf8)) }
    var example: HTTPResponse { HTTPResponse(.ok, contentType: "text/html; charset=utf-8", body: Array(WebAssets.example.utf8)) }
    var liveView: HTTPResponse { HTTPResponse(.ok, contentType: "text/html; charset=utf-8", body: Array(WebAssets.liveView.utf8)) }
}
