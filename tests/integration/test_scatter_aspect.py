"""2-D projections have equal-aspect axes (issue 26 item 19): one data unit gets as many pixels
on x as on y. `project sinusoidal --dims 0,1` puts position t at (sin t, cos t) (paper convention,
frequency 1): the points lie on the unit circle, which must be drawn as a circle. From the SVG's
points: pixels per unit on x = (max cx − min cx) / (max sin t − min sin t) over t = 0 … N−1 (numpy),
likewise y with cos t; equal within 0.5 % (cx, cy are written to 0.01 px). Checked on a wide, a
tall and the default canvas."""
import os
import re
import tempfile

import numpy as np

from harness import expect, finish, run

t = np.arange(64)
xs, ys = np.sin(t), np.cos(t)
with tempfile.TemporaryDirectory() as tmp:
    for w, h in ((720, 560), (900, 300), (320, 700)):
        out = os.path.join(tmp, f"p{w}x{h}.svg")
        r = run("project", "sinusoidal", "--dims", "0,1", "--len", "64", "--dim", "16", "--width", str(w),
                "--height", str(h), "-o", out, text=True)
        expect(r.returncode == 0, f"project {w}x{h}: {r.stderr}")
        if r.returncode != 0:
            continue
        svg = open(out).read()
        pts = [(float(a), float(b)) for a, b in re.findall(r'<circle cx="([-0-9.]+)" cy="([-0-9.]+)" r="[0-9.]+"', svg)]
        expect(len(pts) == 64, f"{w}x{h}: 64 points ({len(pts)})")
        if len(pts) != 64:
            continue
        cx, cy = np.array(pts).T
        px_x = (cx.max() - cx.min()) / (xs.max() - xs.min())
        px_y = (cy.max() - cy.min()) / (ys.max() - ys.min())
        expect(abs(px_x / px_y - 1) < 0.005, f"{w}x{h}: {px_x:.2f} px per unit on x, {px_y:.2f} on y")

finish()
