import Foundation
import GeofencingEvents

/// The page around the data: markup, style and legend. Everything is inline; the Content-Security-Policy forbids
/// every fetch (`default-src 'none'`), so even a bug could not make the page reach the network, and lets only the
/// page's own script run.
enum MapPageTemplate {
    /// The page. `title` is raw data: it is escaped here for text and for the attribute it appears in.
    static func page(title: String, summary: String, payloadJSON: String) -> String {
        let titleText = MapEscaping.htmlText(title)
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(titleText)</title>
            <style>
            \(style)
            </style>
            </head>
            <body>
            <svg id="map" xmlns="http://www.w3.org/2000/svg" role="img" aria-label="\(MapEscaping.htmlAttribute("Map: " + title))">
            <g id="world"><g id="fences"></g><g id="track"></g></g>
            <g id="overlay"></g>
            </svg>
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
            <script type="application/json" id="map-data">\(payloadJSON)</script>
            <script>\(scriptElementText)</script>
            </body>
            </html>

            """
    }

    /// The text of the page's one executable script element, exactly as the policy's hash covers it.
    static let scriptElementText = "\n" + MapPageScript.source + "\n"

    /// No fetch of any kind (`default-src 'none'`); only the page's own script, named by its SHA-256, may run, so
    /// neither an injected `<script>` nor an `onerror=` attribute could; inline style is allowed (no script in it).
    static let contentSecurityPolicy: String = {
        let hash = Data(SHA256.digest(Array(scriptElementText.utf8))).base64EncodedString()
        return "default-src 'none'; script-src 'sha256-\(hash)'; style-src 'unsafe-inline'"
    }()

    private static var style: String {
        let fence = MapPalette.fence
        var css = """
            html, body { margin: 0; height: 100%; overflow: hidden; background: \(MapPalette.background.hex);
              font: 13px/1.35 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #222; }
            #map { position: fixed; inset: 0; width: 100%; height: 100%; cursor: grab; touch-action: none; }
            #map.dragging { cursor: grabbing; }
            .fence { fill: rgba(\(fence.red),\(fence.green),\(fence.blue),0.10); stroke: \(fence.hex);
              stroke-width: 2px; vector-effect: non-scaling-stroke; }
            .fence:hover { fill: rgba(\(fence.red),\(fence.green),\(fence.blue),0.30); }
            .corridor-band, .corridor-edge, .corridor-cut { fill: none; stroke-linecap: round; stroke-linejoin: round; }
            .corridor-band { stroke: rgba(\(fence.red),\(fence.green),\(fence.blue),0.10); }
            .corridor:hover .corridor-band { stroke: rgba(\(fence.red),\(fence.green),\(fence.blue),0.30); }
            .corridor-edge { stroke: \(fence.hex); }
            .corridor-cut { stroke: #000; }
            .corridor-path { fill: none; stroke: \(fence.hex); stroke-width: 1px; stroke-dasharray: 4 4;
              vector-effect: non-scaling-stroke; }
            .track-out, .track-in { fill: none; stroke-width: 3px; stroke-linejoin: round; stroke-linecap: round;
              vector-effect: non-scaling-stroke; }
            .track-out { stroke: \(MapPalette.trackOutside.hex); }
            .track-in { stroke: \(MapPalette.trackInside.hex); }
            .fence-label { font-size: 11px; text-anchor: middle; fill: #123a73; stroke: #fff; stroke-width: 3px;
              paint-order: stroke; stroke-linejoin: round; }
            .event path { stroke: #fff; stroke-width: 1.2px; }
            .event-label { font-size: 10px; fill: #222; stroke: #fff; stroke-width: 3px; paint-order: stroke;
              stroke-linejoin: round; }
            #panel, #legend, #scale { position: fixed; background: rgba(255,255,255,0.92); border: 1px solid #ccc;
              border-radius: 4px; padding: 6px 8px; box-shadow: 0 1px 3px rgba(0,0,0,0.15); }
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
            .swatch-fence { fill: rgba(\(fence.red),\(fence.green),\(fence.blue),0.10); stroke: \(fence.hex); stroke-width: 2px; }
            .swatch-band-edge, .swatch-band { fill: none; stroke-linecap: round; stroke-linejoin: round; }
            .swatch-band-edge { stroke: \(fence.hex); stroke-width: 10px; }
            .swatch-band { stroke: \(MapPalette.fenceTint.hex); stroke-width: 6px; }
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
            <div class="row"><svg width="28" height="16"><polyline points="6,11 14,6 22,9" class="swatch-band-edge"/>\
            <polyline points="6,11 14,6 22,9" class="swatch-band"/></svg>corridor: path and half-width</div>
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
