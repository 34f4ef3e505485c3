// CMosquitto: libmosquitto as GeofencingSinks sees it. Swift imports <mosquitto.h> directly; no shims are needed.
// <mqtt_protocol.h> has MQTT 5's property identifiers (the CONNECT's Maximum Packet Size).
#ifndef CMOSQUITTO_H
#define CMOSQUITTO_H

#include <mosquitto.h>
#include <mqtt_protocol.h>

#endif
