import Foundation
import GeofencingEvents

/// The page around the data: markup, style, legend, Leaflet inlined, and the policy. Everything is inline. The
/// Content-Security-Policy forbids every fetch (`default-src 'none'`) except, with a street layer, images from the
/// tile server's one host; only the two scripts the page carries (Leaflet and the page's own, named by their
/// SHA-256) may run, so an injected `<script>` or `onerror=` could not, even if an escape were missed.
enum MapPageTemplate {
    /// The page. `title`, `summary` and the tiles' attribution are raw data: escaped here for text and attributes.
    static func page(title: String, summary: String, payloadJSON: String, tiles: MapTiles?) -> String {
        let titleText = MapEscaping.htmlText(title)
        var tilesJSON = "null"
        if let tiles { tilesJSON = "{\"url\":" + MapEscaping.scriptJSONString(tiles.template) + "}" }
        let attribution = "Leaflet" + (tiles.map { " | " + $0.attribution } ?? "")
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy(tiles: tiles))">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(titleText)</title>
            <style>
            \(LeafletLibrary.style)
            </style>
            <style>
            \(style)
            </style>
            </head>
            <body>
            <div id="map" role="img" aria-label="\(MapEscaping.htmlAttribute("Map: " + title))"></div>
            <div id="panel">
            <h1>\(titleText)</h1>
            <div id="summary">\(MapEscaping.htmlText(summary))</div>
            <div id="controls"><button id="zoom-in" type="button" title="Zoom in (+, wheel, double-click)">+</button>\
            <button id="zoom-out" type="button" title="Zoom out (-, wheel)">&minus;</button>\
            <button id="fit" type="button" title="Show everything (0)">Fit all</button></div>
            <div id="cursor">drag to pan, wheel to zoom</div>
            <div id="status"></div>
            <noscript>The map is drawn by the page's script: allow JavaScript for this file to see it.</noscript>
            </div>
            \(legend)
            <div id="scale"><div id="scale-bar"></div><span id="scale-label"></span></div>
            <div id="attribution">\(MapEscaping.htmlText(attribution))</div>
            <script type="application/json" id="map-data">\(payloadJSON)</script>
            <script type="application/json" id="map-tiles">\(tilesJSON)</script>
            <script>\(leafletElementText)</script>
            <script>\(scriptElementText)</script>
            </body>
            </html>

            """
    }

    /// Leaflet's script element: its BSD-2-clause notice as a comment, then leaflet.min.js unchanged.
    static let leafletElementText = "/*!\n" + LeafletLibrary.notice + "\n*/\n" + LeafletLibrary.script + "\n"
    /// The text of the page's own script element, exactly as the policy's hash covers it.
    static let scriptElementText = "\n" + MapPageScript.source + "\n"

    private static let scriptSources: String = [leafletElementText, scriptElementText].map { text in
        "'sha256-" + Data(SHA256.digest(Array(text.utf8))).base64EncodedString() + "'"
    }.joined(separator: " ")

    /// No fetch of any kind but images: `data:` ones (Leaflet's blank tile) and, with a street layer, the tile
    /// host's; inline style is allowed (no script in it).
    /// The policy goes into its attribute as it is: hashes are base64 and the tile source is a checked scheme,
    /// host and port (`MapTiles`), so it holds no quote, `&` or `<`.
    static func contentSecurityPolicy(tiles: MapTiles?) -> String {
        "default-src 'none'; script-src \(scriptSources); style-src 'unsafe-inline'; img-src data:"
            + (tiles.map { " " + $0.source } ?? "")
    }

    private static var style: String {
        let fence = MapPalette.fence
        var css = """
            html, body { margin: 0; height: 100%; overflow: hidden; background: \(MapPalette.background.hex);
              font: 13px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #222; }
            #map { position: fixed; inset: 0; width: 100%; height: 100%; }
            #map.leaflet-container { background: \(MapPalette.background.hex); font: inherit; }
            .fence-label div { position: absolute; bottom: 4px; transform: translateX(-50%); white-space: nowrap;
              font-size: 11px; color: #123a73; text-shadow: 0 0 3px #fff, 0 0 3px #fff, 0 0 2px #fff; pointer-events: none; }
            .event svg { display: block; overflow: visible; }
            .event path { stroke: #fff; stroke-width: 1.2px; }
            .event-label { position: absolute; left: 16px; top: 0; white-space: nowrap; font-size: 10px; color: #222;
              text-shadow: 0 0 3px #fff, 0 0 3px #fff, 0 0 2px #fff; pointer-events: none; }
            #map.no-event-labels .event-label { display: none; }
            .leaflet-tooltip { font: 12px/1.3 system-ui, "DejaVu Sans", sans-serif; }
            #panel, #legend, #scale, #attribution { position: fixed; z-index: 1100; background: rgba(255,255,255,0.92);
              border: 1px solid #ccc; border-radius: 4px; padding: 6px 8px; box-shadow: 0 1px 3px rgba(0,0,0,0.15); }
            #panel { top: 8px; left: 8px; max-width: 42%; }
            #panel h1 { font-size: 15px; margin: 0 0 2px; overflow-wrap: anywhere; }
            #controls { margin: 4px 0; }
            #controls button { font: inherit; min-width: 28px; margin-right: 4px; padding: 1px 6px; cursor: pointer; }
            #cursor { font-family: "DejaVu Sans Mono", monospace; font-size: 12px; color: #555; }
            #status { color: #b00; }
            #legend { top: 8px; right: 8px; }
            #legend .row { display: flex; align-items: center; gap: 6px; white-space: nowrap; }
            #legend svg { flex: none; }
            #legend .heading { font-weight: 600; margin-top: 2px; }
            #scale { bottom: 12px; left: 8px; padding: 4px 8px; }
            #scale-bar { height: 6px; border: 2px solid #222; border-top: none; margin-bottom: 2px; width: 100px; }
            #scale-label { font-size: 12px; }
            #attribution { bottom: 0; right: 0; border-radius: 4px 0 0 0; padding: 1px 6px; font-size: 11px; color: #333; }
            .swatch-fence { fill: rgba(\(fence.red),\(fence.green),\(fence.blue),0.10); stroke: \(fence.hex); stroke-width: 2px; }
            .swatch-band { fill: none; stroke-linecap: round; stroke-linejoin: round; stroke: \(MapPalette.fenceTint.hex);
              stroke-width: 8px; }
            .swatch-path { fill: none; stroke: \(fence.hex); stroke-width: 1px; stroke-dasharray: 3 2; }
            .swatch-out { stroke: \(MapPalette.trackOutside.hex); stroke-width: 3px; }
            .swatch-in { stroke: \(MapPalette.trackInside.hex); stroke-width: 3px; }

            """
        for kind in EventRecord.Kind.allCases {
            css += ".event-\(kind.rawValue) path { fill: \(MapPalette.event(kind).hex); }\n"
        }
        return css
    }

    /// Marker shapes, the same as the script's (a 14 px box around the origin).
    static let markerShapes: [EventRecord.Kind: String] = [
        .enter: "M0,-7L6,4H-6Z", .exit: "M0,7L6,-4H-6Z", .dwell: "M-5,-5H5V5H-5Z",
        .approach: "M0,-7L6,0L0,7L-6,0Z", .state: "M-5,0A5,5 0 1,0 5,0A5,5 0 1,0 -5,0Z",
        .overspeed: "M-6,-3L0,-7L6,-3L6,3L0,7L-6,3Z", .overspeedEnd: "M-6,-2H6V2H-6Z",
    ]

    private static var legend: String {
        var rows = """
            <div id="legend">
            <div class="row"><svg width="28" height="16"><circle cx="14" cy="8" r="6" class="swatch-fence"/></svg>\
            fence, true size (names when &le; 300 in view)</div>
            <div class="row"><svg width="28" height="16"><path d="M3,13L8,2L25,4L20,14L13,9Z" class="swatch-fence"/>\
            </svg>polygon (outline thinned for drawing)</div>
            <div class="row"><svg width="28" height="16"><polyline points="6,11 14,6 22,9" class="swatch-band"/>\
            <polyline points="6,11 14,6 22,9" class="swatch-path"/></svg>corridor: path and half-width</div>
            <div class="row"><svg width="28" height="16"><line x1="3" y1="8" x2="25" y2="8" class="swatch-out"/></svg>\
            track outside every fence</div>
            <div class="row"><svg width="28" height="16"><line x1="3" y1="8" x2="25" y2="8" class="swatch-in"/></svg>\
            track inside a fence</div>
            <div class="heading">events (hover for details)</div>

            """
        let descriptions: [EventRecord.Kind: String] = [
            .enter: "enter", .exit: "exit", .dwell: "dwell", .approach: "approach", .state: "state determined",
            .overspeed: "over the speed limit", .overspeedEnd: "overspeed ended",
        ]
        for kind in EventRecord.Kind.allCases {
            rows += "<div class=\"row\"><svg width=\"28\" height=\"16\"><g class=\"event event-\(kind.rawValue)\" "
                + "transform=\"translate(14 8)\"><path d=\"\(markerShapes[kind]!)\"/></g></svg>"
                + "\(descriptions[kind]!)</div>\n"
        }
        return rows + "</div>"
    }
}
