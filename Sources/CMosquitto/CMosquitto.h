// CMosquitto: libmosquitto as GeofencingSinks sees it. Swift imports <mosquitto.h> directly; no shims are needed.
#ifndef CMOSQUITTO_H
#define CMOSQUITTO_H

#include <mosquitto.h>

#endif
