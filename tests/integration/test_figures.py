"""The real binary draws figures: SVG that a real XML parser reads, with the labels
as <text>; PNG of the requested size; the same bytes from two runs; an ANSI
preview as wide as COLUMNS. The PNG of a command has its parts where the SVG of the
same command puts them: ink at every text, the colorbar from the colormap's last colour
(top) to its first (bottom), the legend holding each series' colour."""
import os
import re
import struct
import tempfile
import xml.etree.ElementTree as ET
import zlib

from harness import POSENC, expect, finish, run

SVG = "{http://www.w3.org/2000/svg}"
HERE = os.path.dirname(os.path.abspath(__file__))


def texts(svg_bytes):
    root = ET.fromstring(svg_bytes)
    return root, ["".join(t.itertext()) for t in root.iter(SVG + "text")]


def colormaps():
    """matplotlib's 256-colour tables as posenc holds them, name -> list of (r, g, b)."""
    src = open(os.path.join(HERE, "..", "..", "src", "render", "colormap_data.inc")).read()
    out, name = {}, None
    for line in src.splitlines():
        m = re.match(r"// (\w+)$", line)
        if m:
            name = m.group(1)
            out[name] = ""
        elif line.startswith('"') and name:
            out[name] += line.strip().strip('",')
    return {k: [tuple(int(v[i + j:i + j + 2], 16) for j in (0, 2, 4)) for i in range(0, len(v), 6)]
            for k, v in out.items()}


def decode_png(data):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB or palette PNG."""
    pos, idat, palette = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
        elif kind == b"PLTE":
            palette = [tuple(body[i:i + 3]) for i in range(0, n, 3)]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    assert depth == 8 and ctype in (2, 3), (depth, ctype)
    bpp = 3 if ctype == 2 else 1
    raw, stride, prev, rows = zlib.decompress(idat), w * bpp, bytearray(w * bpp), []
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        rows.append([tuple(line[i:i + 3]) for i in range(0, stride, 3)] if ctype == 2 else [palette[v] for v in line])
    return w, h, rows


def text_ink(rows, x0, y0, x1, y1):
    """Grey pixels darker than #a0a0a0 in the box: text, not cells, points or light grid lines."""
    n = 0
    for y in range(max(0, int(y0)), min(len(rows), int(y1) + 1)):
        for x in range(max(0, int(x0)), min(len(rows[0]), int(x1) + 1)):
            r, g, b = rows[y][x]
            n += r == g == b and r < 160
    return n


def check_parts(name, svg, png, luts):
    """The PNG has ink at every horizontal <text> of the SVG, its colorbar (the 16 px wide
    <image>) runs from the map's last colour to its first, and the legend (the box framed in
    #c8c8c8) holds each series' colour."""
    root = ET.fromstring(svg)
    w, h, rows = decode_png(png)
    expect((w, h) == (int(root.get("width")), int(root.get("height"))), f"{name}: png and svg sizes")
    for t in root.iter(SVG + "text"):
        if t.get("transform"):
            continue
        x, y, size, word = float(t.get("x")), float(t.get("y")), float(t.get("font-size")), "".join(t.itertext())
        width = 0.62 * size * len(word)
        x0 = {"start": x, "middle": x - width / 2, "end": x - width}[t.get("text-anchor")]
        ink = text_ink(rows, x0, y - 0.75 * size, x0 + width, y + 0.2 * size)
        expect(ink >= 5, f"{name}: no ink at text {word!r} ({x}, {y}): {ink}")
    for img in root.iter(SVG + "image"):
        if img.get("width") != "16":
            continue
        x, y, bh = float(img.get("x")), float(img.get("y")), float(img.get("height"))
        column = [rows[int(y) + i][int(x) + 8] for i in range(int(bh))]
        cmap = next((k for k, lut in luts.items() if column[0] == lut[255] and column[-1] == lut[0]), None)
        expect(cmap is not None, f"{name}: colorbar ends {column[0]} and {column[-1]} are no colormap's ends")
        if cmap:
            index = [luts[cmap].index(c) if c in luts[cmap] else -1 for c in column]
            expect(all(0 <= b <= a for a, b in zip(index, index[1:])), f"{name}: colorbar not monotone in {cmap}")
    for r in root.iter(SVG + "rect"):
        if r.get("fill") != "#c8c8c8":
            continue
        x, y, rw, rh = (float(r.get(k)) for k in ("x", "y", "width", "height"))
        colours = {rows[j][i] for j in range(int(y), int(y + rh)) for i in range(int(x), int(x + rw))}
        for line in root.iter(SVG + "polyline"):
            pts = [tuple(map(float, p.split(","))) for p in line.get("points").split()]
            if all(x <= px <= x + rw and y <= py <= y + rh for px, py in pts):  # a legend swatch
                c = line.get("stroke")
                want = tuple(int(c[i:i + 2], 16) for i in (1, 3, 5))
                expect(want in colours, f"{name}: legend lacks the colour {c}")


def check_svg_rasters(argv):
    """Heatmap cells in the SVG are embedded at their size on the page (shown 1:1, so no viewer
    smooths them) and hold the same pixels as the PNG of the same command."""
    import base64
    svg, png = run(*argv, "--format", "svg").stdout, run(*argv, "--format", "png").stdout
    _, _, rows = decode_png(png)
    root = ET.fromstring(svg)
    images = list(root.iter(SVG + "image"))
    expect(len(images) >= 2, f"{argv}: {len(images)} images")
    for img in images:
        x, y, w, h = (img.get(k) for k in ("x", "y", "width", "height"))
        expect(all(v.isdigit() for v in (x, y, w, h)), f"{argv}: image at non-integer {x},{y} {w}x{h}")
        data = base64.b64decode(img.get("{http://www.w3.org/1999/xlink}href").split(",", 1)[1])
        iw, ih, cells = decode_png(data)
        expect((iw, ih) == (int(w), int(h)), f"{argv}: {iw}x{ih} image shown at {w}x{h}")
        same = all(rows[int(y) + j][int(x) + i] == cells[j][i] for j in range(ih) for i in range(iw))
        expect(same, f"{argv}: the svg's cells at {x},{y} differ from the png's")


def check_gallery(tmp):
    """scripts/gallery.sh draws every entry into index.html: figures a caption puts side by side
    ("+ ") share a row, captions are HTML (no "+ " marker, `code` as <code>, < escaped)."""
    import html.parser
    import subprocess
    out = os.path.join(tmp, "gallery")
    r = subprocess.run(["bash", os.path.join(HERE, "..", "..", "scripts", "gallery.sh"), out],
                       env=dict(os.environ, POSENC=POSENC), capture_output=True, text=True)
    expect(r.returncode == 0, f"gallery.sh: exit {r.returncode} {r.stderr[-300:]!r}")
    page = open(os.path.join(out, "index.html"), encoding="utf-8").read()

    class Rows(html.parser.HTMLParser):
        def __init__(self):
            super().__init__()
            self.stack, self.rows, self.paragraphs, self.text = [], [], [], None

        def handle_starttag(self, tag, attrs):
            if tag in ("img", "meta", "br"):
                if tag == "img" and "div" in self.stack:
                    self.rows[-1].append(dict(attrs)["alt"])
                return
            self.stack.append(tag)
            if tag == "div":
                self.rows.append([])
            if tag == "p":
                self.text = ""

        def handle_endtag(self, tag):
            expect(self.stack and self.stack[-1] == tag, f"index.html: </{tag}> closes {self.stack[-1:]}")
            self.stack.pop()
            if tag == "p":
                self.paragraphs.append(self.text)
                self.text = None

        def handle_data(self, data):
            if self.text is not None:
                self.text += data

    p = Rows()
    p.feed(page)
    expect(not p.stack, f"index.html: unclosed {p.stack}")
    expect(["similarity-sinusoidal", "similarity-learned"] in p.rows, f"index.html: the similarity pair is not one row: {p.rows}")
    # The rows the entries ask for: an entry whose caption starts with "+ " joins the row before.
    wanted = []
    entries = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "gallery_entries.txt")
    for line in open(entries, encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.rstrip("\n").split("|")
        if len(fields) > 2 and fields[2].startswith("+ ") and wanted:
            wanted[-1].append(fields[0])
        else:
            wanted.append([fields[0]])
    paired = [row for row in wanted if len(row) > 1]
    expect(len(paired) >= 1 and all(row in p.rows for row in paired), f"index.html: pairs {paired} not rows of {p.rows}")
    expect(all(len(row) == 1 or row in paired for row in p.rows), "index.html: figures side by side that no '+ ' asked for")
    expect(not any(t.startswith("+ ") for t in p.paragraphs), "index.html: a caption keeps the '+ ' marker")
    expect(not any("`" in t for t in p.paragraphs), "index.html: raw backticks in a caption")
    expect("<code>--vmin -1 --vmax 1</code>" in page, "index.html: `code` is not <code>")
    expect("Σ_{k&lt;j}" in page, "index.html: '<' in a caption is not escaped")


def check_colour_range_is_drawn_values():
    """A heatmap that averages draws float32 values, so its colour range is theirs: fairseq's
    table (positions from 2) has cos(2·ω_63) = 0.99999998 in double, 1.0 in float32 (numpy
    computes both here), and the colorbar must reach 1.0 and label it."""
    import numpy as np

    d = 128
    w = 10000.0 ** (-np.arange(d // 2) / (d // 2 - 1))  # fairseq: exponent over half_dim - 1
    pos = np.arange(2, 52, dtype=np.float64)[:, None]
    table = np.concatenate([np.sin(pos * w), np.cos(pos * w)], axis=1)
    expect(table.max() < 1.0 and table.astype(np.float32).max() == 1.0,
           f"fairseq max {table.max()!r} in double, {table.astype(np.float32).max()!r} in float32")
    r = run("generate", "sinusoidal", "--len", "50", "--dim", str(d), "--convention", "fairseq", "--format", "svg")
    expect(r.returncode == 0, f"fairseq svg exit {r.returncode}")
    _, labels = texts(r.stdout)
    expect("1.0" in labels and "\u22121.0" in labels, f"fairseq colorbar ends labelled 1.0 and -1.0: {labels}")


def check_reference_labels_inside_frames():
    """Issue 26 item 22: a reference line near the top of its plot (Gemma 3's sliding layers:
    wavelengths below 10^5, the original context 131072 at the top) is labelled below it; the
    label stays inside the frame (the frame's vertical sides are 1-px rects of #3c3c3c)."""
    cfg = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "configs", "models", "gemma-3-4b.json")
    r = run("model", cfg, "--format", "svg")
    expect(r.returncode == 0, f"model figure: exit {r.returncode} {r.stderr!r}")
    root = ET.fromstring(r.stdout)
    frames = [(float(e.get("y")), float(e.get("y")) + float(e.get("height"))) for e in root.iter(SVG + "rect")
              if e.get("fill") == "#3c3c3c" and e.get("width") == "1"]
    labels = [e for e in root.iter(SVG + "text") if (e.text or "").startswith("original context")]
    expect(len(labels) == 2, f"two reference labels ({len(labels)})")
    for e in labels:
        base, size = float(e.get("y")), float(e.get("font-size"))
        inside = any(top <= base - size and base <= bottom for top, bottom in frames)
        expect(inside, f"label at baseline {base} (size {size}) lies inside a plot frame {sorted(set(frames))}")


def check_ansi_line_scale():
    """Issue 26 item 22: a terminal line plot has no axes, so a line gives its scale. decay
    sinusoidal --dim 4 (base 10000: frequencies 1 and 0.01): the dot product at offset Δ is
    cos(Δ) + cos(Δ/100), over Δ = 0 … 10 (computed here in numpy)."""
    import numpy as np
    d = np.arange(11.0)
    dots = np.cos(d) + np.cos(d / 100)
    env = dict(os.environ, COLUMNS="100", LINES="40", NO_COLOR="1")
    r = run("decay", "sinusoidal", "--dim", "4", "--max-offset", "10", "--format", "ansi", env=env)
    want = "x 0 … 10, y {:.4g} … {:.4g}: ".format(dots.min(), dots.max())
    lines = r.stdout.decode().splitlines()
    expect(any(l.startswith(want) for l in lines), f"ansi line plot: a scale line {want!r} in {lines[-3:]}")


def main():
    figures = {
        "heatmap": ["generate", "sinusoidal", "--len", "50", "--dim", "128"],
        "panels": ["generate", "alibi", "--len", "16", "--heads", "4"],
        "lines": ["decay", "sinusoidal", "--dim", "64", "--vary", "base=100,10000"],
        "scatter": ["project", "sine", "--dim", "3", "--len", "200"],
        "rope": ["rope", "--dim", "128", "--base", "500000", "--scaling", "llama3", "--factor", "8",
                 "--original-max-position-embeddings", "8192"],
    }
    labels = {"heatmap": ["dimension", "position", "value"], "panels": ["key position j", "head 3 (m = 2^-8)"],
              "lines": ["offset Δ = key − query", "base=100"], "scatter": ["position", "sin0"],
              "rope": ["pair i", "original context 8192"]}
    luts = colormaps()
    expect(luts["viridis"][0] == (0x44, 0x01, 0x54) and luts["viridis"][255] == (0xfd, 0xe7, 0x25), "viridis ends")
    # Tick labels each figure must show (as <text>, with ink in the PNG).
    ticks = {"heatmap": ["0", "10", "40", "120", "−1.0", "1.0"], "panels": ["0", "10", "15", "−3", "−1"],
             "lines": ["0", "50", "100"], "scatter": ["0", "100", "−0.5", "0.5"], "rope": ["10²", "10⁴"]}
    with tempfile.TemporaryDirectory() as tmp:
        for name, argv in figures.items():
            r = run(*argv, "--format", "svg")
            expect(r.returncode == 0, f"{name}: svg exit {r.returncode} {r.stderr!r}")
            try:
                root, words = texts(r.stdout)
            except ET.ParseError as e:
                expect(False, f"{name}: svg does not parse: {e}")
                continue
            expect(root.tag == SVG + "svg", f"{name}: root is {root.tag}")
            for label in labels[name] + ticks[name]:
                expect(label in words, f"{name}: no <text> {label!r} in {words}")
            check_parts(name, r.stdout, run(*argv, "--format", "png").stdout, luts)
            legends = sum(1 for e in root.iter(SVG + "rect") if e.get("fill") == "#c8c8c8")
            # rope: wavelengths and inverse frequencies, each plot with its before/after legend
            expect(legends == {"lines": 1, "rope": 2}.get(name, 0), f"{name}: {legends} legends")
            bars = sum(1 for e in root.iter(SVG + "image") if e.get("width") == "16")
            expect(bars == (0 if name in ("lines", "rope") else 1), f"{name}: {bars} colorbars")
            # A file named .svg gets the same document.
            path = os.path.join(tmp, name + ".svg")
            expect(run(*argv, "-o", path).returncode == 0, f"{name}: -o .svg")
            expect(open(path, "rb").read() == r.stdout, f"{name}: -o file differs from stdout")
            # PNG: same bytes from two runs, and --width/--height honoured.
            a, b = os.path.join(tmp, name + "a.png"), os.path.join(tmp, name + "b.png")
            run(*argv, "-o", a, "--width", "700", "--height", "420")
            run(*argv, "-o", b, "--width", "700", "--height", "420")
            data = open(a, "rb").read()
            expect(data == open(b, "rb").read(), f"{name}: two runs differ")
            expect(data[:8] == b"\x89PNG\r\n\x1a\n", f"{name}: PNG signature")
            expect(struct.unpack(">II", data[16:24]) == (700, 420), f"{name}: PNG size {struct.unpack('>II', data[16:24])}")
        env = dict(os.environ, COLUMNS="72", LINES="40")
        r = run("generate", "sinusoidal", "--len", "50", "--dim", "128", "--format", "ansi", env=env)
        lines = r.stdout.decode().splitlines()
        # Title, round(72·250/640) = 28 pixel rows in 14 lines, what was reduced, the colour scale.
        expect(len(lines) == 17, f"ansi: {len(lines)} lines")
        expect(all(l.count("\u2580") == 72 for l in lines[1:15]), "ansi: 72 half blocks per line")
        expect(lines[15] == "reduced 128\u219272 columns (sampled: they alternate), 50\u219228 rows (averaged)",
               f"ansi: reduction line {lines[15]!r}")
        expect("\x1b[38;2;" in r.stdout.decode() and "\x1b[48;2;" in r.stdout.decode(), "ansi: 24-bit colour codes")
        # 64×64 cells stretched to a 363×382 plot: 5.7 and 6.0 pixels per cell.
        check_svg_rasters(["similarity", "sinusoidal", "--len", "64", "--dim", "128", "--width", "520", "--height", "480"])
        check_svg_rasters(["generate", "alibi", "--len", "10", "--heads", "3", "--width", "500", "--height", "300"])
        check_gallery(tmp)
    check_colour_range_is_drawn_values()
    check_reference_labels_inside_frames()
    check_ansi_line_scale()
    finish()


if __name__ == "__main__":
    main()
