"""The real binary draws figures: SVG that a real XML parser reads, with the labels
as <text>; PNG of the requested size; the same bytes from two runs; an ANSI
preview as wide as COLUMNS."""
import os
import struct
import tempfile
import xml.etree.ElementTree as ET

from harness import expect, finish, run

SVG = "{http://www.w3.org/2000/svg}"




def texts(svg_bytes):
    root = ET.fromstring(svg_bytes)
    return root, ["".join(t.itertext()) for t in root.iter(SVG + "text")]


def main():
    figures = {
        "heatmap": ["generate", "sinusoidal", "--len", "50", "--dim", "128"],
        "panels": ["generate", "alibi", "--len", "16", "--heads", "4"],
        "lines": ["decay", "sinusoidal", "--dim", "64", "--vary", "base=100,10000"],
        "scatter": ["project", "sine", "--dim", "3", "--len", "200"],
        "rope": ["rope", "--dim", "128", "--base", "500000", "--scaling", "llama3", "--factor", "8",
                 "--original-max-position-embeddings", "8192"],
    }
    labels = {"heatmap": ["dimension", "position", "value"], "panels": ["key position j", "head 3 (m = 0.003906)"],
              "lines": ["offset Δ = key − query", "base=100"], "scatter": ["position", "sin0"],
              "rope": ["pair i", "original context 8192"]}
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
            for label in labels[name]:
                expect(label in words, f"{name}: no <text> {label!r} in {words}")
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
        env = dict(os.environ, COLUMNS="72")
        r = run("generate", "sinusoidal", "--len", "50", "--dim", "128", "--format", "ansi", env=env)
        lines = r.stdout.decode().splitlines()
        # Title, round(72·250/640) = 28 pixel rows in 14 lines, the colour scale.
        expect(len(lines) == 16, f"ansi: {len(lines)} lines")
        expect(all(l.count("\u2580") == 72 for l in lines[1:15]), "ansi: 72 half blocks per line")
        expect("\x1b[38;2;" in r.stdout.decode() and "\x1b[48;2;" in r.stdout.decode(), "ansi: 24-bit colour codes")
    finish()


if __name__ == "__main__":
    main()
