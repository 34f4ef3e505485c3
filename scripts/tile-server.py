#!/usr/bin/env python3
"""A tile server for the map's rendering check, on loopback only.

Usage: tile-server.py LOG_FILE [--colour R,G,B]

Serves one 256x256 PNG of a single colour for every GET /Z/X/Y.png (Z, X, Y decimal, X and Y within 0 ... 2^Z - 1)
and 404 for anything else. Binds 127.0.0.1 on a free port, prints "port N" on standard output once it listens,
and appends every request's path to LOG_FILE (one a line, flushed), so a test can check what the page asked for.
Runs until it is terminated.
"""
import argparse
import http.server
import os
import re
import signal
import struct
import sys
import zlib

TILE_PATH = re.compile(r"/(\d{1,2})/(\d{1,7})/(\d{1,7})\.png")


def solid_png(width, height, rgb):
    """An 8-bit RGB PNG of one colour (standard library only)."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    row = b"\x00" + bytes(rgb) * width
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(row * height)) + chunk(b"IEND", b""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("log", help="file to append each request's path to")
    parser.add_argument("--colour", default="240,208,96", help="the tile's colour, R,G,B (default 240,208,96)")
    args = parser.parse_args()
    rgb = tuple(int(part) for part in args.colour.split(","))
    tile = solid_png(256, 256, rgb)
    log = open(args.log, "a", encoding="utf-8")

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            log.write(self.path + "\n")
            log.flush()
            match = TILE_PATH.fullmatch(self.path)
            if match and all(int(n) < 2 ** int(match.group(1)) for n in match.group(2, 3)):
                self.send_response(200)
                self.send_header("Content-Type", "image/png")
                self.send_header("Content-Length", str(len(tile)))
                self.end_headers()
                self.wfile.write(tile)
            else:
                self.send_error(404)

        def log_message(self, *_):
            pass

    # A parent that blocks SIGTERM (a test runner) passes the mask on: unblock it, so terminating the server works.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"port {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
