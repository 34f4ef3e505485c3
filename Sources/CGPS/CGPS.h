// CGPS: libgps, gpsd's client library, as GeofencingGPSD sees it. Built only with the GPSD package trait.
//
// Swift imports <gps.h> directly: the functions GeofencingGPSD calls (gps_open, gps_stream, gps_read, gps_close,
// gps_errstr), struct gps_data_t (24,496 bytes with API 11; Swift and C agree on its layout) and the plain integer
// macros it uses: WATCH_ENABLE and WATCH_JSON (UInt32), STATUS_SET (UInt64), MODE_2D (Int32), GPSD_API_MAJOR_VERSION,
// DEFAULT_GPSD_PORT (String).
//
// Shims, one line each and prefixed cgps_, belong here only for what Swift cannot import: macros built from other
// macros (UNION_SET, for one, does not import) and variadic functions (gps_send). GeofencingGPSD needs none of those
// today, so there are none; checked with Swift 6.3 against gpsd 3.22.
#ifndef CGPS_H
#define CGPS_H

#include <gps.h>

// API 9 (gpsd 3.20) made fix.time a timespec and added fix.altMSL, which the reader reads; API 11 (gpsd 3.22,
// Debian 12) is the one tested.
#if !defined(GPSD_API_MAJOR_VERSION) || GPSD_API_MAJOR_VERSION < 9
#error "GeofencingGPSD needs libgps API 9 or later (gpsd >= 3.20); --disable-default-traits builds without it"
#endif

#endif
