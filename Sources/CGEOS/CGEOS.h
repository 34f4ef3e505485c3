// CGEOS: the reentrant (_r) half of GEOS's C API; the non-reentrant half uses a global context.
#ifndef CGEOS_H
#define CGEOS_H

#define GEOS_USE_ONLY_R_API
#include <geos_c.h>

#endif
