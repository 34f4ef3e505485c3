#!/usr/bin/env python3
"""Checks that a map page of GeofencingMap renders in headless Chromium.

Usage: check-map-screenshot.py MAP.html [--png OUT.png] [--expect NAME=R,G,B ...] [--rendered TEXT]
                              [--allow-requests REGEX [--min-requests N]] ...

1. `chromium --dump-dom`: the page's script must have finished drawing, which it marks with
   body[data-rendered="fences=N track=M events=K"] (compared with --rendered when given), and must not have
   set body[data-render-error].
2. `chromium --screenshot`: the PNG is decoded here with the standard library only (zlib + struct; 8-bit RGB or
   RGBA, every filter type) and must not be blank, and must hold at least --min-pixels pixels of each expected
   colour (within --tolerance per channel) outside the page's own panel, legend and scale bar (their boxes come
   from body[data-overlays]), so the legend's swatches alone cannot pass the check.
3. Both runs write Chromium's network log (--log-net-log); every request the page made (not the browser's own
   update and sign-in checks, whose initiator is "not an origin") must match --allow-requests, and there must be
   at least --min-requests of them. Without --allow-requests the page may request nothing at all.

Without --expect the colours are GeofencingMap's MapPalette: fence, track-outside and track-inside.
Exit status: 0 when every check passes, 1 when one fails (with a message on stderr), 2 for bad arguments.
"""
import argparse
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import zlib

# MapPalette (Sources/GeofencingMap/MapPalette.swift): change both together.
DEFAULT_COLOURS = {
    "fence": (0x1F, 0x5F, 0xBF),
    "track-outside": (0x1A, 0x96, 0x41),
    "track-inside": (0xD7, 0x19, 0x1C),
}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class CheckFailed(Exception):
    pass


def parse_colour(text):
    name, _, rgb = text.partition("=")
    parts = rgb.split(",")
    if not name or len(parts) != 3 or not all(p.strip().isdigit() and int(p) <= 255 for p in parts):
        raise argparse.ArgumentTypeError(f"--expect {text!r}: want NAME=R,G,B with 0..255 channels")
    return name, tuple(int(p) for p in parts)


def chromium_command(args, profile, *mode):
    command = [args.chromium, "--headless", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
               "--disable-extensions", "--disable-background-networking", "--force-device-scale-factor=1",
               f"--user-data-dir={profile}",
               f"--window-size={args.width},{args.height}", f"--virtual-time-budget={args.budget_ms}", *mode]
    if os.geteuid() == 0:
        command.insert(1, "--no-sandbox")  # Chromium refuses to run as root with its sandbox
    return command + ["file://" + os.path.abspath(args.html)]


def page_requests(net_log):
    """The URLs the page requested, from a Chromium network log: URL_REQUEST_START_JOB events whose initiator is
    an origin (the page's is "null", a file's opaque origin); the browser's own requests have "not an origin"."""
    try:
        with open(net_log, encoding="utf-8", errors="replace") as file:
            text = file.read()
    except OSError as error:
        raise CheckFailed(f"chromium wrote no network log: {error}")
    # Chromium may be stopped before it closes the log's JSON: close it here.
    try:
        log = json.loads(text)
    except json.JSONDecodeError:
        try:
            log = json.loads(text.rstrip().rstrip(",") + "]}")
        except json.JSONDecodeError as error:
            raise CheckFailed(f"{net_log}: not a network log: {error}")
    names = {number: name for name, number in log.get("constants", {}).get("logEventTypes", {}).items()}
    urls = []
    for event in log.get("events", []):
        params = event.get("params") or {}
        # The job's start carries the URL; its end (phase 2) carries no parameters.
        if names.get(event.get("type")) == "URL_REQUEST_START_JOB" and "url" in params \
                and params.get("initiator") != "not an origin":
            urls.append(params["url"])
    return urls


def run_chromium(args, *mode):
    """Runs one headless Chromium with a throwaway profile; returns (stdout bytes, seconds, the page's requests)."""
    profile = tempfile.mkdtemp(prefix="map-check-profile-")
    net_log = os.path.join(profile, "net-log.json")
    try:
        started = time.monotonic()
        try:
            result = subprocess.run(chromium_command(args, profile, f"--log-net-log={net_log}", *mode),
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            raise CheckFailed(f"chromium {' '.join(mode)} did not finish within {args.timeout} s")
        except OSError as error:
            raise CheckFailed(f"cannot run {args.chromium}: {error}")
        if result.returncode != 0:
            tail = result.stderr.decode(errors="replace").strip().splitlines()[-3:]
            raise CheckFailed(f"chromium {' '.join(mode)} exited {result.returncode}: {' | '.join(tail)}")
        return result.stdout, time.monotonic() - started, page_requests(net_log)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def body_attributes(dom):
    match = re.search(r"<body\b([^>]*)>", dom)
    if not match:
        raise CheckFailed("the dumped DOM has no <body> element")
    return {name: value for name, value in re.findall(r'([\w-]+)="([^"]*)"', match.group(1))}


def parse_boxes(text):
    boxes = []
    for part in filter(None, text.split(";")):
        numbers = part.split(",")
        if len(numbers) == 4:
            boxes.append(tuple(int(float(n)) for n in numbers))
    return boxes


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def decode_png(path):
    """Returns (width, height, rows) with rows a list of bytearrays of R,G,B triples."""
    with open(path, "rb") as file:
        data = file.read()
    if not data.startswith(PNG_SIGNATURE):
        raise CheckFailed(f"{path}: not a PNG file")
    offset, header, idat = len(PNG_SIGNATURE), None, []
    while offset + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[offset:offset + 8])
        chunk = data[offset + 8:offset + 8 + length]
        if len(chunk) != length:
            raise CheckFailed(f"{path}: chunk {kind!r} at byte {offset} is truncated")
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", chunk)
        elif kind == b"IDAT":
            idat.append(chunk)
        elif kind == b"IEND":
            break
        offset += 12 + length
    if header is None:
        raise CheckFailed(f"{path}: no IHDR chunk")
    width, height, depth, colour_type, _, _, interlace = header
    if depth != 8 or colour_type not in (2, 6) or interlace != 0:
        raise CheckFailed(f"{path}: bit depth {depth}, colour type {colour_type}, interlace {interlace}: "
                          "only 8-bit RGB (2) or RGBA (6), not interlaced, is supported")
    channels = 3 if colour_type == 2 else 4
    stride = width * channels
    try:
        raw = zlib.decompress(b"".join(idat))
    except zlib.error as error:
        raise CheckFailed(f"{path}: image data does not inflate: {error}")
    if len(raw) != height * (stride + 1):
        raise CheckFailed(f"{path}: {len(raw)} bytes of image data, want {height * (stride + 1)}")
    rows, previous = [], bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        if kind == 1:
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 0xFF
        elif kind == 2:
            for i in range(stride):
                line[i] = (line[i] + previous[i]) & 0xFF
        elif kind == 3:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + ((left + previous[i]) >> 1)) & 0xFF
        elif kind == 4:
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                upper_left = previous[i - channels] if i >= channels else 0
                line[i] = (line[i] + paeth(left, previous[i], upper_left)) & 0xFF
        elif kind != 0:
            raise CheckFailed(f"{path}: row {y} has unknown filter type {kind}")
        previous = line
        if channels == 4:
            rgb = bytearray(width * 3)
            rgb[0::3], rgb[1::3], rgb[2::3] = line[0::4], line[1::4], line[2::4]
            rows.append(rgb)
        else:
            rows.append(line)
    return width, height, rows


def count_colours(width, rows, expected, tolerance, excluded):
    counts = {name: 0 for name in expected}
    histogram = {}
    for y, row in enumerate(rows):
        skip = [(x0, x1) for (x0, y0, x1, y1) in excluded if y0 <= y < y1]
        for x in range(width):
            pixel = (row[3 * x], row[3 * x + 1], row[3 * x + 2])
            histogram[pixel] = histogram.get(pixel, 0) + 1
            if any(x0 <= x < x1 for x0, x1 in skip):
                continue
            for name, (r, g, b) in expected.items():
                if abs(pixel[0] - r) <= tolerance and abs(pixel[1] - g) <= tolerance and abs(pixel[2] - b) <= tolerance:
                    counts[name] += 1
    return counts, histogram


def check(args):
    dom, dom_seconds, dom_requests = run_chromium(args, "--dump-dom")
    attributes = body_attributes(dom.decode(errors="replace"))
    if "data-render-error" in attributes:
        raise CheckFailed(f"the page's script failed: {attributes['data-render-error']}")
    rendered = attributes.get("data-rendered")
    if rendered is None:
        raise CheckFailed("the page never set body[data-rendered]: its script did not finish drawing")
    if args.rendered is not None and rendered != args.rendered:
        raise CheckFailed(f"body[data-rendered] is {rendered!r}, want {args.rendered!r}")
    excluded = parse_boxes(attributes.get("data-overlays", ""))

    png = args.png or os.path.join(tempfile.mkdtemp(prefix="map-check-"), "map.png")
    if os.path.exists(png):
        os.remove(png)
    _, shot_seconds, shot_requests = run_chromium(args, f"--screenshot={os.path.abspath(png)}")
    if not os.path.exists(png):
        raise CheckFailed(f"chromium wrote no screenshot to {png}")
    width, height, rows = decode_png(png)
    if (width, height) != (args.width, args.height):
        raise CheckFailed(f"{png}: {width}x{height} pixels, want {args.width}x{args.height}")

    expected = dict(args.expect) if args.expect else DEFAULT_COLOURS
    counts, histogram = count_colours(width, rows, expected, args.tolerance, excluded)
    background, background_count = max(histogram.items(), key=lambda item: item[1])
    drawn = width * height - background_count
    if len(histogram) < 3 or drawn < 0.002 * width * height:
        raise CheckFailed(f"{png} is blank: {len(histogram)} colours, {drawn} pixels differ from the background "
                          f"{background}")
    missing = [f"{name} {expected[name]} ({counts[name]} px)" for name in expected if counts[name] < args.min_pixels]
    summary = ", ".join(f"{name} {counts[name]} px" for name in expected)
    if missing:
        raise CheckFailed(f"{png}: too few pixels (< {args.min_pixels}) of {'; '.join(missing)}; found {summary}")
    requests = dom_requests + shot_requests
    allowed = re.compile(args.allow_requests) if args.allow_requests else None
    refused = [url for url in requests if not (allowed and allowed.fullmatch(url))]
    if refused:
        raise CheckFailed(f"the page requested {len(refused)} URL(s) it should not have: {', '.join(refused[:5])}")
    if len(requests) < args.min_requests:
        raise CheckFailed(f"the page made {len(requests)} request(s), want at least {args.min_requests}")
    summary += f"; {len(requests)} request(s) by the page"
    script_ms = attributes.get("data-render-ms", "?")
    print(f"ok: {args.html} rendered ({rendered}); {png} {width}x{height}, {len(histogram)} colours, {summary}; "
          f"page script {script_ms} ms, chromium dump-dom {dom_seconds:.2f} s, screenshot {shot_seconds:.2f} s")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("html", help="the map page to check")
    parser.add_argument("--png", help="where to write the screenshot (default: a new temporary folder)")
    parser.add_argument("--expect", action="append", type=parse_colour, metavar="NAME=R,G,B",
                        help="a colour that must appear on the map; repeatable (default: the MapPalette colours)")
    parser.add_argument("--rendered", help="the exact body[data-rendered] value wanted, e.g. 'fences=3 track=0 events=0'")
    parser.add_argument("--min-pixels", type=int, default=20, help="pixels each colour needs (default 20)")
    parser.add_argument("--tolerance", type=int, default=10, help="per-channel difference allowed (default 10)")
    parser.add_argument("--allow-requests", metavar="REGEX",
                        help="the URLs the page may request (whole-URL match); default: none")
    parser.add_argument("--min-requests", type=int, default=0, help="requests the page must make (default 0)")
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    parser.add_argument("--width", type=int, default=1200)
    parser.add_argument("--height", type=int, default=800)
    parser.add_argument("--budget-ms", type=int, default=5000, help="chromium's --virtual-time-budget")
    parser.add_argument("--timeout", type=float, default=120, help="seconds each chromium run may take")
    args = parser.parse_args()
    if not os.path.isfile(args.html):
        parser.error(f"{args.html}: no such file")
    try:
        check(args)
    except CheckFailed as failure:
        print(f"check-map-screenshot: {failure}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
