"""OpenSCAD's geometry, as the SCBench generators need it to rebuild what the original's
OpenSCAD renders contained: its degree trigonometry (exact at multiples of 30°, 45°, 60°, 90°)
and its circle and sphere tessellation."""

import math


def sin_deg(x):
    """OpenSCAD's `sin_degrees`."""
    x = math.fmod(x, 360.0)
    if x < 0:
        x += 360.0
    oppose = x >= 180.0
    if oppose:
        x -= 180.0
    if x > 90.0:
        x = 180.0 - x
    if x < 45.0:
        s = 0.5 if x == 30.0 else math.sin(math.radians(x))
    elif x == 45.0:
        s = math.sqrt(0.5)
    elif x == 60.0:
        s = math.sqrt(0.75)
    else:
        s = 1.0 if x == 90.0 else math.cos(math.radians(90.0 - x))
    return -s if oppose else s


def cos_deg(x):
    """OpenSCAD's `cos_degrees`."""
    return sin_deg(x + 90.0)


def circle(r, fn, sx=1.0, sy=1.0):
    """`circle(r, $fn=fn)` (scaled by sx, sy): fn points counter-clockwise from +x."""
    return [(sx * r * cos_deg(360.0 * i / fn), sy * r * sin_deg(360.0 * i / fn)) for i in range(fn)]


def sphere_rings(r, fn):
    """`sphere(r, $fn=fn)`: (fn + 1) // 2 rings of fn points, ring i at polar angle
    180·(i + 0.5) / rings, from the top."""
    rings = (fn + 1) // 2
    out = []
    for i in range(rings):
        phi = 180.0 * (i + 0.5) / rings
        out.append([(x, y, r * cos_deg(phi)) for x, y in circle(r * sin_deg(phi), fn)])
    return out
