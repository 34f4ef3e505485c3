#!/usr/bin/env python3
"""Generates Tests/CGeofenceTests/Fixtures/accuracy_vectors.csv, the accuracy fixture of the C core.

Each row is a fence (centre, radius) and a probe point, with the WGS-84 geodesic distance between them computed by
Karney's algorithm (geographiclib). The Swift tests compare the core's integer distance and its inside/outside
classification against that reference, using the band b(r) = 20 mm + r / 10000 of include/geofence.h.

Both points are rounded to whole 1e-7 degree units *before* the reference distance is computed, so the fixture
measures only the core's arithmetic and never the rounding of the input.

Deterministic: a fixed seed, and every row depends only on it. Run from anywhere:
    python3 scripts/gen_accuracy_vectors.py
"""

import math
import os
import random

from geographiclib.geodesic import Geodesic

SEED = 20251129
OUTPUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                      "Tests", "CGeofenceTests", "Fixtures", "accuracy_vectors.csv")
HEADER = "case,centre_lat_e7,centre_lon_e7,radius_mm,probe_lat_e7,probe_lon_e7,geodesic_mm"
SIZE_LIMIT_BYTES = 900 * 1024

E7 = 10_000_000
RADII_MM = [1_000, 2_500, 10_000, 100_000, 1_000_000, 10_000_000, 50_000_000]
FIXED_AZIMUTHS = [0, 45, 90, 135, 180, 225, 270, 315]
RANDOM_AZIMUTHS_PER_CENTRE = 4
RANDOM_ROWS = 2000

# How far past the band edge the two "just outside the band" probes sit, and how far they may be pushed further out
# when rounding the probe to e7 drops them back inside the band (rounding moves a point by up to 7.9 mm).
OUTSIDE_BAND_GAP_MM = 2.0
OUTSIDE_BAND_PUSH_LIMIT_MM = 40.0

WGS84 = Geodesic.WGS84


def band_mm(radius_mm):
    """The accuracy band of include/geofence.h: classification may differ from the geodesic within it."""
    return 20.0 + radius_mm / 10_000.0


def round_e7(degrees):
    """Degrees to whole 1e-7 degree units, nearest, ties away from zero (the core's rule)."""
    scaled = abs(degrees) * E7
    units = int(math.floor(scaled + 0.5))
    return units if degrees >= 0 else -units


def normalised_lon_e7(lon_deg):
    """A longitude as e7 in [-1800000000, 1800000000): +180 and -180 are one meridian, written as -180."""
    wrapped = (lon_deg + 180.0) % 360.0 - 180.0
    units = round_e7(wrapped)
    return -180 * E7 if units == 180 * E7 else units


def geodesic_mm(lat1_e7, lon1_e7, lat2_e7, lon2_e7):
    """Karney's WGS-84 geodesic distance between two e7 points, in millimetres."""
    result = WGS84.Inverse(lat1_e7 / E7, lon1_e7 / E7, lat2_e7 / E7, lon2_e7 / E7, Geodesic.DISTANCE)
    return result["s12"] * 1000.0


def probe_at(centre, distance_mm, azimuth_deg):
    """The e7 point at a geodesic distance and azimuth from an e7 centre, and its geodesic distance once rounded."""
    lat_e7, lon_e7 = centre
    result = WGS84.Direct(lat_e7 / E7, lon_e7 / E7, azimuth_deg, distance_mm / 1000.0, Geodesic.LATITUDE | Geodesic.LONGITUDE)
    probe = (round_e7(result["lat2"]), normalised_lon_e7(result["lon2"]))
    return probe, geodesic_mm(lat_e7, lon_e7, probe[0], probe[1])


def probe_outside_band(centre, radius_mm, azimuth_deg, side):
    """A probe just outside the band on one side (side -1: inside the fence, +1: outside), still outside it after
    rounding to e7, so the classification check always applies to it."""
    band = band_mm(radius_mm)
    edge = radius_mm + side * band
    push = 0.0
    while True:
        probe, distance = probe_at(centre, edge + side * (OUTSIDE_BAND_GAP_MM + push), azimuth_deg)
        if side * (distance - edge) >= 0.0:
            return probe, distance
        push += 1.0
        if push > OUTSIDE_BAND_PUSH_LIMIT_MM:
            raise RuntimeError(f"cannot place a probe outside the band: {centre} r={radius_mm} az={azimuth_deg}")


def crosses_antimeridian(centre, probe):
    """Whether the short way from centre to probe crosses +-180 degrees (or either point lies on it)."""
    on_it = -180 * E7 in (centre[1], probe[1])
    return on_it or abs(centre[1] - probe[1]) > 180 * E7


def row(case, centre, radius_mm, probe, distance_mm):
    if case != "centre" and crosses_antimeridian(centre, probe):
        case = "antimeridian"
    return f"{case},{centre[0]},{centre[1]},{radius_mm},{probe[0]},{probe[1]},{distance_mm:.3f}"


def ring_rows(centre, radius_mm, azimuths):
    """The centre itself, then per azimuth: just inside the band, within it (both halves and the boundary), just
    outside it, and halfway to the centre."""
    rows = [row("centre", centre, radius_mm, centre, geodesic_mm(*centre, *centre))]
    band = band_mm(radius_mm)
    for azimuth in azimuths:
        probe, distance = probe_outside_band(centre, radius_mm, azimuth, -1)
        rows.append(row("ring", centre, radius_mm, probe, distance))
        for target in (radius_mm - band / 2, radius_mm, radius_mm + band / 2, radius_mm / 2):
            probe, distance = probe_at(centre, target, azimuth)
            rows.append(row("ring", centre, radius_mm, probe, distance))
        probe, distance = probe_outside_band(centre, radius_mm, azimuth, +1)
        rows.append(row("ring", centre, radius_mm, probe, distance))
    return rows


def structured_centres():
    """(lat_deg, lon_deg): every latitude band of both hemispheres, each paired with a longitude from an assorted
    list that includes the prime meridian and the antimeridian (on it, just either side of it, and far enough from it
    that only the larger discs straddle it)."""
    latitudes = [0, 1, -1, 15, -15, 30, -30, 45, -45, 60, -60, 75, -75, 80, -80, 85, -85]
    longitudes = [180.0, 0.0, 179.99999, -179.99999, 153.0281038, 179.8, -0.0000001, -122.4194155, -179.7, 13.404954]
    centres = [(lat, longitudes[index % len(longitudes)]) for index, lat in enumerate(latitudes)]
    # The antimeridian at the highest fence latitudes, where a 50 km disc spans several degrees of longitude.
    centres.append((85, 180.0))
    centres.append((-84.9999999, -179.5))
    return centres


def structured_rows(rng):
    rows = []
    for lat, lon in structured_centres():
        centre = (round_e7(lat), normalised_lon_e7(lon))
        azimuths = FIXED_AZIMUTHS + [rng.uniform(0.0, 360.0) for _ in range(RANDOM_AZIMUTHS_PER_CENTRE)]
        for radius_mm in RADII_MM:
            rows.extend(ring_rows(centre, radius_mm, azimuths))
    return rows


def random_rows(rng):
    """Random fences anywhere a centre may be, random radii (log-uniform, so small fences get their share) and a
    random probe within twice the radius."""
    rows = []
    for _ in range(RANDOM_ROWS):
        centre = (round_e7(rng.uniform(-85.0, 85.0)), normalised_lon_e7(rng.uniform(-180.0, 180.0)))
        radius_mm = int(round(math.exp(rng.uniform(math.log(RADII_MM[0]), math.log(RADII_MM[-1])))))
        probe, distance = probe_at(centre, rng.uniform(0.0, 2.0 * radius_mm), rng.uniform(0.0, 360.0))
        rows.append(row("random", centre, radius_mm, probe, distance))
    return rows


def main():
    rng = random.Random(SEED)
    rows = structured_rows(rng) + random_rows(rng)
    text = HEADER + "\n" + "\n".join(rows) + "\n"
    os.makedirs(os.path.dirname(OUTPUT), exist_ok=True)
    with open(OUTPUT, "w", newline="\n") as output:
        output.write(text)
    size = len(text.encode("ascii"))
    print(f"{os.path.normpath(OUTPUT)}: {len(rows)} rows, {size} bytes")
    if size > SIZE_LIMIT_BYTES:
        raise SystemExit(f"fixture is {size} bytes, over the {SIZE_LIMIT_BYTES} byte limit")


if __name__ == "__main__":
    main()
