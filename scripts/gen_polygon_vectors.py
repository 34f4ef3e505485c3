#!/usr/bin/env python3
"""Generates the polygon and corridor accuracy fixture (Tests/CGeofenceTests/Fixtures/polygon_vectors.txt), or the
same kind of file from real GeoJSON polygons: an independent reference the C core's polygon and corridor fences are
tested against. It shares no code with the core and uses only the Python standard library and geographiclib
(Debian: python3-geographiclib).

The model (the contract the core is checked against)
----------------------------------------------------
- Coordinates are WGS-84 in whole 1e-7 degree units ("e7"): (lat_e7, lon_e7).
- A polygon is one outer ring plus zero or more holes. A ring lists its vertices once (no repeated closing vertex),
  in either orientation. Its edges are STRAIGHT LINES IN (longitude, latitude), RFC 7946's rule for GeoJSON, so
  inside/outside is planar point-in-polygon in e7 integer coordinates, with the even-odd rule over all rings.
  Polygons never cross the +-180 degree meridian and stay within |lat| <= 85 degrees.
- A corridor is a polyline (e7 vertices, straight in lon/lat between them) with a half-width W in mm: a point is
  inside iff its distance to the polyline is <= W (round caps at the ends, round joints).
- The distance from a point P to a boundary is the minimum over the boundary's edges of the WGS-84 geodesic
  distance (Karney's algorithm, geographiclib) from P to the points a + t (b - a), t in [0, 1], of the edge (the
  straight lon/lat interpolation of its e7 end points, in degrees). Signed: negative inside, positive outside; for a
  corridor: the distance to the polyline minus W.

How the reference is computed
-----------------------------
- Inside/outside of a polygon is exact: integer orientation tests in e7 (a horizontal ray with the half-open rule on
  latitude). Points exactly on an edge or a vertex are never emitted: they lie inside every band.
  `--self-test` checks it against an independent method on every emitted point: the winding number summed over the
  rings, counted on a vertical ray (half-open on longitude) with the crossing computed as an exact Fraction; the
  parity of the winding sum must equal the even-odd verdict (it does for any ring, simple or not).
- The distance to one edge minimises f(t) = geodesic(P, a + t (b - a)). The derivative of f is
  f'(t) = v(t) cos(alpha(t) - azi2(t)), with v the edge's speed in metres per unit t, alpha its azimuth and azi2
  the geodesic's azimuth on arrival (the first variation of a geodesic's length), so the minimiser is the root of
  cos(alpha - azi2), found by a safeguarded regula falsi (Illinois) that keeps a sign-change bracket [lo, hi] and
  stops when v_max (hi - lo) <= 0.01 mm; f is v_max-Lipschitz in t, so the result is never more than
  v_max (hi - lo) <= 0.01 mm above the true minimum (plus geographiclib's 15 nm). This relies on f being unimodal
  on the edge; `--self-test` samples f densely (256 points) on the nearest edges of a subset of the points, counts
  local minima and re-minimises by golden section to 1 nm, and reports the largest difference.
- Only edges that can be nearest are minimised: a grid over the edges finds an upper bound d_ub (the geodesic to a
  point of a nearby edge); a geodesic no longer than d_ub stays within d_ub / M_min of P's latitude, so within that
  band the planar distance with the band's smallest metres-per-degree (M for latitude, N cos(lat) for longitude)
  is a lower bound of every edge's geodesic distance; edges are minimised in order of that bound until it exceeds
  the best distance found (branch and bound; `--self-test` compares with a scan over all edges).
- The fixture's signed distances are rounded to the nearest mm; the inside flag is exact for polygons and, for
  corridors, decided on the unrounded distance (points within 0.1 mm of W are not emitted).

Probes
------
Every probe is rounded to e7 after it is placed and its reference is computed from the rounded point. Categories
(counted in a comment after each shape and on stdout): random (in the bounding box and a margin around it); edge
(along an edge's normal at signed offsets 5 mm, 2 cm, 0.5 m, 5 m, 100 m on both sides; for corridors at W plus and
minus those offsets and on the line itself); vertex-convex / vertex-reflex / vertex-straight (along the bisector on
both sides and along both edges extended, 2 cm to 20 m); hole (random points inside a hole); aligned (points on a
vertex's exact latitude or longitude, where rays pass through vertices and along horizontal or vertical edges);
cap (around a corridor's end vertices, at W plus and minus the offsets); joint (around a corridor's interior
vertices).

Output format (text, one record per line, '#' starts a comment, all numbers integers)
------------------------------------------------------------------------------------
    shape,<name>,polygon,0                  or   shape,<name>,corridor,<half_width_mm>
    ring,<lat_e7>,<lon_e7>,...              polygon: the outer ring first, then the holes
    path,<lat_e7>,<lon_e7>,...              corridor: one path line
    point,<lat_e7>,<lon_e7>,<inside 0|1>,<signed_distance_mm>
Points belong to the latest shape.

Usage
-----
    python3 scripts/gen_polygon_vectors.py [--self-test]          the committed fixture, fixed seed
    python3 scripts/gen_polygon_vectors.py --geojson PATH [--features N,M,...] [--points K] --output FILE
        Polygon and MultiPolygon features (0-based feature indices; all by default); each polygon of a feature is
        its own shape named '<feature name>#<k>' (k 0-based); K probes in total, shared by the shapes in
        proportion to their vertex counts. GeoJSON rings are rounded to e7; the closing vertex and consecutive
        vertices that round to the same point are dropped.
"""

import argparse
import json
import math
import os
import random
import sys
import time
from fractions import Fraction

from geographiclib.geodesic import Geodesic

SEED = 20251207
OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                      "Tests", "CGeofenceTests", "Fixtures", "polygon_vectors.txt")
SIZE_LIMIT_BYTES = 1_000_000

E7 = 10_000_000
WGS84 = Geodesic.WGS84
FLATTENING = WGS84.f
ECCENTRICITY_SQUARED = FLATTENING * (2.0 - FLATTENING)
RADIANS_PER_DEGREE = math.pi / 180.0
# The smallest meridional radius of curvature (at the equator), in metres: the fewest metres per radian of latitude.
MERIDIONAL_RADIUS_MIN_M = WGS84.a * (1.0 - ECCENTRICITY_SQUARED)

# The edge minimiser stops when the bracket around the minimiser is this short in metres (its error bound).
MINIMISER_TOLERANCE_M = 1e-5
MINIMISER_MAX_EVALUATIONS = 200
# Corridor probes this close to the half-width are not emitted: their side is below the reference's accuracy.
CORRIDOR_AMBIGUOUS_M = 1e-4

NORMAL_OFFSETS_M = (0.005, 0.02, 0.5, 5.0, 100.0)
VERTEX_OFFSETS_M = (0.02, 0.5, 5.0, 20.0)
CAP_AZIMUTH_OFFSETS_DEG = (0.0, 30.0, 60.0, 90.0, 120.0, 150.0, 180.0)
CAP_OFFSETS_M = (0.005, 0.02, 0.5, 5.0)


# ---------------------------------------------------------------------------------------------------------------
# Units and the ellipsoid


def round_e7(degrees):
    """Degrees to whole 1e-7 degree units, nearest, ties away from zero (the core's rule)."""
    scaled = abs(degrees) * E7
    units = int(math.floor(scaled + 0.5))
    return units if degrees >= 0 else -units


def metres_per_degree(lat_deg):
    """(east, north): metres per degree of longitude (N cos(lat)) and of latitude (M) at a latitude."""
    s = math.sin(lat_deg * RADIANS_PER_DEGREE)
    w2 = 1.0 - ECCENTRICITY_SQUARED * s * s
    prime_vertical = WGS84.a / math.sqrt(w2)
    meridional = WGS84.a * (1.0 - ECCENTRICITY_SQUARED) / (w2 * math.sqrt(w2))
    return (prime_vertical * math.cos(lat_deg * RADIANS_PER_DEGREE) * RADIANS_PER_DEGREE,
            meridional * RADIANS_PER_DEGREE)


def smallest_metres_per_degree(lat_lo_deg, lat_hi_deg):
    """(east, north) lower bounds of metres per degree over a latitude band: N cos(lat) falls and M rises with
    |lat|, so the first is smallest at the band's largest |lat| and the second at its smallest |lat|. Shrunk by
    1e-9 to cover rounding."""
    largest = min(90.0, max(abs(lat_lo_deg), abs(lat_hi_deg)))
    smallest = 0.0 if lat_lo_deg <= 0.0 <= lat_hi_deg else min(abs(lat_lo_deg), abs(lat_hi_deg))
    east = max(0.0, metres_per_degree(largest)[0]) * (1.0 - 1e-9)
    north = metres_per_degree(smallest)[1] * (1.0 - 1e-9)
    return east, north


def geodesic_m(lat1, lon1, lat2, lon2):
    return WGS84.Inverse(lat1, lon1, lat2, lon2, Geodesic.DISTANCE)["s12"]


def destination(lat_deg, lon_deg, azimuth_deg, distance_m):
    """The point at a geodesic distance and azimuth, in degrees."""
    r = WGS84.Direct(lat_deg, lon_deg, azimuth_deg, distance_m, Geodesic.LATITUDE | Geodesic.LONGITUDE)
    return r["lat2"], r["lon2"]


def local_azimuth(lat_deg, dlat_deg, dlon_deg):
    """The azimuth (degrees) of a small lon/lat displacement at a latitude."""
    east, north = metres_per_degree(lat_deg)
    return math.degrees(math.atan2(dlon_deg * east, dlat_deg * north))


# ---------------------------------------------------------------------------------------------------------------
# Exact point in polygon (e7 integers; x = lon, y = lat)


def ring_edges(ring, closed=True):
    """(a, b) pairs of a ring (closed) or a path (open), vertices as (lat_e7, lon_e7)."""
    count = len(ring)
    if closed:
        return [(ring[i - 1], ring[i]) for i in range(count)]
    return [(ring[i], ring[i + 1]) for i in range(count - 1)]


def on_boundary(point, rings):
    """Whether the point lies exactly on an edge (or a vertex) of any ring."""
    py, px = point
    for ring in rings:
        for (ay, ax), (by, bx) in ring_edges(ring):
            if min(ax, bx) <= px <= max(ax, bx) and min(ay, by) <= py <= max(ay, by):
                if (bx - ax) * (py - ay) - (by - ay) * (px - ax) == 0:
                    return True
    return False


def inside_even_odd(point, rings):
    """Even-odd rule on a ray toward +lon, half-open on latitude (an edge counts when exactly one end lies strictly
    above the point). Exact in integers; the point must not lie on the boundary."""
    py, px = point
    inside = False
    for ring in rings:
        count = len(ring)
        ay, ax = ring[count - 1]
        for by, bx in ring:
            if (ay > py) != (by > py):
                cross = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
                # The crossing's longitude minus px has the sign of cross / (by - ay).
                if (cross > 0) == (by > ay):
                    inside = not inside
            ay, ax = by, bx
    return inside


def winding_sum_vertical(point, rings):
    """The winding numbers of the rings around the point, summed, counted on a ray toward -lat, half-open on
    longitude, with each crossing's latitude computed as an exact Fraction (a method independent of
    inside_even_odd: other ray, other half-open rule, other arithmetic)."""
    py, px = point
    total = 0
    for ring in rings:
        for (ay, ax), (by, bx) in ring_edges(ring):
            if (ax <= px) == (bx <= px):
                continue
            crossing_lat = ay + Fraction((px - ax) * (by - ay), bx - ax)
            if crossing_lat < py:
                total += 1 if bx > ax else -1
    return total


def ring_signed_area2(ring):
    """Twice the signed area in e7 (lon, lat): positive for counter-clockwise rings."""
    total = 0
    for (ay, ax), (by, bx) in ring_edges(ring):
        total += ax * by - bx * ay
    return total


# ---------------------------------------------------------------------------------------------------------------
# Geodesic distance from a point to one edge


class Edge:
    """One edge a -> b in e7, with what the minimiser needs in degrees: the end points, the deltas and v_max, an
    upper bound of |d(a + t (b - a))/dt| in metres (speed along the edge per unit t)."""

    __slots__ = ("a", "b", "lat_a", "lon_a", "lat_b", "lon_b", "dlat", "dlon", "speed_max", "ring", "index")

    def __init__(self, a, b, ring_index, edge_index):
        self.a, self.b = a, b
        self.lat_a, self.lon_a = a[0] / E7, a[1] / E7
        self.lat_b, self.lon_b = b[0] / E7, b[1] / E7
        self.dlat, self.dlon = (b[0] - a[0]) / E7, (b[1] - a[1]) / E7
        lo, hi = min(self.lat_a, self.lat_b), max(self.lat_a, self.lat_b)
        north_max = metres_per_degree(max(abs(lo), abs(hi)))[1]
        east_max = metres_per_degree(0.0 if lo <= 0.0 <= hi else min(abs(lo), abs(hi)))[0]
        self.speed_max = math.hypot(north_max * self.dlat, east_max * self.dlon) * (1.0 + 1e-9)
        self.ring, self.index = ring_index, edge_index

    def at(self, t):
        if t == 1.0:
            return self.lat_b, self.lon_b
        return self.lat_a + t * self.dlat, self.lon_a + t * self.dlon


class Minimiser:
    """Minimises the geodesic distance from a point to an edge (see the module docstring); counts evaluations."""

    def __init__(self):
        self.evaluations = 0
        self.largest_bound_m = 0.0

    def evaluate(self, plat, plon, edge, t):
        """(f, g): the geodesic distance in metres to the edge's point at t and cos(alpha - azi2), the sign of f'."""
        self.evaluations += 1
        lat, lon = edge.at(t)
        r = WGS84.Inverse(plat, plon, lat, lon, Geodesic.DISTANCE | Geodesic.AZIMUTH)
        distance = r["s12"]
        if distance == 0.0:
            return 0.0, 0.0
        alpha = local_azimuth(lat, edge.dlat, edge.dlon)
        return distance, math.cos((alpha - r["azi2"]) * RADIANS_PER_DEGREE)

    def edge_distance(self, plat, plon, edge, t_guess=0.5):
        """(distance_m, bound_m): the minimum over t of f(t), never more than bound_m above the true minimum."""
        f0, g0 = self.evaluate(plat, plon, edge, 0.0)
        if f0 == 0.0 or g0 >= 0.0:
            return f0, 0.0
        f1, g1 = self.evaluate(plat, plon, edge, 1.0)
        if f1 == 0.0 or g1 <= 0.0:
            return f1, 0.0
        lo, hi, g_lo, g_hi = 0.0, 1.0, g0, g1
        best = min(f0, f1)
        tolerance_t = MINIMISER_TOLERANCE_M / edge.speed_max
        t = t_guess
        last_side = 0
        width_before = hi - lo
        steps = 0
        while hi - lo > tolerance_t:
            margin = 0.4 * tolerance_t
            t = (lo + hi) / 2.0 if hi - lo <= 2.0 * margin else min(max(t, lo + margin), hi - margin)
            f, g = self.evaluate(plat, plon, edge, t)
            steps += 1
            if steps > MINIMISER_MAX_EVALUATIONS:
                raise RuntimeError(f"edge minimiser did not converge: point ({plat}, {plon}), edge {edge.a}-{edge.b}")
            best = min(best, f)
            if f == 0.0:
                return 0.0, 0.0
            if g < 0.0:
                lo, g_lo = t, g
                if last_side < 0:
                    g_hi *= 0.5
                last_side = -1
            elif g > 0.0:
                hi, g_hi = t, g
                if last_side > 0:
                    g_lo *= 0.5
                last_side = 1
            else:
                lo = hi = t
                break
            t = lo - g_lo * (hi - lo) / (g_hi - g_lo)
            if steps % 4 == 0:
                if hi - lo > 0.5 * width_before:
                    t = (lo + hi) / 2.0
                width_before = hi - lo
        bound = edge.speed_max * (hi - lo)
        self.largest_bound_m = max(self.largest_bound_m, bound)
        return best, bound


def planar_guess(plat, plon, edge, east, north):
    """The parameter t of the point of the edge closest to P in a plane scaled by (east, north) metres per degree,
    and that planar distance."""
    ax, ay = (edge.lon_a - plon) * east, (edge.lat_a - plat) * north
    dx, dy = edge.dlon * east, edge.dlat * north
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0.0 else min(1.0, max(0.0, -(ax * dx + ay * dy) / length2))
    return t, math.hypot(ax + t * dx, ay + t * dy)


class EdgeIndex:
    """A uniform grid over the edges' e7 bounding boxes, about one cell per edge."""

    def __init__(self, edges):
        self.edges = edges
        lats = [e.a[0] for e in edges] + [e.b[0] for e in edges]
        lons = [e.a[1] for e in edges] + [e.b[1] for e in edges]
        self.lat0, self.lon0 = min(lats), min(lons)
        side = max(1, int(math.sqrt(len(edges))))
        self.cell_lat = max(1, -(-(max(lats) - self.lat0 + 1) // side))
        self.cell_lon = max(1, -(-(max(lons) - self.lon0 + 1) // side))
        self.rows = (max(lats) - self.lat0) // self.cell_lat + 1
        self.cols = (max(lons) - self.lon0) // self.cell_lon + 1
        self.cells = {}
        for i, e in enumerate(edges):
            r0, r1 = sorted((self.row(e.a[0]), self.row(e.b[0])))
            c0, c1 = sorted((self.col(e.a[1]), self.col(e.b[1])))
            for r in range(r0, r1 + 1):
                for c in range(c0, c1 + 1):
                    self.cells.setdefault((r, c), []).append(i)

    def row(self, lat_e7):
        return min(self.rows - 1, max(0, (lat_e7 - self.lat0) // self.cell_lat))

    def col(self, lon_e7):
        return min(self.cols - 1, max(0, (lon_e7 - self.lon0) // self.cell_lon))

    def near(self, lat_e7, lon_e7):
        """Edge indices of the nearest non-empty ring of cells around the point's (clamped) cell."""
        r0, c0 = self.row(lat_e7), self.col(lon_e7)
        for k in range(max(self.rows, self.cols) + 1):
            found = set()
            for r in range(r0 - k, r0 + k + 1):
                step = 1 if abs(r - r0) == k else max(1, 2 * k)
                for c in range(c0 - k, c0 + k + 1, step):
                    found.update(self.cells.get((r, c), ()))
            if found:
                return found
        raise RuntimeError("edge index is empty")

    def within(self, lat_lo, lat_hi, lon_lo, lon_hi):
        """Edge indices whose cells overlap an e7 box."""
        found = set()
        for r in range(self.row(lat_lo), self.row(lat_hi) + 1):
            for c in range(self.col(lon_lo), self.col(lon_hi) + 1):
                found.update(self.cells.get((r, c), ()))
        return found


def nearest_distance(plat_e7, plon_e7, edges, index, minimiser):
    """(distance_m, bound_m, edge): the geodesic distance from an e7 point to the nearest edge, by branch and bound
    over the edges that can be nearest (see the module docstring)."""
    plat, plon = plat_e7 / E7, plon_e7 / E7
    east, north = metres_per_degree(plat)
    best_edge, best_planar, best_t = None, math.inf, 0.0
    for i in index.near(plat_e7, plon_e7):
        t, planar = planar_guess(plat, plon, edges[i], east, north)
        if planar < best_planar:
            best_edge, best_planar, best_t = i, planar, t
    upper = geodesic_m(plat, plon, *edges[best_edge].at(best_t))
    band_deg = upper / (MERIDIONAL_RADIUS_MIN_M * RADIANS_PER_DEGREE) * (1.0 + 1e-9) + 1e-9
    east_min, north_min = smallest_metres_per_degree(plat - band_deg, plat + band_deg)
    lon_band_deg = upper / east_min * (1.0 + 1e-9) + 1e-9 if east_min > 0.0 else 360.0
    candidates = []
    for i in index.within(plat_e7 - int(band_deg * E7) - 1, plat_e7 + int(band_deg * E7) + 1,
                          plon_e7 - int(min(lon_band_deg, 360.0) * E7) - 1,
                          plon_e7 + int(min(lon_band_deg, 360.0) * E7) + 1):
        _, lower = planar_guess(plat, plon, edges[i], east_min, north_min)
        lower = lower * (1.0 - 1e-9) - 1e-9
        if lower <= upper:
            candidates.append((lower, i))
    candidates.sort()
    best, best_bound, nearest = upper, 0.0, edges[best_edge]
    for lower, i in candidates:
        if lower > best:
            break
        t_guess, _ = planar_guess(plat, plon, edges[i], east, north)
        distance, bound = minimiser.edge_distance(plat, plon, edges[i], t_guess)
        if distance < best or (i == best_edge and distance <= best):
            best, best_bound, nearest = distance, bound, edges[i]
    return best, best_bound, nearest


# ---------------------------------------------------------------------------------------------------------------
# Shapes and their references


class Shape:
    """A polygon (rings: outer first) or a corridor (one path and a half-width in mm), in e7."""

    def __init__(self, name, kind, rings, half_width_mm=0):
        if kind not in ("polygon", "corridor"):
            raise ValueError(f"shape {name}: unknown kind {kind}")
        if "," in name or "\n" in name:
            raise ValueError(f"shape name {name!r} contains a comma or a newline")
        self.name, self.kind, self.rings, self.half_width_mm = name, kind, rings, half_width_mm
        for k, ring in enumerate(rings):
            for lat, lon in ring:
                if abs(lat) > 85 * E7 or not -180 * E7 < lon < 180 * E7:
                    raise ValueError(f"shape {name} ring {k}: vertex ({lat}, {lon}) outside |lat| <= 85 degrees or "
                                     "on or beyond the antimeridian")
            minimum = 3 if kind == "polygon" else 2
            if len(ring) < minimum:
                raise ValueError(f"shape {name} ring {k}: {len(ring)} vertices, at least {minimum} needed")
        closed = kind == "polygon"
        self.edges = [Edge(a, b, k, j) for k, ring in enumerate(rings)
                      for j, (a, b) in enumerate(ring_edges(ring, closed))]
        self.index = EdgeIndex(self.edges)
        self.points = []  # (lat_e7, lon_e7, inside, signed_m, category, bound_m)
        self.seen = set()
        self.series = {}  # key -> [(offset_m, lat_e7, lon_e7, distance_m, foot)]

    def bbox_e7(self):
        lats = [p[0] for ring in self.rings for p in ring]
        lons = [p[1] for ring in self.rings for p in ring]
        return min(lats), max(lats), min(lons), max(lons)

    def reference(self, lat_e7, lon_e7, minimiser):
        """(inside, signed_m, distance_m, bound_m), or None for a point on the boundary (or within 0.1 mm of a
        corridor's half-width)."""
        distance, bound, _ = nearest_distance(lat_e7, lon_e7, self.edges, self.index, minimiser)
        if self.kind == "polygon":
            if on_boundary((lat_e7, lon_e7), self.rings):
                return None
            inside = inside_even_odd((lat_e7, lon_e7), self.rings)
            return inside, (-distance if inside else distance), distance, bound
        signed = distance - self.half_width_mm / 1000.0
        if abs(signed) < CORRIDOR_AMBIGUOUS_M:
            return None
        return signed <= 0.0, signed, distance, bound

    def add(self, lat_deg, lon_deg, category, minimiser, series=None):
        """Rounds a probe to e7, computes its reference and keeps it (once per point); returns the record or None."""
        lat_e7, lon_e7 = round_e7(lat_deg), round_e7(lon_deg)
        if abs(lat_e7) > 85 * E7 or not -180 * E7 < lon_e7 < 180 * E7:
            return None
        if (lat_e7, lon_e7) in self.seen:
            return None
        result = self.reference(lat_e7, lon_e7, minimiser)
        if result is None:
            return None
        self.seen.add((lat_e7, lon_e7))
        inside, signed, distance, bound = result
        record = (lat_e7, lon_e7, inside, signed, category, bound)
        self.points.append(record)
        if series is not None:
            key, offset, foot = series
            self.series.setdefault(key, []).append((offset, lat_e7, lon_e7, distance, foot))
        return record


def rounded_mm(metres):
    """Metres to whole millimetres, nearest, ties away from zero."""
    mm = abs(metres) * 1000.0
    units = int(math.floor(mm + 0.5))
    return units if metres >= 0 else -units


# ---------------------------------------------------------------------------------------------------------------
# Probes


def edge_normal_probes(shape, edge, t, offsets, side_sign, minimiser, category="edge"):
    """Probes along the edge's normal at its point t, at each offset (metres, > 0) on one side (+1: left of the
    edge's direction, -1: right), as one series for the monotonicity check."""
    lat, lon = edge.at(t)
    azimuth = local_azimuth(lat, edge.dlat, edge.dlon) - 90.0 * side_sign
    key = (edge.ring, edge.index, t, side_sign)
    for offset in offsets:
        plat, plon = destination(lat, lon, azimuth, offset)
        shape.add(plat, plon, category, minimiser, series=(key, offset, (lat, lon)))


def vertex_directions(ring, i, closed):
    """(vertex degrees, azimuth to the previous vertex, azimuth to the next), azimuths None at a path's ends."""
    lat_e7, lon_e7 = ring[i]
    lat = lat_e7 / E7
    prev = ring[i - 1] if (closed or i > 0) else None
    nxt = ring[(i + 1) % len(ring)] if (closed or i + 1 < len(ring)) else None
    to_prev = None if prev is None else local_azimuth(lat, (prev[0] - lat_e7) / E7, (prev[1] - lon_e7) / E7)
    to_next = None if nxt is None else local_azimuth(lat, (nxt[0] - lat_e7) / E7, (nxt[1] - lon_e7) / E7)
    return (lat, lon_e7 / E7), to_prev, to_next


def bisector(to_prev, to_next):
    east = math.sin(math.radians(to_prev)) + math.sin(math.radians(to_next))
    north = math.cos(math.radians(to_prev)) + math.cos(math.radians(to_next))
    if math.hypot(east, north) < 1e-9:
        return to_next + 90.0
    return math.degrees(math.atan2(east, north))


def corner_category(ring, i, ring_index):
    """vertex-convex / vertex-reflex / vertex-straight, relative to the polygon's interior (a hole's convex corner
    is the polygon's reflex corner)."""
    (py, px), (vy, vx), (ny, nx) = ring[i - 1], ring[i], ring[(i + 1) % len(ring)]
    turn = (vx - px) * (ny - vy) - (vy - py) * (nx - vx)
    if turn == 0:
        return "vertex-straight"
    orientation = 1 if ring_signed_area2(ring) > 0 else -1
    convex_of_ring = (turn > 0) == (orientation > 0)
    return "vertex-convex" if convex_of_ring == (ring_index == 0) else "vertex-reflex"


def vertex_probes(shape, ring_index, i, offsets, minimiser, category):
    """Probes along the corner's bisector on both sides and along both edges extended past the vertex."""
    ring = shape.rings[ring_index]
    (lat, lon), to_prev, to_next = vertex_directions(ring, i, True)
    half = bisector(to_prev, to_next)
    for azimuth in (half, half + 180.0, to_prev + 180.0, to_next + 180.0):
        for offset in offsets:
            shape.add(*destination(lat, lon, azimuth, offset), category, minimiser)


def random_in_box(rng, bbox_e7, margin_deg):
    lat_lo, lat_hi, lon_lo, lon_hi = bbox_e7
    return (rng.uniform(lat_lo / E7 - margin_deg, lat_hi / E7 + margin_deg),
            rng.uniform(lon_lo / E7 - margin_deg, lon_hi / E7 + margin_deg))


def box_margin_deg(bbox_e7, minimum_m):
    lat_lo, lat_hi, lon_lo, lon_hi = bbox_e7
    size = max(lat_hi - lat_lo, lon_hi - lon_lo) / E7
    return max(0.1 * size, minimum_m / 111_000.0)


def polygon_probes(shape, rng, minimiser, random_count, edge_sites, vertex_sites, hole_count, aligned_count):
    """The fixture's probes for a synthetic polygon."""
    bbox = shape.bbox_e7()
    margin = box_margin_deg(bbox, 100.0)
    for _ in range(random_count):
        shape.add(*random_in_box(rng, bbox, margin), "random", minimiser)
    sites = rng.sample(shape.edges, min(edge_sites, len(shape.edges)))
    for edge in sites:
        t = rng.uniform(0.1, 0.9)
        for side in (1, -1):
            edge_normal_probes(shape, edge, t, NORMAL_OFFSETS_M, side, minimiser)
    corners = [(k, i) for k, ring in enumerate(shape.rings) for i in range(len(ring))]
    for k, i in rng.sample(corners, min(vertex_sites, len(corners))):
        vertex_probes(shape, k, i, VERTEX_OFFSETS_M, minimiser, corner_category(shape.rings[k], i, k))
    for hole in shape.rings[1:]:
        hole_bbox = (min(p[0] for p in hole), max(p[0] for p in hole), min(p[1] for p in hole),
                     max(p[1] for p in hole))
        placed = tries = 0
        while placed < hole_count and tries < 50 * hole_count:
            tries += 1
            lat, lon = random_in_box(rng, hole_bbox, 0.0)
            point = (round_e7(lat), round_e7(lon))
            if not on_boundary(point, [hole]) and inside_even_odd(point, [hole]):
                placed += shape.add(lat, lon, "hole", minimiser) is not None
    aligned_probes(shape, rng, minimiser, aligned_count, bbox, margin)


def aligned_probes(shape, rng, minimiser, count, bbox, margin):
    """Points on a vertex's exact latitude (a horizontal ray through vertices and along horizontal edges) or
    longitude, spread over the bounding box and its margin."""
    vertices = [p for ring in shape.rings for p in ring]
    for n in range(count):
        vertex = rng.choice(vertices)
        lat, lon = random_in_box(rng, bbox, margin)
        if n % 2 == 0:
            shape.add(vertex[0] / E7, lon, "aligned", minimiser)
        else:
            shape.add(lat, vertex[1] / E7, "aligned", minimiser)


def corridor_probes(shape, rng, minimiser, random_count, near_count, edge_sites, joint_sites):
    """The fixture's probes for a synthetic corridor."""
    width = shape.half_width_mm / 1000.0
    path = shape.rings[0]
    bbox = shape.bbox_e7()
    margin = box_margin_deg(bbox, width + 100.0)
    for _ in range(random_count):
        shape.add(*random_in_box(rng, bbox, margin), "random", minimiser)
    for _ in range(near_count):
        edge = rng.choice(shape.edges)
        lat, lon = edge.at(rng.uniform(0.0, 1.0))
        azimuth = local_azimuth(lat, edge.dlat, edge.dlon) + rng.choice((90.0, -90.0))
        shape.add(*destination(lat, lon, azimuth, rng.uniform(0.0, 2.0 * width)), "random", minimiser)
    ladder = sorted({width + d for d in NORMAL_OFFSETS_M} | {width - d for d in NORMAL_OFFSETS_M if d < width})
    for edge in rng.sample(shape.edges, min(edge_sites, len(shape.edges))):
        t = rng.uniform(0.1, 0.9)
        lat, lon = edge.at(t)
        shape.add(lat, lon, "edge", minimiser)
        for side in (1, -1):
            edge_normal_probes(shape, edge, t, ladder, side, minimiser)
    cap_ladder = sorted({width + d for d in CAP_OFFSETS_M} | {width - d for d in CAP_OFFSETS_M if d < width})
    for end, neighbour in ((0, 1), (len(path) - 1, len(path) - 2)):
        lat, lon = path[end][0] / E7, path[end][1] / E7
        away = local_azimuth(lat, (path[end][0] - path[neighbour][0]) / E7, (path[end][1] - path[neighbour][1]) / E7)
        for turn in CAP_AZIMUTH_OFFSETS_DEG:
            for sign in ((1,) if turn in (0.0, 180.0) else (1, -1)):
                for offset in cap_ladder:
                    shape.add(*destination(lat, lon, away + sign * turn, offset), "cap", minimiser)
    interior = list(range(1, len(path) - 1))
    for i in rng.sample(interior, min(joint_sites, len(interior))):
        (lat, lon), to_prev, to_next = vertex_directions(path, i, False)
        half = bisector(to_prev, to_next)
        for azimuth in (half, half + 180.0, to_prev + 180.0, to_next + 180.0):
            for offset in cap_ladder:
                shape.add(*destination(lat, lon, azimuth, offset), "joint", minimiser)


# ---------------------------------------------------------------------------------------------------------------
# The synthetic shapes of the committed fixture


def e7_point(lat, lon):
    return round_e7(lat), round_e7(lon)


def polar_ring(centre, radii_m, start_azimuth=0.0, clockwise=False):
    """A ring whose vertex k lies at geodesic distance radii_m[k] from the centre, at evenly spaced azimuths."""
    count = len(radii_m)
    ring = []
    for k, radius in enumerate(radii_m):
        azimuth = start_azimuth + (-1 if clockwise else 1) * 360.0 * k / count
        # Azimuth grows clockwise; ring order counter-clockwise in (lon, lat) means decreasing azimuth.
        ring.append(e7_point(*destination(centre[0], centre[1], -azimuth, radius)))
    return drop_repeats(ring, closed=True)


def drop_repeats(ring, closed):
    """The ring without consecutive repeated vertices (and, closed, without a last vertex equal to the first)."""
    out = []
    for p in ring:
        if not out or out[-1] != p:
            out.append(p)
    while closed and len(out) > 1 and out[-1] == out[0]:
        out.pop()
    return out


def offset_e7(origin, north_m, east_m):
    east, north = metres_per_degree(origin[0] / E7)
    return origin[0] + round_e7(north_m / north), origin[1] + round_e7(east_m / east)


def synthetic_shapes(rng):
    """(shape, probe plan) pairs of the committed fixture; the plan is the probe counts for polygon_probes or
    corridor_probes."""
    shapes = []

    def polygon(name, rings, plan):
        shapes.append((Shape(name, "polygon", rings), plan))

    # A 1 km square, axis-aligned in lon/lat: horizontal and vertical edges.
    paris = e7_point(48.8566, 2.3522)
    square = [offset_e7(paris, -500, -500), offset_e7(paris, -500, 500), offset_e7(paris, 500, 500),
              offset_e7(paris, 500, -500)]
    polygon("square_1km", [square], (250, 16, 4, 0, 60))

    # A concave star of 50 vertices, clockwise.
    tokyo = (35.6812, 139.7671)
    polygon("star_50", [polar_ring(tokyo, [2000.0 if k % 2 == 0 else 800.0 for k in range(50)], 3.0, True)],
            (300, 30, 24, 0, 40))

    # Two holes: one clockwise, one counter-clockwise like the outer ring.
    sydney = (-33.8688, 151.2093)
    outer = polar_ring(sydney, [3000, 3400, 2800, 3600, 3100, 2900, 3500, 3200], 10.0)
    hole_a = polar_ring(destination(*sydney, 45.0, 1200.0), [500, 500, 500, 500], 45.0, True)
    hole_b = polar_ring(destination(*sydney, 225.0, 1300.0), [600, 600, 600], 0.0)
    polygon("two_holes", [outer, hole_a, hole_b], (300, 24, 15, 40, 40))

    # A sliver 2 m wide and 2 km long, diagonal.
    amsterdam = (52.3702, 4.8952)
    far = destination(*amsterdam, 30.0, 2000.0)
    sliver = [e7_point(*destination(*amsterdam, 120.0, 1.0)), e7_point(*destination(*far, 120.0, 1.0)),
              e7_point(*destination(*far, 300.0, 1.0)), e7_point(*destination(*amsterdam, 300.0, 1.0))]
    polygon("sliver_2m", [sliver], (200, 20, 4, 0, 40))

    # A wiggly ring of 2,000 vertices, about 20 km across (star-shaped about its centre, so simple).
    madrid = (40.4168, -3.7038)
    wiggly_radii = [10_000.0 * (1.0 + 0.08 * math.sin(5 * a) + 0.03 * math.sin(23 * a)) + rng.uniform(-20.0, 20.0)
                    for a in (2.0 * math.pi * k / 2000 for k in range(2000))]
    polygon("wiggly_2000", [polar_ring(madrid, wiggly_radii)], (300, 40, 24, 0, 40))

    # At 60 degrees south.
    south = (-60.5, -45.0)
    polygon("south_60", [polar_ring(south, [5000, 4200, 5600, 3000, 4800, 5200, 4400], 20.0)], (200, 20, 7, 0, 30))

    # Near the antimeridian, not crossing it.
    fiji = [e7_point(-17.0, 179.90), e7_point(-17.0, 179.99), e7_point(-16.96, 179.985), e7_point(-16.93, 179.99),
            e7_point(-16.90, 179.95), e7_point(-16.93, 179.91)]
    polygon("antimeridian_179_9", [fiji], (200, 20, 6, 0, 30))

    # A 10 m triangle.
    singapore = (1.2903, 103.8519)
    polygon("triangle_10m", [polar_ring(singapore, [5.8, 5.8, 5.8], 17.0)], (200, 3, 3, 0, 30))

    # A 500 km polygon with long edges (about 130 km), where lon/lat-straight edges bend away from geodesics.
    polygon("large_500km", [polar_ring((45.0, 10.0), [250_000, 230_000, 260_000, 200_000, 240_000, 250_000,
                                                     220_000, 255_000, 245_000, 210_000, 250_000, 235_000], 5.0)],
            (250, 12, 12, 0, 40))

    # A rectilinear comb: horizontal and vertical edges, vertices sharing latitudes and longitudes, collinear
    # vertices in the middle of edges.
    london = e7_point(51.5072, -0.1276)
    u = 400  # e7 units, about 44 m of latitude
    steps = [(0, 0), (0, 2), (0, 4), (6, 4), (6, 6), (2, 6), (2, 8), (6, 8), (6, 10), (2, 10), (2, 12), (6, 12),
             (6, 14), (8, 14), (8, 0), (4, 0), (2, 0)]
    comb = [(london[0] + u * a, london[1] + u * b) for a, b in steps]
    polygon("rectilinear_comb", [comb], (250, 20, 17, 0, 120))

    # Collinear vertices on diagonal edges, a hole whose vertices share the outer ring's latitudes.
    berlin = e7_point(52.5200, 13.4050)
    v = 1000
    outer_c = [(berlin[0] + v * a, berlin[1] + v * b) for a, b in
               [(0, 0), (0, 4), (0, 8), (4, 12), (8, 16), (12, 12), (16, 8), (16, 4), (16, 0), (12, 0), (8, 0),
                (4, 0)]]
    hole_c = [(berlin[0] + v * a, berlin[1] + v * b) for a, b in [(4, 4), (8, 4), (12, 4), (12, 8), (8, 8), (4, 8)]]
    polygon("collinear_hole", [outer_c, hole_c], (250, 20, 18, 30, 120))

    def corridor(name, path, width_mm, plan):
        shapes.append((Shape(name, "corridor", [path], width_mm), plan))

    # A straight road of three collinear vertices (exactly collinear in e7), W = 10 m.
    munich = e7_point(48.1371, 11.5754)
    road = [munich, (munich[0] + 30_000, munich[1] + 45_000), (munich[0] + 60_000, munich[1] + 90_000)]
    corridor("road_straight_3", road, 10_000, (150, 100, 2, 1))

    # A zig-zag with sharp turns (about 150 degrees), W = 25 m.
    zig_origin = (47.3769, 8.5417)
    zig = [zig_origin]
    for k in range(8):
        zig.append(destination(*zig[-1], 90.0 + (75.0 if k % 2 == 0 else -75.0), 200.0))
    corridor("zigzag_sharp", drop_repeats([e7_point(*p) for p in zig], closed=False), 25_000, (150, 150, 8, 7))

    # A 100 km route of 500 vertices, W = 50 m.
    route = [(39.4699, -0.3763)]
    heading = 20.0
    for _ in range(499):
        heading += rng.uniform(-25.0, 25.0)
        route.append(destination(*route[-1], heading, 200.0))
    corridor("route_100km", drop_repeats([e7_point(*p) for p in route], closed=False), 50_000, (200, 250, 40, 40))

    # A U-turn: out 1 km east, 30 m north, back 1 km west; the two legs' bands overlap (W = 20 m).
    vienna = e7_point(48.2082, 16.3738)
    uturn = [vienna, offset_e7(vienna, 0, 1000), offset_e7(vienna, 30, 1000), offset_e7(vienna, 30, 0)]
    corridor("u_turn", uturn, 20_000, (150, 150, 3, 2))
    return shapes


def generate_synthetic(rng, minimiser):
    shapes = []
    for shape, plan in synthetic_shapes(rng):
        started = time.monotonic()
        if shape.kind == "polygon":
            polygon_probes(shape, rng, minimiser, *plan)
        else:
            corridor_probes(shape, rng, minimiser, *plan)
        print(f"  {shape.name}: {len(shape.points)} points, {time.monotonic() - started:.1f} s", file=sys.stderr)
        shapes.append(shape)
    return shapes


# ---------------------------------------------------------------------------------------------------------------
# GeoJSON


def geojson_shapes(path, feature_indices):
    """Shapes from the Polygon and MultiPolygon features of a GeoJSON file (see the module docstring)."""
    with open(path, encoding="utf-8") as source:
        document = json.load(source)
    features = document.get("features")
    if not isinstance(features, list):
        raise ValueError(f"{path}: no 'features' array (a FeatureCollection is expected)")
    chosen = feature_indices if feature_indices is not None else range(len(features))
    shapes = []
    for index in chosen:
        if not 0 <= index < len(features):
            raise ValueError(f"{path}: feature {index} does not exist ({len(features)} features)")
        feature = features[index]
        geometry = feature.get("geometry") or {}
        name = str((feature.get("properties") or {}).get("name") or f"feature{index}")
        name = name.replace(",", " ").replace("\n", " ")
        if geometry.get("type") == "Polygon":
            polygons = [geometry["coordinates"]]
        elif geometry.get("type") == "MultiPolygon":
            polygons = geometry["coordinates"]
        else:
            print(f"{path}: feature {index} ({name}): geometry {geometry.get('type')} skipped", file=sys.stderr)
            continue
        for k, polygon in enumerate(polygons):
            rings = []
            for r, ring in enumerate(polygon):
                cleaned = drop_repeats([e7_point(lat, lon) for lon, lat, *_ in ring], closed=True)
                if len(cleaned) < 3:
                    print(f"{path}: feature {index} ({name}) polygon {k} ring {r}: fewer than 3 distinct vertices "
                          "after rounding to e7, dropped", file=sys.stderr)
                    if r == 0:
                        break
                    continue
                rings.append(cleaned)
            if rings and len(polygon[0]) >= 4:
                try:
                    shapes.append(Shape(f"{name}#{k}", "polygon", rings))
                except ValueError as error:
                    raise ValueError(f"{path}: feature {index}: {error}") from None
    return shapes


def share_points(shapes, total):
    """Probe counts per shape in proportion to their vertex counts (largest remainder)."""
    weights = [sum(len(ring) for ring in shape.rings) for shape in shapes]
    whole = sum(weights)
    exact = [total * w / whole for w in weights]
    counts = [int(x) for x in exact]
    order = sorted(range(len(shapes)), key=lambda i: exact[i] - counts[i], reverse=True)
    for i in order[:total - sum(counts)]:
        counts[i] += 1
    return counts


def geojson_probes(shape, rng, minimiser, count):
    """count probes: 40 % random in the box and margin, 40 % on edge normals, 20 % near vertices."""
    if count == 0:
        return
    bbox = shape.bbox_e7()
    margin = box_margin_deg(bbox, 100.0)
    corners = [(k, i) for k, ring in enumerate(shape.rings) for i in range(len(ring))]
    attempts = 0
    while len(shape.points) < count and attempts < 20 * count:
        attempts += 1
        kind = rng.random()
        if kind < 0.4:
            shape.add(*random_in_box(rng, bbox, margin), "random", minimiser)
        elif kind < 0.8:
            edge = rng.choice(shape.edges)
            offset = rng.choice(NORMAL_OFFSETS_M)
            edge_normal_probes(shape, edge, rng.uniform(0.0, 1.0), (offset,), rng.choice((1, -1)), minimiser)
        else:
            k, i = rng.choice(corners)
            (lat, lon), to_prev, to_next = vertex_directions(shape.rings[k], i, True)
            half = bisector(to_prev, to_next)
            azimuth = rng.choice((half, half + 180.0, to_prev + 180.0, to_next + 180.0))
            shape.add(*destination(lat, lon, azimuth, rng.choice(VERTEX_OFFSETS_M)),
                      corner_category(shape.rings[k], i, k), minimiser)


# ---------------------------------------------------------------------------------------------------------------
# Output


def category_counts(shape):
    counts = {}
    for record in shape.points:
        counts[record[4]] = counts.get(record[4], 0) + 1
    return counts


def render(shapes, source_line):
    lines = ["# Polygon and corridor accuracy vectors: WGS-84 geodesic (Karney, geographiclib) distance to edges",
             "# that are straight in lon/lat; exact even-odd point-in-polygon in e7. Written by",
             f"# scripts/gen_polygon_vectors.py ({source_line}); see its docstring for the model and the format.",
             "# shape,<name>,polygon,0 | shape,<name>,corridor,<half_width_mm>",
             "# ring,<lat_e7>,<lon_e7>,... | path,<lat_e7>,<lon_e7>,...",
             "# point,<lat_e7>,<lon_e7>,<inside 0|1>,<signed_distance_mm>"]
    for shape in shapes:
        lines.append(f"shape,{shape.name},{shape.kind},{shape.half_width_mm}")
        tag = "ring" if shape.kind == "polygon" else "path"
        for ring in shape.rings:
            lines.append(tag + "," + ",".join(f"{lat},{lon}" for lat, lon in ring))
        counts = category_counts(shape)
        lines.append("# " + ", ".join(f"{name} {counts[name]}" for name in sorted(counts)))
        for lat, lon, inside, signed, _, _ in shape.points:
            lines.append(f"point,{lat},{lon},{1 if inside else 0},{rounded_mm(signed)}")
    return "\n".join(lines) + "\n"


def summary(shapes, minimiser, elapsed):
    totals = {}
    for shape in shapes:
        for name, n in category_counts(shape).items():
            totals[name] = totals.get(name, 0) + n
    points = sum(len(s.points) for s in shapes)
    inside = sum(1 for s in shapes for p in s.points if p[2])
    print(f"{len(shapes)} shapes ({sum(s.kind == 'polygon' for s in shapes)} polygons), {points} points "
          f"({inside} inside); " + ", ".join(f"{k} {v}" for k, v in sorted(totals.items())))
    print(f"geodesic evaluations {minimiser.evaluations}, largest minimiser bound "
          f"{minimiser.largest_bound_m * 1000.0:.6f} mm, {elapsed:.1f} s")


# ---------------------------------------------------------------------------------------------------------------
# Self-test


def golden_minimum(plat, plon, edge, lo, hi, tolerance_t):
    """The minimum of f on [lo, hi] by golden-section search (assumes unimodal on the interval)."""
    ratio = (math.sqrt(5.0) - 1.0) / 2.0
    c, d = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    fc, fd = geodesic_m(plat, plon, *edge.at(c)), geodesic_m(plat, plon, *edge.at(d))
    while hi - lo > tolerance_t:
        if fc < fd:
            hi, d, fd = d, c, fc
            c = hi - ratio * (hi - lo)
            fc = geodesic_m(plat, plon, *edge.at(c))
        else:
            lo, c, fc = c, d, fd
            d = lo + ratio * (hi - lo)
            fd = geodesic_m(plat, plon, *edge.at(d))
    return min(fc, fd, geodesic_m(plat, plon, *edge.at(lo)), geodesic_m(plat, plon, *edge.at(hi)))


def self_test(shapes, sample_every):
    """Checks the emitted points (see the module docstring); returns the number of failures."""
    failures = 0
    started = time.monotonic()
    # 1. Exact point in polygon against the winding sum on a vertical ray.
    checked = disagreements = 0
    for shape in shapes:
        if shape.kind != "polygon":
            continue
        for lat, lon, inside, *_ in shape.points:
            checked += 1
            if (winding_sum_vertical((lat, lon), shape.rings) % 2 == 1) != inside:
                disagreements += 1
                print(f"  PIP disagreement: {shape.name} point ({lat}, {lon})", file=sys.stderr)
    print(f"self-test: point in polygon: {checked} points, {disagreements} disagreements (even-odd on a horizontal "
          "ray vs winding sum on a vertical ray)")
    failures += disagreements

    # 2. The edge minimiser against dense sampling and golden-section search; unimodality.
    minimiser = Minimiser()
    worst = worst_bound = 0.0
    pairs = multimodal = missed = 0
    worst_detail = ""
    for shape in shapes:
        for n, (lat, lon, *_rest) in enumerate(shape.points):
            if n % sample_every:
                continue
            plat, plon = lat / E7, lon / E7
            east, north = metres_per_degree(plat)
            nearest = sorted(shape.edges, key=lambda e: planar_guess(plat, plon, e, east, north)[1])[:2]
            for edge in nearest:
                pairs += 1
                t_guess, _ = planar_guess(plat, plon, edge, east, north)
                distance, bound = minimiser.edge_distance(plat, plon, edge, t_guess)
                samples = [geodesic_m(plat, plon, *edge.at(k / 256.0)) for k in range(257)]
                minima = [k for k in range(1, 256) if samples[k] < samples[k - 1] - 1e-9
                          and samples[k] < samples[k + 1] - 1e-9]
                if len(minima) > 1:
                    multimodal += 1
                k = min(range(257), key=samples.__getitem__)
                reference = min(samples[k], golden_minimum(plat, plon, edge, max(0.0, (k - 1) / 256.0),
                                                           min(1.0, (k + 1) / 256.0), 1e-9 / edge.speed_max))
                difference = distance - reference
                if difference < -1e-7 or difference > bound + 1e-7:
                    missed += 1
                    print(f"  minimiser off: {shape.name} ({lat}, {lon}) edge {edge.a}-{edge.b}: {distance} vs "
                          f"{reference}, bound {bound}", file=sys.stderr)
                if abs(difference) > abs(worst):
                    worst, worst_bound = difference, bound
                    worst_detail = f"{shape.name} ({lat}, {lon})"
    print(f"self-test: edge minimiser: {pairs} point-edge pairs, largest difference to dense sampling + golden "
          f"section {worst * 1000.0:+.6f} mm (its bound {worst_bound * 1000.0:.6f} mm, {worst_detail}), "
          f"{multimodal} multimodal, {missed} outside the bound")
    failures += missed + multimodal

    # 3. Branch and bound against a scan of every edge that a shape-wide bound cannot rule out (metres per degree
    # at least those at 2 degrees beyond the shape's extreme latitudes, and at least M_min: no grid, no band).
    scanned = off = 0
    worst_scan = 0.0
    for shape in shapes:
        lat_lo, lat_hi, _, _ = shape.bbox_e7()
        east_min, _ = smallest_metres_per_degree(lat_lo / E7 - 2.0, lat_hi / E7 + 2.0)
        north_min = MERIDIONAL_RADIUS_MIN_M * RADIANS_PER_DEGREE * (1.0 - 1e-9)
        for n, (lat, lon, _inside, signed, _category, bound) in enumerate(shape.points):
            if n % sample_every:
                continue
            plat, plon = lat / E7, lon / E7
            east, north = metres_per_degree(plat)
            distance = abs(signed) if shape.kind == "polygon" else signed + shape.half_width_mm / 1000.0
            full = math.inf
            for e in shape.edges:
                if planar_guess(plat, plon, e, east_min, north_min)[1] <= distance + 1.0:
                    full = min(full, minimiser.edge_distance(plat, plon, e,
                                                             planar_guess(plat, plon, e, east, north)[0])[0])
            scanned += 1
            worst_scan = max(worst_scan, abs(distance - full))
            if abs(distance - full) > 2 * MINIMISER_TOLERANCE_M:
                off += 1
                print(f"  prefilter missed: {shape.name} ({lat}, {lon}): {distance} vs scan {full}", file=sys.stderr)
    print(f"self-test: prefilter: {scanned} points against a scan of every edge, largest difference "
          f"{worst_scan * 1000.0:.6f} mm, {off} off")
    failures += off

    # 4. Along each normal: monotone while the seeded foot is the nearest point, and 1-Lipschitz throughout.
    series_count = monotone_breaks = lipschitz_breaks = 0
    for shape in shapes:
        for entries in shape.series.values():
            entries.sort()
            series_count += 1
            for (o1, la1, lo1, d1, foot1), (o2, la2, lo2, d2, _) in zip(entries, entries[1:]):
                own1 = geodesic_m(la1 / E7, lo1 / E7, *foot1)
                own2 = geodesic_m(la2 / E7, lo2 / E7, *foot1)
                if abs(d1 - own1) < 1e-3 and abs(d2 - own2) < 1e-3 and d2 < d1 - 1e-7:
                    monotone_breaks += 1
                    print(f"  not monotone: {shape.name} ({la1}, {lo1}) {d1} then ({la2}, {lo2}) {d2}",
                          file=sys.stderr)
                if abs(d2 - d1) > geodesic_m(la1 / E7, lo1 / E7, la2 / E7, lo2 / E7) + 2 * MINIMISER_TOLERANCE_M:
                    lipschitz_breaks += 1
                    print(f"  not 1-Lipschitz: {shape.name} ({la1}, {lo1}) and ({la2}, {lo2})", file=sys.stderr)
    print(f"self-test: normals: {series_count} series, {monotone_breaks} not monotone, {lipschitz_breaks} not "
          "1-Lipschitz")
    failures += monotone_breaks + lipschitz_breaks
    print(f"self-test: {time.monotonic() - started:.1f} s, {'FAILED' if failures else 'passed'}")
    return failures


# ---------------------------------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--geojson", help="GeoJSON FeatureCollection of Polygon/MultiPolygon features")
    parser.add_argument("--features", help="comma-separated 0-based feature indices (default: all)")
    parser.add_argument("--points", type=int, default=2000, help="probes in total for --geojson (default 2000)")
    parser.add_argument("--output", help="output file (default: the committed fixture; required with --geojson)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--self-test", action="store_true", help="check the emitted points (see the docstring)")
    parser.add_argument("--sample-every", type=int, default=10, help="self-test: minimiser check on every n-th point")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    minimiser = Minimiser()
    started = time.monotonic()
    if args.geojson:
        if not args.output:
            parser.error("--geojson needs --output")
        try:
            indices = None if not args.features else [int(x) for x in args.features.split(",")]
        except ValueError:
            parser.error(f"--features {args.features!r}: comma-separated integers expected")
        if args.points < 0:
            parser.error(f"--points {args.points}: must not be negative")
        try:
            shapes = geojson_shapes(args.geojson, indices)
        except (OSError, ValueError) as error:
            raise SystemExit(str(error))
        except (KeyError, TypeError, IndexError) as error:
            raise SystemExit(f"{args.geojson}: malformed geometry ({type(error).__name__}: {error})")
        if not shapes:
            raise SystemExit(f"{args.geojson}: no polygons in the chosen features")
        for shape, count in zip(shapes, share_points(shapes, args.points)):
            geojson_probes(shape, rng, minimiser, count)
        source_line = (f"from {os.path.basename(args.geojson)}, features {args.features or 'all'}, "
                       f"{args.points} points, seed {args.seed}")
        output = args.output
    else:
        shapes = generate_synthetic(rng, minimiser)
        source_line = f"synthetic shapes, seed {args.seed}"
        output = args.output or OUTPUT
    elapsed = time.monotonic() - started
    text = render(shapes, source_line)
    directory = os.path.dirname(os.path.abspath(output))
    os.makedirs(directory, exist_ok=True)
    with open(output, "w", newline="\n", encoding="utf-8") as sink:
        sink.write(text)
    size = len(text.encode("utf-8"))
    print(f"{os.path.normpath(output)}: {size} bytes")
    summary(shapes, minimiser, elapsed)
    if not args.geojson and size > SIZE_LIMIT_BYTES:
        raise SystemExit(f"fixture is {size} bytes, over the {SIZE_LIMIT_BYTES} byte limit")
    if args.self_test and self_test(shapes, args.sample_every):
        raise SystemExit(1)


if __name__ == "__main__":
    main()
