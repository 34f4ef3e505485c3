/*
 * shape_oracle.h -- the fuzzer's brute-force model of polygons and corridors (shape_oracle.c), sharing no code with
 * the core: even-odd point-in-polygon on the e7 integers and point-to-edge distances by golden-section search along
 * each edge, in double precision, with the DISTANCE formula of geofence.h (WGS-84 ECEF chord c, s = c + c^3 / 24R^2).
 */
#ifndef FUZZ_SHAPE_ORACLE_H
#define FUZZ_SHAPE_ORACLE_H

#include "geofence.h"

#include <stdint.h>

/* Small shapes: enough vertices for concave rings, holes and U-turns, few enough that the brute force after every
 * query stays cheap. */
enum { FZ_VERTICES_MAX = 32, FZ_RINGS_MAX = 3 };

/* A polygon (half_width_mm 0; ring r is v[ring_ends[r - 1] .. ring_ends[r]), closed implicitly) or a corridor (one
 * ring: its path, half_width_mm > 0), exactly as given to gf_polygon_add / gf_corridor_add. */
typedef struct fz_shape {
    gf_point v[FZ_VERTICES_MAX];
    uint32_t ring_ends[FZ_RINGS_MAX];
    uint32_t rings;
    uint32_t half_width_mm;
} fz_shape;

/* The chord formula's distance in mm between two WGS-84 points given in e7 (doubles, so points along an edge need
 * not be rounded); *chord_m, when not NULL, gets the chord in metres. */
double fz_distance_mm(double lat_a_e7, double lon_a_e7, double lat_b_e7, double lon_b_e7, double *chord_m);

/* Even-odd over the rings, exact: 1 inside, 0 outside, -1 exactly on an edge (where the core's tie rule decides). */
int fz_polygon_inside(const fz_shape *s, gf_point p);

/* A lower bound in mm on the distance from p to every edge: to the nearest point of the vertices' lon/lat box (taken
 * on p's side of the +-180 seam), less 3 % and a metre (the box's nearest point is the clamped one to within that for
 * the sizes and latitudes here). 0 when p is in the box. */
double fz_boundary_lower_mm(const fz_shape *s, gf_point p);

/* The distance in mm from p to the nearest point of any edge of non-zero length (a corridor: of its path). The search along an edge
 * assumes the distance is unimodal along it, true for edges and fixes within a few hundred km of each other. */
double fz_boundary_mm(const fz_shape *s, gf_point p);

#endif /* FUZZ_SHAPE_ORACLE_H */
