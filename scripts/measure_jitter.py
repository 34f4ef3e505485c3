#!/usr/bin/env python3
"""How far a stationary receiver's fixes wander: the measurement behind the monitor's default hysteresis (10 m).

For every NMEA log in ../shared/data/nmea, finds stretches of at least 60 consecutive valid RMC fixes with speed
below 0.5 kn, and prints for each the distance of the fixes from the stretch's median position (p50/p95/p99/max) and
the fix-to-fix step. Run from the repository root: python3 scripts/measure_jitter.py [DATA_DIR]
"""
import math, sys, statistics, glob
def deg(v, h):
    if not v: return None
    d = float(v[:2 if h in 'NS' else 3]) + float(v[2 if h in 'NS' else 3:]) / 60
    return -d if h in 'SW' else d
def fixes(path):
    for line in open(path, errors='replace'):
        i = line.find('$'); 
        if i < 0: continue
        f = line[i:].strip().split('*')[0].split(',')
        if len(f) > 9 and f[0][3:] == 'RMC' and f[2] == 'A':
            try: yield deg(f[3], f[4]), deg(f[5], f[6]), float(f[7] or 0), f[1]
            except ValueError: pass
for path in sorted(glob.glob((sys.argv[1] if len(sys.argv) > 1 else '../shared/data') + '/nmea/*')):
    run = []; stretches = []
    for lat, lon, kn, t in fixes(path):
        if kn < 0.5: run.append((lat, lon))
        else:
            if len(run) >= 60: stretches.append(run)
            run = []
    if len(run) >= 60: stretches.append(run)
    for s in stretches:
        mlat = statistics.median(p[0] for p in s); mlon = statistics.median(p[1] for p in s)
        d = sorted(math.hypot((p[0]-mlat)*111320, (p[1]-mlon)*111320*math.cos(math.radians(mlat))) for p in s)
        steps = sorted(math.hypot((a[0]-b[0])*111320, (a[1]-b[1])*111320*math.cos(math.radians(mlat))) for a, b in zip(s, s[1:]))
        q = lambda v, x: v[min(len(v)-1, int(x*len(v)))]
        print(f"{path.split('/')[-1]:22s} n={len(s):5d} dist-from-median p50={q(d,.5):5.1f} p95={q(d,.95):5.1f} p99={q(d,.99):5.1f} max={d[-1]:5.1f} m | fix-to-fix p95={q(steps,.95):4.1f} max={steps[-1]:4.1f} m")
