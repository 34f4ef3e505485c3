#!/usr/bin/env python3
"""Generates CSources/gf_tables.c: the per-degree Taylor tables behind the core's integer-only ECEF conversion.

Run from the repository root:  pip install mpmath && python3 scripts/gen_tables.py > CSources/gf_tables.c
The output is committed; the C build never runs this script. The tests check the tables indirectly (accuracy fixture).

What the tables hold
--------------------
For an angle x in 1e-7 degree ("e7") the core picks the nearest whole degree x0 and evaluates

    f(x0 + delta) = c0 + c1*t + c2*t^2 + c3*t^3 + c4*t^4,    t = delta / 2^23,   |delta| <= 5e6 e7 (0.5 degree)

with Horner's rule in int64, where c_k = f^(k)(x0) / k! * u^k and u = 2^23 e7 in radians (0.01464 rad).
Because |t| <= 0.596, the first omitted term is below |f^(5)| * (0.5 deg in rad)^5 / 120 = 4.2e-13 * max|f^(5)|.

Functions and units:
    RHO[i]  rho(phi)  = a cos(phi) / W          (distance from the polar axis)   units 2^-20 m, phi = i - 90 deg
    ZETA[i] zeta(phi) = a (1 - e^2) sin(phi) / W (height above the equator plane) units 2^-20 m, phi = i - 90 deg
    COS[i], SIN[i]  cos(x), sin(x)                                                units 2^-40,   x  = i - 180 deg
with W = sqrt(1 - e^2 sin^2 phi), WGS-84 a = 6378137 m, f = 1/298.257223563.
Truncation error: <= 2.7e-6 m for RHO/ZETA (a * 4.2e-13 * 6.4e6 / 6.4e6 scale), <= 4.3e-13 for COS/SIN;
coefficient rounding adds <= 0.5 unit each. Both are far below the 2^-8 m grid the ECEF is finally rounded to.
"""
import mpmath as mp

mp.mp.dps = 50

A = mp.mpf(6378137)
F = 1 / mp.mpf("298.257223563")
E2 = F * (2 - F)
U = mp.mpf(2) ** 23 * mp.mpf("1e-7") * mp.pi / 180  # radians per unit of t


def rho(phi):
    return A * mp.cos(phi) / mp.sqrt(1 - E2 * mp.sin(phi) ** 2)


def zeta(phi):
    return A * (1 - E2) * mp.sin(phi) / mp.sqrt(1 - E2 * mp.sin(phi) ** 2)


def coefficients(func, x0_deg, scale):
    """Taylor coefficients of func around x0 (degrees) in the variable t, scaled and rounded to integers."""
    x0 = mp.radians(x0_deg)
    derivs = mp.taylor(func, x0, 4)  # f^(k)(x0) / k!
    return [int(mp.nint(d * U**k * scale)) for k, d in enumerate(derivs)]


def table(name, func, first_deg, last_deg, scale, comment):
    rows = []
    for deg in range(first_deg, last_deg + 1):
        c = coefficients(func, deg, scale)
        rows.append("    {" + ", ".join(f"{v}LL" for v in c) + "}, /* " + f"{deg:+d} */")
    count = last_deg - first_deg + 1
    return (f"/* {comment} */\nconst int64_t {name}[{count}][5] = {{\n" + "\n".join(rows) + "\n};\n")


def lon_reach_table():
    """Longitude extent per mm, as e7 * 2^24, for |lat| within half a degree of row i (0..90).

    A point within distance d of one at latitude phi differs in longitude by at most d / (a cos(phi_edge)) radians
    (the distance from the polar axis is N cos >= a cos), phi_edge = the box's poleward latitude. The core's boxes
    reach at most 0.4525 deg of latitude (50 km plus slack), so row i (|lat| <= i + 0.5) has phi_edge < i + 1 deg:
    the factor uses cos(i + 1 deg), rounded up. Rows whose edge reaches 89.5 deg are 0: the box covers all longitudes.
    """
    rows = []
    for i in range(0, 91):
        edge = i + 1
        if edge >= 89.5:
            value = 0
        else:
            per_mm = mp.mpf("1e-3") / (A * mp.cos(mp.radians(edge))) * 180 / mp.pi * mp.mpf("1e7")
            value = int(mp.ceil(per_mm * 2**24))
        rows.append(f"    {value}LL, /* {i} */")
    return ("/* Longitude extent per mm as e7 * 2^24 for |lat| rounded to the degree i; 0 = all longitudes. */\n"
            "const int64_t gf__lon_per_mm_table[91] = {\n" + "\n".join(rows) + "\n};\n")


def isqrt_seed_table():
    """Seeds for the integer square root (gf__isqrt): row j holds round(sqrt((j + 128) * 2^55)), j = 0 .. 384, the
    last capped at 2^32 - 1 (its root, 2^32, does not fit 32 bits).

    gf__isqrt shifts its argument v left by an even count until n = v << shift lies in [2^62, 2^64); the top 9 bits
    i = n >> 55 then lie in 128 .. 511, and the seed interpolates linearly between rows i - 128 and i - 127 by the next
    16 bits of n. sqrt is concave, so the chord lies below it by at most h^2 / 8 * |sqrt''| = 2^110 / 8 / (4 n^1.5)
    <= 2^12 (at n = 2^62: 2^-19 of the root); the rows' rounding, the 16-bit fraction and the cap add a few units
    (2^7 for the fraction), so the seed is within 2^-18.9 of sqrt(n). One Newton step takes that to under one unit of
    a 32-bit root. Every row is below 2^32, so the table is uint32.
    """
    rows = []
    for j in range(385):
        value = int(mp.nint(mp.sqrt(mp.mpf(j + 128) * mp.mpf(2) ** 55)))
        value = min(value, 2**32 - 1)
        assert 2**31 <= value < 2**32
        rows.append(f"{value}u,")
    lines = ["    " + " ".join(rows[k:k + 8]) for k in range(0, len(rows), 8)]
    return ("/* Integer square root seeds: row j is round(sqrt((j + 128) * 2^55)), j = 0 .. 384, the last capped at\n"
            " * 2^32 - 1. */\n"
            "const uint32_t gf__isqrt_seed_table[385] = {\n" + "\n".join(lines) + "\n};\n")


def main():
    out = [
        "/* gf_tables.c -- GENERATED by scripts/gen_tables.py; do not edit. See that script for the method and the\n"
        " * error bounds: f(x0 + delta) = sum c[k] * (delta / 2^23)^k, delta in 1e-7 degree, |delta| <= 5e6. */\n",
        '#include "gf_internal.h"\n',
        table("gf__rho_table", rho, -90, 90, mp.mpf(2) ** 20,
              "rho(phi) = a cos(phi) / W, units 2^-20 m, row i is phi = i - 90 degrees"),
        table("gf__zeta_table", zeta, -90, 90, mp.mpf(2) ** 20,
              "zeta(phi) = a (1 - e^2) sin(phi) / W, units 2^-20 m, row i is phi = i - 90 degrees"),
        table("gf__cos_table", mp.cos, -180, 180, mp.mpf(2) ** 40,
              "cos(x), units 2^-40, row i is x = i - 180 degrees"),
        table("gf__sin_table", mp.sin, -180, 180, mp.mpf(2) ** 40,
              "sin(x), units 2^-40, row i is x = i - 180 degrees"),
        lon_reach_table(),
        isqrt_seed_table(),
    ]
    print("\n".join(out), end="")


if __name__ == "__main__":
    main()
