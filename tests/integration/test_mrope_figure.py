"""M-RoPE figures (issue 26 item 20). The M-RoPE panel of `posenc model`: the axis each pair follows is categorical
(ticks t, h, w, not 0, 1, 2) and drawn as steps (one value per pair; no slope between pairs).
Expected from the config file read with json: Qwen2-VL-2B's mrope_section [16, 24, 24] gives
pairs 0-15 t, 16-39 h, 40-63 w (sectioned). From the SVG: the polyline with three levels has only
horizontal and vertical segments (within 0.01 px, the SVG's precision), its levels in x order are
the rows of the tick labels t, h, w (within 6 px: label baseline vs. tick), and it rises midway
between pairs 15 and 16 and between 39 and 40 (x from the 0 and 5 tick labels, within 0.05 px)."""
import json
import os
import re
import tempfile

from harness import expect, finish, run

cfg = os.path.join(os.path.dirname(__file__), "..", "data", "configs", "models", "qwen2-vl-2b.json")
sec = json.load(open(cfg))["rope_scaling"]["mrope_section"]
bounds = [sec[0], sec[0] + sec[1]]  # first pair of h, of w
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "m.svg")
    r = run("model", cfg, "-o", out, text=True)
    expect(r.returncode == 0, f"posenc model -o m.svg: {r.stderr}")
    svg = open(out).read() if r.returncode == 0 else ""
texts = re.findall(r'<text x="([-0-9.]+)" y="([-0-9.]+)"[^>]*>([^<]*)</text>', svg)
cats = {t: float(y) for x, y, t in texts if t in ("t", "h", "w")}
expect(set(cats) == {"t", "h", "w"} and cats["t"] > cats["h"] > cats["w"], f"tick labels t, h, w bottom up: {cats}")
lines = []
for pts in re.findall(r'<polyline points="([^"]+)"', svg):
    xy = [tuple(map(float, p.split(","))) for p in pts.split()]
    if len({round(y, 2) for _, y in xy}) == 3:
        lines.append(xy)
expect(len(lines) == 1, f"one polyline with three levels ({len(lines)})")
if len(lines) == 1 and len(cats) == 3:
    xy = lines[0]
    straight = all(abs(x1 - x0) < 0.01 or abs(y1 - y0) < 0.01 for (x0, y0), (x1, y1) in zip(xy, xy[1:]))
    expect(straight, "steps: every segment horizontal or vertical")
    levels = []
    for _, y in xy:
        if not levels or abs(levels[-1] - y) > 0.01:
            levels.append(y)
    expect(len(levels) == 3 and all(abs(levels[k] - (cats[n] - 4)) < 6 for k, n in enumerate("thw")),
           f"levels {levels} at the rows of t, h, w {cats}")
    # x of pair i from the labels "0" and "5" of the panel's x axis (the last such pair of labels).
    xs = {}
    for x, y, t in texts:
        if t in ("0", "5"):
            xs[t] = float(x)
    scale = (xs["5"] - xs["0"]) / 5
    rises = [x1 for (x0, y0), (x1, y1) in zip(xy, xy[1:]) if abs(x1 - x0) < 0.01 and abs(y1 - y0) > 0.01]
    want = [xs["0"] + (b - 0.5) * scale for b in bounds]
    expect(len(rises) == 2 and all(abs(a - b) < 0.05 for a, b in zip(rises, want)), f"rises at {rises}, want {want}")

# The heatmap of generate mrope --table positions: its three columns are labelled t, h, w (not 0, 1, 2).
with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, "p.svg")
    r = run("generate", "mrope", "--grid", "1,4,4", "--table", "positions", "-o", out, text=True)
    svg = open(out).read() if r.returncode == 0 else ""
xt = [t for x, y, t in re.findall(r'<text x="([-0-9.]+)" y="([-0-9.]+)"[^>]*text-anchor="middle">([^<]*)</text>', svg)]
expect(r.returncode == 0 and xt[:3] == ["t", "h", "w"], f"positions heatmap x labels t, h, w: {xt[:4]} {r.stderr}")

finish()
