# posenc.usage against `posenc usage --format json` / `--table NAME -o x.npy` on a small checkpoint
# written here, and against numpy (weights.md §5: rho = |c + i s|, c = C00 + C11, s = C10 - C01,
# C = W_q,i W_k,i^T per pair, half layout).
import json
import struct
import xml.etree.ElementTree as ET
import zlib

import numpy as np
import pytest

import posenc
from conftest import cli_error, cli_json, run_cli
from test_posenc import assert_same


def write_model(folder, heads=2, d=8, hidden=16):
    rng = np.random.default_rng(5)
    folder.mkdir()
    config = {"model_type": "llama", "num_hidden_layers": 1, "num_attention_heads": heads, "num_key_value_heads": heads,
              "hidden_size": hidden, "head_dim": d, "rope_theta": 10000.0, "max_position_embeddings": 64}
    (folder / "config.json").write_text(json.dumps(config))
    wq = rng.standard_normal((heads * d, hidden)).astype(np.float32)
    wk = rng.standard_normal((heads * d, hidden)).astype(np.float32)
    tensors = {"model.layers.0.self_attn.q_proj.weight": wq, "model.layers.0.self_attn.k_proj.weight": wk,
               "model.layers.0.input_layernorm.weight": np.ones(hidden, np.float32)}
    header, blobs, off = {}, b"", 0
    for name, a in tensors.items():
        header[name] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [off, off + a.nbytes]}
        off += a.nbytes
        blobs += a.tobytes()
    h = json.dumps(header).encode()
    h += b" " * (-len(h) % 8)
    (folder / "model.safetensors").write_bytes(struct.pack("<Q", len(h)) + h + blobs)
    return wq.astype(np.float64), wk.astype(np.float64)


def test_usage_is_the_cli_and_numpy(tmp_path):
    folder = tmp_path / "m"
    wq, wk = write_model(folder)
    u = posenc.usage(folder)
    assert_same(u, cli_json("usage", folder))
    # numpy: per head, pair i's rows are i and i + 4 (half layout, head 8).
    q, k = wq.reshape(2, 8, 16), wk.reshape(2, 8, 16)
    qa, qb, ka, kb = q[:, :4], q[:, 4:], k[:, :4], k[:, 4:]
    dot = lambda a, b: (a * b).sum(-1)
    c = dot(qa, ka) + dot(qb, kb)
    s = dot(qb, ka) - dot(qa, kb)
    np.testing.assert_allclose(u["rho"][0], np.hypot(c, s), rtol=1e-6)
    np.testing.assert_allclose(u["phi"][0], np.arctan2(s, c), rtol=0, atol=1e-6)
    rho = posenc.usage(folder, table="rho")
    out = tmp_path / "rho.npy"
    run_cli("usage", folder, "--table", "rho", "-o", out)
    assert rho.dtype == np.float64 and np.array_equal(rho, np.load(out))
    with pytest.raises(posenc.Error) as e:
        posenc.usage(tmp_path / "none")
    assert str(e.value) == cli_error("usage", tmp_path / "none")
    with pytest.raises(posenc.Error, match="did you mean 'high_band'"):
        posenc.usage(folder, high_bnd=2)


def check_png(data, size):
    """A PNG as the format defines it: signature, chunks with their CRCs, IHDR of `size`, IDAT
    inflating to one filter byte plus width pixels per row, IEND last."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks, idat = 8, [], b""
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        assert struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0] == zlib.crc32(kind + body), kind
        chunks.append(kind)
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
        if kind == b"IDAT":
            idat += body
        pos += 12 + n
    assert chunks[0] == b"IHDR" and chunks[-1] == b"IEND" and (w, h) == tuple(size) and depth == 8
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]  # 3: palette indices
    assert len(zlib.decompress(idat)) == h * (1 + w * channels)


def test_usage_figure_is_the_cli(tmp_path):
    # figure("usage", PATH, ...) draws what `posenc usage PATH ... -o x.png|svg` writes, byte for
    # byte: the layer heatmap, --layer (heads of a layer), --figure wavelength with another table
    # and the figure options, --figure heads with a title and colormap.
    folder = tmp_path / "m"
    write_model(folder)
    cases = [((), {}, "png"),
             (("--layer", 0), {"layer": 0}, "svg"),
             (("--figure", "wavelength", "--table", "q-norm", "--width", 700, "--height", 420),
              {"figure": "wavelength", "table": "q-norm", "width": 700, "height": 420}, "png"),
             (("--figure", "heads", "--title", "T", "--cmap", "magma", "--high-band", 1),
              {"figure": "heads", "title": "T", "cmap": "magma", "high_band": 1}, "svg")]
    for args, kw, ext in cases:
        out = tmp_path / f"u.{ext}"
        run_cli("usage", folder, *args, "-o", out)
        fig = posenc.figure("usage", folder, **kw)
        assert (fig.png() if ext == "png" else fig.svg()) == out.read_bytes(), (args, kw)
        check_png(fig._repr_png_(), fig.size)
        root = ET.fromstring(fig._repr_svg_())
        assert root.tag.endswith("svg") and int(float(root.get("width"))) == fig.size[0]
    assert fig.size[0] >= 320
    with pytest.raises(posenc.Error, match="did you mean 'layer'"):
        posenc.figure("usage", folder, layr=0)
    with pytest.raises(posenc.Error, match="figure='bars': choose one of: layers, heads or wavelength"):
        posenc.figure("usage", folder, figure="bars")
    with pytest.raises(posenc.Error, match="takes one path"):
        posenc.figure("usage")


def test_tensors_list_and_permutation_are_the_cli(tmp_path):
    # posenc.tensors / posenc.list / posenc.rope_permutation: the command's JSON, and what the
    # file and transformers' permute (convert_llama_weights_to_hf.py) say independently.
    folder = tmp_path / "m"
    write_model(folder)
    path = folder / "model.safetensors"
    t = posenc.tensors(path)
    assert_same(t, cli_json("tensors", path))
    shapes = {x["name"]: (x["dtype"], tuple(x["shape"]), x["bytes"]) for x in t["tensors"]}
    assert shapes == {"model.layers.0.self_attn.q_proj.weight": ("F32", (16, 16), 1024),
                      "model.layers.0.self_attn.k_proj.weight": ("F32", (16, 16), 1024),
                      "model.layers.0.input_layernorm.weight": ("F32", (16,), 64)}
    assert t["total_bytes"] == 2112 and t["total_tensors"] == 3
    assert_same(posenc.tensors(path, filter="*q_proj*"), cli_json("tensors", path, "--filter", "*q_proj*"))
    assert_same(posenc.list(), cli_json("list"))
    names = [s["name"] for s in posenc.list()["schemes"]]
    assert "sinusoidal" in names and "rope" in names and "alibi" in names
    p = posenc.rope_permutation(dim=8)
    assert_same(p, cli_json("rope", "permutation", "--dim", 8))
    # permute(w): w.view(heads, d/2, 2, hidden).transpose(1, 2): half row j*4 + i is row 2i + j.
    want = np.arange(8).reshape(4, 2).T.reshape(-1)
    assert np.array_equal(p["to_half"], want) and np.array_equal(p["to_interleaved"], np.argsort(want))
    partial = posenc.rope_permutation(dim=10, rotary_dim=4)
    assert np.array_equal(partial["to_half"], [0, 2, 1, 3, 4, 5, 6, 7, 8, 9])
    with pytest.raises(posenc.Error, match="rope_permutation needs dim="):
        posenc.rope_permutation(rotary_dim=4)
    with pytest.raises(posenc.Error, match="did you mean 'filter'"):
        posenc.tensors(path, fliter="*")
