/// The page's script: reads the embedded data (`MapPayload`), draws it into the SVG, and handles pan, zoom, the
/// scale bar and the labels. Kept as one literal so the page stays one self-contained file.
///
/// Data from the payload reaches the DOM only through `textContent` and `setAttribute` (never `innerHTML`), so an
/// identifier is always text. When the first drawing is done the script sets `body[data-rendered]` to
/// `fences=N track=M events=K` (what `--dump-dom` checks), plus `data-view` (scale px per plane metre, translation,
/// viewport), `data-scale-bar` ("L m W px") and `data-overlays` (the page boxes of the panel, legend and scale bar,
/// "x0,y0,x1,y1;...", which the screenshot check leaves out when it looks for the map's colours) and
/// `data-render-ms` (the script's own time to the first drawing; layout and painting come after) and `data-shapes`
/// ("polygons=P corridors=C vertices=V", the outlines drawn and their vertices).
/// The address may ask for a view: `map.html#center=-27.4679,153.0281&mpp=0.5` (plane metres per pixel).
enum MapPageScript {
    static let source = #"""
"use strict";
(() => {
  const body = document.body, started = performance.now();
  try {
    const data = JSON.parse(document.getElementById("map-data").textContent);
    const NS = "http://www.w3.org/2000/svg";
    // WGS-84, as LocalProjection: plane x = dLon * KE, y = dLat * KN, linear, so inverting is exact.
    const A = 6378137, E2 = 0.006694379990141317, RAD = Math.PI / 180;
    const kNorthAt = lat => { const s = Math.sin(lat * RAD), w = Math.sqrt(1 - E2 * s * s); return A * (1 - E2) / (w * w * w) * RAD; };
    const kEastAt = lat => { const s = Math.sin(lat * RAD); return A * Math.cos(lat * RAD) / Math.sqrt(1 - E2 * s * s) * RAD; };
    const lat0 = data.origin[0], lon0 = data.origin[1], KN = data.kNorth, KE = data.kEast;
    const latOf = y => lat0 + y / KN;
    const lonOf = x => ((lon0 + x / KE + 180) % 360 + 360) % 360 - 180;
    const MAX_SCALE = 20;          // px per plane metre: 1 px = 5 cm
    const LABEL_LIMIT = 300;       // fence labels only while at most this many fences are in view
    const EVENT_LABEL_LIMIT = 150; // event labels only while at most this many events are in view
    const svg = document.getElementById("map"), world = document.getElementById("world");
    const overlay = document.getElementById("overlay");
    const el = (name, attributes, parent) => {
      const node = document.createElementNS(NS, name);
      for (const key in attributes) node.setAttribute(key, attributes[key]);
      if (parent) parent.appendChild(node);
      return node;
    };
    const titled = (node, text) => { el("title", {}, node).textContent = text; return node; };
    const degrees = v => v.toFixed(7);
    const length = m => m >= 1000 ? +(m / 1000).toFixed(3) + " km" : +m.toFixed(2) + " m";
    const iso = seconds => new Date(seconds * 1000).toISOString().replace(".000Z", "Z");
    const clock = text => text.length >= 19 ? text.slice(11, 19) : text;

    // Fences. Circles: true-size ellipses in plane metres (a circle's east radius grows with 1/cos(latitude) off
    // the origin). Polygons: one path of their thinned rings, filled even-odd as the monitor decides inside.
    // Corridors: the thinned path stroked 2 half-widths wide with round caps and joins (exactly the points within
    // the half-width of the path, in the plane), tinted like a circle; its 2 px edge is a wider stroke of the same
    // path with the band masked out (widths follow the zoom, updateCorridors), and the path itself is dashed.
    // Fence i is the fence layer's child i: an ellipse, a path, or a corridor's group.
    const F = data.fences, fenceCount = F.id.length, S = data.shapes;
    const shapeOf = new Array(fenceCount).fill(null);
    for (const shape of S) shapeOf[shape.i] = shape;
    const fenceRX = new Float64Array(fenceCount), fenceRY = new Float64Array(fenceCount);
    const fences = document.createDocumentFragment(), corridors = [];
    const pointsOf = flat => { const p = []; for (let j = 0; j + 1 < flat.length; j += 2) p.push(flat[j] + "," + flat[j + 1]); return p.join(" "); };
    let shapeVertices = 0;
    for (let i = 0; i < fenceCount; i++) {
      const shape = shapeOf[i];
      if (!shape) {
        const lat = latOf(F.y[i]);
        fenceRX[i] = F.r[i] * KE / Math.max(kEastAt(lat), 1);
        fenceRY[i] = F.r[i] * KN / kNorthAt(lat);
        el("ellipse", { class: "fence", cx: F.x[i], cy: F.y[i], rx: fenceRX[i], ry: fenceRY[i] }, fences);
        continue;
      }
      fenceRX[i] = (shape.box[2] - shape.box[0]) / 2;
      fenceRY[i] = (shape.box[3] - shape.box[1]) / 2;
      shapeVertices += shape.drawn;
      if (shape.type === "polygon") {
        el("path", { class: "fence", "fill-rule": "evenodd", d: shape.rings.map(ring => "M" + pointsOf(ring) + "Z").join("") }, fences);
      } else {
        const points = pointsOf(shape.path), id = "corridor-mask-" + i;
        const group = el("g", { class: "corridor" }, fences);
        const mask = el("mask", { id: id, maskUnits: "userSpaceOnUse" }, group);
        const cover = el("rect", { fill: "#fff" }, mask);
        const cut = el("polyline", { class: "corridor-cut", points: points }, mask);
        const edge = el("polyline", { class: "corridor-edge", points: points, mask: "url(#" + id + ")" }, group);
        el("polyline", { class: "corridor-band", points: points, "stroke-width": 2 * shape.w }, group);
        el("polyline", { class: "corridor-path", points: points }, group);
        corridors.push({ shape, mask, cover, cut, edge });
      }
    }
    const fenceLayer = document.getElementById("fences");
    fenceLayer.appendChild(fences);
    let corridorScale = 0;
    function updateCorridors() {
      // The edge is 2 px wide, centred on the band's boundary as a circle's stroke is on its circle.
      if (corridorScale === s) return;
      corridorScale = s;
      const px = 1 / s;
      for (const c of corridors) {
        const b = c.shape.box, m = 2 * px + 1;
        c.edge.setAttribute("stroke-width", 2 * c.shape.w + 2 * px);
        c.cut.setAttribute("stroke-width", Math.max(2 * c.shape.w - 2 * px, 0));
        const area = { x: b[0] - m, y: b[1] - m, width: b[2] - b[0] + 2 * m, height: b[3] - b[1] + 2 * m };
        for (const key in area) { c.mask.setAttribute(key, area[key]); c.cover.setAttribute(key, area[key]); }
      }
    }
    const fenceKind = i => {
      const shape = shapeOf[i];
      if (!shape) return "radius " + length(F.r[i]);
      if (shape.type === "polygon") {
        return "polygon, " + shape.vertices + " vertices" + (shape.rings.length > 1 ? " in " + shape.rings.length + " rings" : "");
      }
      return "corridor, half-width " + length(shape.halfWidth) + ", " + shape.vertices + " vertices";
    };
    const fenceText = i => {
      const shape = shapeOf[i];
      const thinned = shape && shape.drawn < shape.vertices ? " (" + shape.drawn + " drawn, within " + length(shape.tolerance) + ")" : "";
      return F.id[i] + " \u00b7 " + fenceKind(i) + thinned + " \u00b7 " + (shape ? "centre " : "") +
        degrees(latOf(F.y[i])) + ", " + degrees(lonOf(F.x[i]));
    };
    // A fence's tooltip is made when the pointer first reaches it (before the browser's tooltip delay ends), not
    // up front: 12,866 <title> elements would double the page's drawing time.
    fenceLayer.addEventListener("pointerover", e => {
      let fence = e.target;
      while (fence && fence.parentNode !== fenceLayer) fence = fence.parentNode;
      if (!fence || fence.hasAttribute("data-titled")) return;
      fence.setAttribute("data-titled", "");
      const title = document.createElementNS(NS, "title");
      title.textContent = fenceText(Array.prototype.indexOf.call(fenceLayer.children, fence));
      fence.insertBefore(title, fence.firstChild);
    });

    // Track: one polyline per run of equal state; a run ends on the fix that starts the next one, so the line
    // is unbroken and the leg between two fixes has the colour of the state at the first.
    const T = data.track, fixCount = T.x.length;
    const trackLayer = document.getElementById("track");
    const fixTime = i => (T.t0 === null || T.t[i] === null) ? null : iso(T.t0 + T.t[i]);
    for (let start = 0, i = 1; i <= fixCount && fixCount > 0; i++) {
      if (i < fixCount && T.inside[i] === T.inside[start]) continue;
      const end = Math.min(i, fixCount - 1), points = [];
      for (let j = start; j <= end; j++) points.push(T.x[j] + "," + T.y[j]);
      if (points.length === 1) points.push(points[0]);
      const inside = T.inside[start] === "1", from = fixTime(start), to = fixTime(end);
      titled(el("polyline", { class: inside ? "track-in" : "track-out", points: points.join(" ") }, trackLayer),
        "track " + (inside ? "inside a fence" : "outside all fences") + (from ? " \u00b7 " + from + " \u2192 " + to : ""));
      start = i;
    }

    // Events: marker shapes in screen pixels, drawn by buildOverlay().
    const E = data.events;
    const SHAPES = {
      enter: "M0,-7L6,4H-6Z", exit: "M0,7L6,-4H-6Z", dwell: "M-5,-5H5V5H-5Z",
      approach: "M0,-7L6,0L0,7L-6,0Z", state: "M-5,0A5,5 0 1,0 5,0A5,5 0 1,0 -5,0Z",
      overspeed: "M-6,-3L0,-7L6,-3L6,3L0,7L-6,3Z", overspeed_end: "M-6,-2H6V2H-6Z",
    };
    const kindOf = type => Object.prototype.hasOwnProperty.call(SHAPES, type) ? type : "state";
    const eventText = e => e.type + " " + e.region + " at " + e.time + " \u00b7 seq " + e.seq +
      (e.d === null ? "" : " \u00b7 " + e.d + " m from the boundary") + " \u00b7 " + e.state + (e.inferred ? " (inferred)" : "");

    // View: screen = (tx + s*x, ty - s*y), s in px per plane metre.
    let s = 1, tx = 0, ty = 0, fitScale = 1, built = null;
    const size = () => [svg.clientWidth || innerWidth, svg.clientHeight || innerHeight];
    let lastSize = size();

    function buildOverlay() {
      overlay.replaceChildren();
      overlay.removeAttribute("transform");
      built = { tx, ty };
      const [w, h] = size(), pad = 40;
      const inView = (X, Y, rx, ry) => X + rx >= -pad && X - rx <= w + pad && Y + ry >= -pad && Y - ry <= h + pad;
      const visible = [];
      for (let i = 0; i < fenceCount && visible.length <= LABEL_LIMIT; i++) {
        if (inView(tx + s * F.x[i], ty - s * F.y[i], fenceRX[i] * s, fenceRY[i] * s)) visible.push(i);
      }
      // A label goes above its fence unless it would overlap one already placed (boxes estimated from the
      // 11 px font: 6.5 px a character); hovering the fence still shows its name.
      const placed = [];
      let labelled = 0;
      for (const i of visible.length <= LABEL_LIMIT ? visible : []) {
        const X = tx + s * F.x[i], Y = ty - s * (F.y[i] + fenceRY[i]) - 4, half = 3.25 * F.id[i].length + 2;
        const box = [X - half, Y - 11, X + half, Y + 2];
        if (placed.some(b => box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3])) continue;
        placed.push(box);
        labelled++;
        const label = el("text", { class: "fence-label", x: X, y: Y }, overlay);
        label.textContent = F.id[i];
        titled(label, F.id[i] + " \u00b7 " + fenceKind(i));
      }
      const events = E.filter(e => inView(tx + s * e.x, ty - s * e.y, 0, 0));
      for (const e of events) {
        const kind = kindOf(e.type);
        const marker = el("g", { class: "event event-" + kind, transform: "translate(" + (tx + s * e.x) + " " + (ty - s * e.y) + ")" }, overlay);
        titled(el("path", { d: SHAPES[kind] }, marker), eventText(e));
        if (events.length <= EVENT_LABEL_LIMIT) {
          el("text", { class: "event-label", x: 9, y: 4 }, marker).textContent = kind + " " + clock(e.time);
        }
      }
      body.dataset.labels = labelled;
      body.dataset.markers = events.length;
    }

    function drawScaleBar() {
      // True metres per pixel along the parallel through the view's centre; the bar is the longest 1, 2 or 5
      // times a power of ten that fits in 120 px.
      const [w, h] = size();
      const lat = Math.max(-89, Math.min(89, latOf((ty - h / 2) / s)));
      const metresPerPixel = kEastAt(lat) / (KE * s);
      const longest = 120 * metresPerPixel;
      const decade = Math.pow(10, Math.floor(Math.log10(longest)));
      const metres = [5, 2, 1].map(k => k * decade).find(v => v <= longest) || decade;
      const pixels = metres / metresPerPixel;
      document.getElementById("scale-bar").style.width = pixels.toFixed(1) + "px";
      document.getElementById("scale-label").textContent = length(metres);
      body.dataset.scaleBar = metres + " m " + pixels.toFixed(3) + " px";
    }

    function draw(rebuild) {
      updateCorridors();
      world.setAttribute("transform", "matrix(" + s + " 0 0 " + (-s) + " " + tx + " " + ty + ")");
      if (rebuild || !built) buildOverlay();
      else overlay.setAttribute("transform", "translate(" + (tx - built.tx) + " " + (ty - built.ty) + ")");
      drawScaleBar();
      const [w, h] = size();
      body.dataset.view = [s, tx, ty, w, h].join(" ");
    }

    function fit() {
      const [w, h] = size(), [x0, y0, x1, y1] = data.bounds, margin = 40;
      s = Math.min(MAX_SCALE, Math.max(w - 2 * margin, 10) / (x1 - x0), Math.max(h - 2 * margin, 10) / (y1 - y0));
      fitScale = s;
      tx = w / 2 - s * (x0 + x1) / 2;
      ty = h / 2 + s * (y0 + y1) / 2;
      draw(true);
    }

    function zoomAt(factor, px, py) {
      const scale = Math.min(MAX_SCALE, Math.max(fitScale / 64, s * factor)), k = scale / s;
      tx = px - (px - tx) * k;
      ty = py - (py - ty) * k;
      s = scale;
      draw(true);
    }
    const zoomCentre = factor => { const [w, h] = size(); zoomAt(factor, w / 2, h / 2); };

    let drag = null;
    svg.addEventListener("pointerdown", e => {
      if (e.button !== 0) return;
      drag = { x: e.clientX, y: e.clientY };
      try { svg.setPointerCapture(e.pointerId); } catch (_) { /* a synthetic pointer (tests) has no capture */ }
      svg.classList.add("dragging");
    });
    const cursor = document.getElementById("cursor");
    svg.addEventListener("pointermove", e => {
      const r = svg.getBoundingClientRect(), x = (e.clientX - r.left - tx) / s, y = (ty - (e.clientY - r.top)) / s;
      cursor.textContent = degrees(latOf(y)) + ", " + degrees(lonOf(x));
      if (!drag) return;
      tx += e.clientX - drag.x;
      ty += e.clientY - drag.y;
      drag = { x: e.clientX, y: e.clientY };
      draw(false);
    });
    const endDrag = () => { if (!drag) return; drag = null; svg.classList.remove("dragging"); draw(true); };
    svg.addEventListener("pointerup", endDrag);
    svg.addEventListener("pointercancel", endDrag);
    svg.addEventListener("wheel", e => {
      e.preventDefault();
      const r = svg.getBoundingClientRect(), step = e.deltaMode === 1 ? 0.05 : 0.002;
      zoomAt(Math.exp(-e.deltaY * step), e.clientX - r.left, e.clientY - r.top);
    }, { passive: false });
    svg.addEventListener("dblclick", e => { const r = svg.getBoundingClientRect(); zoomAt(2, e.clientX - r.left, e.clientY - r.top); });
    document.getElementById("zoom-in").addEventListener("click", () => zoomCentre(2));
    document.getElementById("zoom-out").addEventListener("click", () => zoomCentre(0.5));
    document.getElementById("fit").addEventListener("click", fit);
    addEventListener("keydown", e => {
      const pan = { ArrowLeft: [100, 0], ArrowRight: [-100, 0], ArrowUp: [0, 100], ArrowDown: [0, -100] }[e.key];
      if (e.key === "+" || e.key === "=") zoomCentre(2);
      else if (e.key === "-") zoomCentre(0.5);
      else if (e.key === "0") fit();
      else if (pan) { tx += pan[0]; ty += pan[1]; draw(true); }
    });
    addEventListener("resize", () => {
      // Keep what was at the centre at the centre.
      const [w, h] = size();
      tx += (w - lastSize[0]) / 2;
      ty += (h - lastSize[1]) / 2;
      lastSize = [w, h];
      draw(true);
    });

    fit();
    // A view asked for in the address, "#center=LAT,LON&mpp=METRES_PER_PIXEL" (mpp optional): numbers only.
    const wanted = /^#center=(-?[0-9.]+),(-?[0-9.]+)(?:&mpp=([0-9.]+))?$/.exec(location.hash);
    if (wanted && isFinite(+wanted[1]) && isFinite(+wanted[2]) && (!wanted[3] || +wanted[3] > 0)) {
      const [w, h] = size();
      if (wanted[3]) s = Math.min(MAX_SCALE, Math.max(fitScale / 64, 1 / +wanted[3]));
      const x = (((+wanted[2] - lon0 + 180) % 360 + 360) % 360 - 180) * KE, y = (+wanted[1] - lat0) * KN;
      tx = w / 2 - s * x;
      ty = h / 2 + s * y;
      draw(true);
    }
    body.dataset.trackDrawn = fixCount;
    body.dataset.overlays = ["panel", "legend", "scale"].map(id => {
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
