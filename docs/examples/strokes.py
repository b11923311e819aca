#!/usr/bin/env python3
"""Writes the synthetic recordings the docs pictures are drawn from (docs/img/, `make
docs-img`): evemu files of a made-up 151 x 85 mm multitouch panel (protocol B, 100 frames
per second), each contact given as key points (ms, screen x, screen y) and moving in
straight lines between them. Deterministic: rerunning it rewrites the same files."""
import sys

X_MAX, Y_MAX, RES = 4095, 2303, 27  # units, units per mm: 151.7 x 85.3 mm

HEADER = """# EVEMU 1.3
# {comment}
N: gestured docs panel
I: 0003 1234 5678 0001
P: 02 00 00 00 00 00 00 00
B: 00 0b 00 00 00 00 00 00 00
""" + "".join("B: 01 " + ("00 04 00 00 00 00 00 00\n" if i == 5 else "00 00 00 00 00 00 00 00\n") for i in range(12)) + \
"""B: 02 00 00 00 00 00 00 00 00
B: 03 03 00 00 00 00 80 60 02
B: 04 00 00 00 00 00 00 00 00
B: 05 00 00 00 00 00 00 00 00
B: 11 00 00 00 00 00 00 00 00
B: 12 00 00 00 00 00 00 00 00
A: 00 0 {x} 0 0 {r}
A: 01 0 {y} 0 0 {r}
A: 2f 0 9 0 0 0
A: 35 0 {x} 0 0 {r}
A: 36 0 {y} 0 0 {r}
A: 39 0 65535 0 0 0
""".format(x=X_MAX, y=Y_MAX, r=RES, comment="{comment}")

# name -> (screen width, height, comment, strokes); a stroke is [(ms, x, y), ...].
RECORDINGS = {
    "kiosk-demo": (1920, 1080, "the shipped config's gestures, one after another", [
        [(0, 800, 950), (150, 810, 600)],                       # quick flick up on the map: next_floor
        [(600, 550, 250), (900, 640, 290), (1500, 1000, 330)],  # slow drag on the map: map_pan
        [(2000, 1912, 700), (2300, 1700, 690), (2600, 1450, 700)],  # from the right edge: admin_menu
        [(3000, 1800, 40), (3070, 1800, 40)],                   # double tap in the corner: wake
        [(3200, 1802, 42), (3270, 1802, 42)],
        [(3600, 1330, 840), (3700, 1330, 840), (4200, 1230, 780)],  # two fingers spread: map_zoom
        [(3600, 1470, 940), (3700, 1470, 940), (4200, 1570, 1000)],
    ]),
    "tap-double-tap": (800, 480, "a single tap, then a double tap", [
        [(0, 250, 240), (80, 250, 240)],
        [(900, 550, 240), (980, 550, 240)],
        [(1100, 553, 243), (1180, 553, 243)],
    ]),
    "pan-swipe": (800, 480, "a quick flick left, then a slow drag", [
        [(0, 600, 160), (120, 330, 165)],
        [(800, 200, 330), (1400, 380, 320), (2000, 600, 330)],
    ]),
    "edge-pan-over-pan": (800, 480, "a drag from the right edge, then a drag in the middle", [
        [(0, 797, 150), (250, 640, 140), (500, 480, 150)],
        [(1000, 300, 330), (1300, 400, 320), (1600, 520, 330)],
    ]),
}


def frames(strokes):
    """Yields (ms, [(stroke index, x, y)]) every 10 ms, one frame past the last lift."""
    end = max(s[-1][0] for s in strokes) + 10
    for ms in range(0, end + 10, 10):
        contacts = []
        for i, keys in enumerate(strokes):
            if not keys[0][0] <= ms <= keys[-1][0]:
                continue
            for (t0, x0, y0), (t1, x1, y1) in zip(keys, keys[1:]):
                if t0 <= ms <= t1:
                    f = (ms - t0) / (t1 - t0) if t1 > t0 else 1
                    contacts.append((i, x0 + (x1 - x0) * f, y0 + (y1 - y0) * f))
                    break
        yield ms, contacts


def evemu(width, height, comment, strokes):
    out = [HEADER.format(comment=comment)]
    slots = {}  # stroke -> slot
    down_before = set()
    for ms, contacts in frames(strokes):
        if not contacts and not down_before:
            continue
        t = "%d.%06d" % (ms // 1000, (ms % 1000) * 1000)
        now = {i for i, _, _ in contacts}
        for i in sorted(down_before - now):  # lifted
            out.append("E: %s 0003 002f %04d\nE: %s 0003 0039 -001\n" % (t, slots.pop(i), t))
        for i, x, y in contacts:
            if i not in slots:
                slots[i] = min(set(range(10)) - set(slots.values()))
                out.append("E: %s 0003 002f %04d\nE: %s 0003 0039 %04d\n" % (t, slots[i], t, i + 1))
            else:
                out.append("E: %s 0003 002f %04d\n" % (t, slots[i]))
            out.append("E: %s 0003 0035 %04d\nE: %s 0003 0036 %04d\n"
                       % (t, round(x / width * X_MAX), t, round(y / height * Y_MAX)))
        if not down_before and now:
            out.append("E: %s 0001 014a 0001\n" % t)
        elif down_before and not now:
            out.append("E: %s 0001 014a 0000\n" % t)
        out.append("E: %s 0000 0000 0000\n" % t)
        down_before = now
    return "".join(out)


if __name__ == "__main__":
    directory = sys.argv[1] if len(sys.argv) > 1 else "."
    for name, (width, height, comment, strokes) in RECORDINGS.items():
        with open("%s/%s.evemu" % (directory, name), "w") as f:
            f.write(evemu(width, height, comment, strokes))
