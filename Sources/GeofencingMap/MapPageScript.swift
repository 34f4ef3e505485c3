/// The page's own script: reads the embedded data (`MapPayload`) and draws it on a Leaflet map (`LeafletLibrary`,
/// inlined before it), with the legend, the scale bar, labels, tooltips and the optional street layer. Kept as one
/// literal (the palette's colours interpolated when the program starts) so the page's policy can name its hash.
///
/// Data from the payload reaches the DOM only through `textContent` and elements: Leaflet puts a tooltip given as
/// a string in as HTML, so every tooltip and label is given as an element (`textBox`), never a string.
/// When the first drawing is done the script sets `body[data-rendered]` to `fences=N track=M events=K` (what
/// `--dump-dom` checks), plus `data-view` ("zoom centreLat centreLon width height"), `data-scale-bar`
/// ("L m W px"), `data-overlays` (the page boxes of the panel, legend, scale bar and attribution, "x0,y0,x1,y1;...",
/// which the screenshot check leaves out when it looks for the map's colours), `data-render-ms` (the script's own
/// time to the first drawing), `data-shapes` ("polygons=P corridors=C vertices=V") and `data-tiles` ("none" or
/// "street"); `data-tiles-loaded` counts the street tiles drawn so far.
/// The address may ask for a view: `map.html#center=-27.4679,153.0281&mpp=0.5` (true metres per pixel along the
/// parallel through the centre).
enum MapPageScript {
    static let source = #"""
"use strict";
(() => {
  const body = document.body, started = performance.now();
  try {
    const data = JSON.parse(document.getElementById("map-data").textContent);
    const tiles = JSON.parse(document.getElementById("map-tiles").textContent);
    const FENCE = "\#(MapPalette.fence.hex)", INSIDE = "\#(MapPalette.trackInside.hex)", OUTSIDE = "\#(MapPalette.trackOutside.hex)";
    // WGS-84, as LocalProjection: plane x = dLon * KE, y = dLat * KN, linear, so inverting is exact.
    const A = 6378137, E2 = 0.006694379990141317, RAD = Math.PI / 180;
    const kNorthAt = lat => { const s = Math.sin(lat * RAD), w = Math.sqrt(1 - E2 * s * s); return A * (1 - E2) / (w * w * w) * RAD; };
    const kEastAt = lat => { const s = Math.sin(lat * RAD); return A * Math.cos(lat * RAD) / Math.sqrt(1 - E2 * s * s) * RAD; };
    const lat0 = data.origin[0], lon0 = data.origin[1], KN = data.kNorth, KE = data.kEast;
    // Longitudes are not wrapped: Leaflet draws 180.2 east of 179.9, so data across the antimeridian stays together.
    const latOf = y => lat0 + y / KN, lonOf = x => lon0 + x / KE;
    const wrap = lon => ((lon + 180) % 360 + 360) % 360 - 180;
    // Web Mercator: 256 * 2^zoom pixels round the world, so a pixel is this many true metres along the parallel
    // at lat (the ellipsoid's; Leaflet's own scale control would measure on a sphere, up to 0.5 % off).
    const metresPerPixel = (lat, zoom) => Math.max(kEastAt(lat), 1) * 360 / (256 * Math.pow(2, zoom));
    const MAX_ZOOM = 22;           // 3.7 cm a pixel at the equator
    const LABEL_LIMIT = 300;       // fence labels only while at most this many fences are in view
    const EVENT_LABEL_LIMIT = 150; // event labels only while at most this many events are in view
    const degrees = v => v.toFixed(7);
    const length = m => m >= 1000 ? +(m / 1000).toFixed(3) + " km" : +m.toFixed(2) + " m";
    const iso = seconds => new Date(seconds * 1000).toISOString().replace(".000Z", "Z");
    const clock = text => text.length >= 19 ? text.slice(11, 19) : text;
    const textBox = (text, className) => {
      const node = document.createElement("div");
      if (className) node.className = className;
      node.textContent = text;
      return node;
    };

    const map = L.map("map", {
      preferCanvas: true, zoomControl: false, attributionControl: false, zoomSnap: 0, zoomDelta: 1,
      wheelPxPerZoomLevel: 120, maxZoom: MAX_ZOOM, zoomAnimation: false, fadeAnimation: false, markerZoomAnimation: false,
    });
    window.geofenceMap = map;  // for the browser's console
    body.dataset.tiles = tiles ? "street" : "none";
    let tilesLoaded = 0;
    if (tiles) {
      L.tileLayer(tiles.url, { maxNativeZoom: 19, maxZoom: MAX_ZOOM, subdomains: "abc" })
        .on("tileload", () => { body.dataset.tilesLoaded = ++tilesLoaded; })
        .addTo(map);
    }

    // A circle true to WGS-84. Leaflet's L.Circle sizes its ellipse on a 6,371 km sphere (0.4 % short north-south
    // at 27 deg S); this one takes the ellipsoid's radii of curvature at the centre, as LocalProjection does.
    // Mercator's scale grows across a circle, so a 50 km fence's north and south halves differ by 0.5 %.
    const TrueCircle = L.Circle.extend({
      _project() {
        const lat = this._latlng.lat, lng = this._latlng.lng, m = this._map;
        const latR = this._mRadius / kNorthAt(lat), lngR = this._mRadius / Math.max(kEastAt(lat), 1);
        const top = m.project([lat + latR, lng]), bottom = m.project([lat - latR, lng]), p = top.add(bottom).divideBy(2);
        this._point = p.subtract(m.getPixelOrigin());
        this._radius = m.project([lat, lng + lngR]).x - m.project([lat, lng]).x;
        this._radiusY = (bottom.y - top.y) / 2;
        this._updateBounds();
      },
    });

    // Fences. Circles true-size; polygons one path of their thinned rings, filled even-odd as the monitor decides
    // inside; corridors the thinned path stroked 2 half-widths wide with round caps and joins (the points within
    // the half-width of the path), its width following the zoom (updateCorridors), and the path dashed.
    const F = data.fences, fenceCount = F.id.length, S = data.shapes;
    const shapeOf = new Array(fenceCount).fill(null);
    for (const shape of S) shapeOf[shape.i] = shape;
    const fenceStyle = { color: FENCE, weight: 2, opacity: 1, fillColor: FENCE, fillOpacity: 0.10 };
    const latLngsOf = flat => { const p = []; for (let j = 0; j + 1 < flat.length; j += 2) p.push([latOf(flat[j + 1]), lonOf(flat[j])]); return p; };
    // Each fence's box in degrees (south, west, north, east), for the labels' "in view".
    const box = new Float64Array(4 * fenceCount);
    const fences = L.layerGroup(), corridors = [];
    let shapeVertices = 0;
    const fenceKind = i => {
      const shape = shapeOf[i];
      if (!shape) return "radius " + length(F.r[i]);
      if (shape.type === "polygon") {
        return "polygon, " + shape.vertices + " vertices" + (shape.rings.length > 1 ? " in " + shape.rings.length + " rings" : "");
      }
      return "corridor, half-width " + length(shape.halfWidth) + ", " + shape.vertices + " vertices";
    };
    // What a fence's tooltip says: its zone rules (the payload's note, plain text) follow the kind.
    const fenceText = i => {
      const shape = shapeOf[i];
      const thinned = shape && shape.drawn < shape.vertices ? " (" + shape.drawn + " drawn, within " + length(shape.tolerance) + ")" : "";
      const note = F.note && F.note[i] ? " \u00b7 " + F.note[i] : "";
      return F.id[i] + " \u00b7 " + fenceKind(i) + thinned + note + " \u00b7 " + (shape ? "centre " : "") +
        degrees(latOf(F.y[i])) + ", " + degrees(wrap(lonOf(F.x[i])));
    };
    for (let i = 0; i < fenceCount; i++) {
      const shape = shapeOf[i];
      let layer;
      if (!shape) {
        const lat = latOf(F.y[i]), lon = lonOf(F.x[i]), dLat = F.r[i] / kNorthAt(lat), dLon = F.r[i] / Math.max(kEastAt(lat), 1);
        box.set([lat - dLat, lon - dLon, lat + dLat, lon + dLon], 4 * i);
        layer = new TrueCircle([lat, lon], Object.assign({ radius: F.r[i] }, fenceStyle));
      } else {
        box.set([latOf(shape.box[1]), lonOf(shape.box[0]), latOf(shape.box[3]), lonOf(shape.box[2])], 4 * i);
        shapeVertices += shape.drawn;
        if (shape.type === "polygon") {
          layer = L.polygon(shape.rings.map(latLngsOf), Object.assign({ fillRule: "evenodd" }, fenceStyle));
        } else {
          const path = latLngsOf(shape.path), lat = latOf((shape.box[1] + shape.box[3]) / 2);
          const band = L.polyline(path, { color: FENCE, opacity: 0.10, weight: 1, lineCap: "round", lineJoin: "round", className: "corridor-band" });
          const centre = L.polyline(path, { color: FENCE, opacity: 1, weight: 1, dashArray: "4 4", interactive: false });
          corridors.push({ band, halfWidth: shape.halfWidth, lat });
          layer = L.featureGroup([band, centre]);
        }
      }
      layer.bindTooltip(() => textBox(fenceText(i)), { sticky: true });
      fences.addLayer(layer);
    }
    fences.addTo(map);
    function updateCorridors() {
      const zoom = map.getZoom();
      for (const c of corridors) c.band.setStyle({ weight: 2 * c.halfWidth / metresPerPixel(c.lat, zoom) });
    }

    // Track: one polyline per run of equal state; a run ends on the fix that starts the next one, so the line
    // is unbroken and the leg between two fixes has the colour of the state at the first.
    const T = data.track, fixCount = T.x.length;
    const fixTime = i => (T.t0 === null || T.t[i] === null) ? null : iso(T.t0 + T.t[i]);
    const track = L.layerGroup();
    for (let start = 0, i = 1; i <= fixCount && fixCount > 0; i++) {
      if (i < fixCount && T.inside[i] === T.inside[start]) continue;
      const end = Math.min(i, fixCount - 1), points = [];
      for (let j = start; j <= end; j++) points.push([latOf(T.y[j]), lonOf(T.x[j])]);
      if (points.length === 1) points.push(points[0]);
      const inside = T.inside[start] === "1", from = fixTime(start), to = fixTime(end);
      const text = "track " + (inside ? "inside a fence" : "outside all fences") + (from ? " \u00b7 " + from + " \u2192 " + to : "");
      L.polyline(points, { color: inside ? INSIDE : OUTSIDE, weight: 3, opacity: 1, lineCap: "round", lineJoin: "round" })
        .bindTooltip(() => textBox(text), { sticky: true }).addTo(track);
      start = i;
    }
    track.addTo(map);

    // Events: a marker of the kind's shape (the legend's), its label beside it, and the tooltip.
    const E = data.events;
    const SHAPES = {
      enter: "M0,-7L6,4H-6Z", exit: "M0,7L6,-4H-6Z", dwell: "M-5,-5H5V5H-5Z",
      approach: "M0,-7L6,0L0,7L-6,0Z", state: "M-5,0A5,5 0 1,0 5,0A5,5 0 1,0 -5,0Z",
      overspeed: "M-6,-3L0,-7L6,-3L6,3L0,7L-6,3Z", overspeed_end: "M-6,-2H6V2H-6Z",
    };
    const kindOf = type => Object.prototype.hasOwnProperty.call(SHAPES, type) ? type : "state";
    // What an event's tooltip says: the one place to add a field of the event.
    const eventText = e => e.type + " " + e.region + " at " + e.time +
      (e.crossed ? " (crossed at " + e.crossed + ")" : "") + " \u00b7 seq " + e.seq +
      (e.d === null ? "" : " \u00b7 " + e.d + " m from the boundary") + " \u00b7 " + e.state + (e.inferred ? " (inferred)" : "");
    const NS = "http://www.w3.org/2000/svg";
    const eventLatLng = E.map(e => L.latLng(latOf(e.y), lonOf(e.x)));
    const events = L.layerGroup();
    E.forEach((e, n) => {
      const kind = kindOf(e.type), icon = document.createElement("div");
      const svg = icon.appendChild(document.createElementNS(NS, "svg"));
      for (const [key, value] of [["width", 14], ["height", 14], ["viewBox", "-7 -7 14 14"]]) svg.setAttribute(key, value);
      svg.appendChild(document.createElementNS(NS, "path")).setAttribute("d", SHAPES[kind]);
      icon.appendChild(textBox(kind + " " + clock(e.time), "event-label"));
      L.marker(eventLatLng[n], {
        icon: L.divIcon({ className: "event event-" + kind, html: icon, iconSize: [14, 14], iconAnchor: [7, 7] }),
        keyboard: false,
      }).bindTooltip(() => textBox(eventText(e)), { direction: "top", offset: [0, -6] }).addTo(events);
    });
    events.addTo(map);

    // Fence labels above their fences while at most LABEL_LIMIT are in view, none overlapping another (boxes
    // estimated from the 11 px font: 6.5 px a character); hovering a fence still names it.
    const labels = L.layerGroup().addTo(map);
    const mapElement = map.getContainer();
    function updateLabels() {
      labels.clearLayers();
      const view = map.getBounds().pad(0.05), s = view.getSouth(), w = view.getWest(), n = view.getNorth(), e = view.getEast();
      const visible = [];
      for (let i = 0; i < fenceCount && visible.length <= LABEL_LIMIT; i++) {
        if (box[4 * i + 2] >= s && box[4 * i] <= n && box[4 * i + 3] >= w && box[4 * i + 1] <= e) visible.push(i);
      }
      const placed = [];
      let labelled = 0;
      for (const i of visible.length <= LABEL_LIMIT ? visible : []) {
        const top = L.latLng(box[4 * i + 2], (box[4 * i + 1] + box[4 * i + 3]) / 2), at = map.latLngToContainerPoint(top);
        const half = 3.25 * F.id[i].length + 2, b = [at.x - half, at.y - 15, at.x + half, at.y - 2];
        if (placed.some(o => b[0] < o[2] && o[0] < b[2] && b[1] < o[3] && o[1] < b[3])) continue;
        placed.push(b);
        labelled++;
        L.marker(top, {
          icon: L.divIcon({ className: "fence-label", html: textBox(F.id[i]), iconSize: [0, 0] }), interactive: false, keyboard: false,
        }).addTo(labels);
      }
      let markers = 0;
      for (const at of eventLatLng) if (view.contains(at)) markers++;
      mapElement.classList.toggle("no-event-labels", markers > EVENT_LABEL_LIMIT);
      body.dataset.labels = labelled;
      body.dataset.markers = markers;
    }

    // The scale bar: true metres along the parallel through the view's centre; the longest 1, 2 or 5 times a
    // power of ten that fits in 120 px.
    const scaleBar = document.getElementById("scale-bar"), scaleLabel = document.getElementById("scale-label");
    function updateScale() {
      const centre = map.getCenter(), zoom = map.getZoom(), size = map.getSize();
      const perPixel = metresPerPixel(Math.max(-89, Math.min(89, centre.lat)), zoom), longest = 120 * perPixel;
      const decade = Math.pow(10, Math.floor(Math.log10(longest)));
      const metres = [5, 2, 1].map(k => k * decade).find(v => v <= longest) || decade;
      const pixels = metres / perPixel;
      scaleBar.style.width = pixels.toFixed(1) + "px";
      scaleLabel.textContent = length(metres);
      body.dataset.scaleBar = metres + " m " + pixels.toFixed(3) + " px";
      body.dataset.view = [zoom, centre.lat, centre.lng, size.x, size.y].join(" ");
    }
    map.on("zoomend", updateCorridors);
    map.on("move zoomend", updateScale);
    map.on("moveend zoomend", updateLabels);

    const b = data.bounds;
    const everything = L.latLngBounds([latOf(b[1]), lonOf(b[0])], [latOf(b[3]), lonOf(b[2])]);
    const fit = () => map.fitBounds(everything, { padding: [40, 40], maxZoom: MAX_ZOOM });
    fit();
    updateCorridors();
    // A view asked for in the address, "#center=LAT,LON&mpp=METRES_PER_PIXEL" (mpp optional): numbers only.
    const wanted = /^#center=(-?[0-9.]+),(-?[0-9.]+)(?:&mpp=([0-9.]+))?$/.exec(location.hash);
    if (wanted && isFinite(+wanted[1]) && Math.abs(+wanted[1]) <= 85 && isFinite(+wanted[2]) && (!wanted[3] || +wanted[3] > 0)) {
      const lat = +wanted[1], lon = lon0 + wrap(+wanted[2] - lon0);
      const zoom = wanted[3] ? Math.log2(metresPerPixel(lat, 0) / +wanted[3]) : map.getZoom();
      map.setView([lat, lon], Math.max(map.getMinZoom(), Math.min(MAX_ZOOM, zoom)));
    }

    document.getElementById("zoom-in").addEventListener("click", () => map.zoomIn(1));
    document.getElementById("zoom-out").addEventListener("click", () => map.zoomOut(1));
    document.getElementById("fit").addEventListener("click", fit);
    // Leaflet's keyboard handler has +, - and the arrows while the map has the focus; these work anywhere.
    addEventListener("keydown", e => {
      if (e.key === "0") fit();
      else if (mapElement.contains(document.activeElement)) return;
      else if (e.key === "+" || e.key === "=") map.zoomIn(1);
      else if (e.key === "-") map.zoomOut(1);
    });
    const cursor = document.getElementById("cursor");
    map.on("mousemove", e => { cursor.textContent = degrees(e.latlng.lat) + ", " + degrees(wrap(e.latlng.lng)); });

    body.dataset.trackDrawn = fixCount;
    body.dataset.overlays = ["panel", "legend", "scale", "attribution"].map(id => {
      const r = document.getElementById(id).getBoundingClientRect();
      return [Math.floor(r.left), Math.floor(r.top), Math.ceil(r.right), Math.ceil(r.bottom)].join(",");
    }).join(";");
    body.dataset.shapes = "polygons=" + S.filter(x => x.type === "polygon").length + " corridors=" + corridors.length +
      " vertices=" + shapeVertices;
    body.dataset.renderMs = Math.round(performance.now() - started);
    body.dataset.rendered = "fences=" + fenceCount + " track=" + T.total + " events=" + E.length;
  } catch (error) {
    body.dataset.renderError = String(error && error.message || error);
    document.getElementById("status").textContent = "The map could not be drawn: " + body.dataset.renderError;
  }
})();
"""#
}
