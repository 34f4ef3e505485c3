import Foundation

/// Leaflet's script, style and licence notice as the page inlines them. They come from Debian's libjs-leaflet at
/// build time (`LeafletBundle`, written by Plugins/LeafletEmbedding), so writing a map needs no file at run time.
enum LeafletLibrary {
    /// Leaflet's own version string (`L.version`).
    static let version = LeafletBundle.version
    /// leaflet.min.js, unchanged.
    static let script = decoded(LeafletBundle.scriptBase64)
    /// leaflet.css, its `url(images/...)` references replaced by `none` (the map uses no image of Leaflet's).
    static let style = decoded(LeafletBundle.styleBase64)
    /// The BSD-2-clause notice with Leaflet's copyright holders: the licence asks for it in every copy.
    static let notice = decoded(LeafletBundle.noticeBase64)

    private static func decoded(_ base64: String) -> String {
        // The generator wrote valid base64 of UTF-8 text; anything else is a broken build, not bad input.
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else {
            preconditionFailure("LeafletBundle holds text that is not base64 of UTF-8: rebuild the package")
        }
        return text
    }
}
