"""posenc model on checkpoints written here (issue 28 item 4): a folder with config.json and a
model.safetensors written with numpy the way the format is defined (8-byte little-endian header
length, JSON header, each array's bytes; huggingface/safetensors README "Format"), and a GGUF
file, so that every row rule is visible: GPT-2 (row t for position t; a sinusoid table whose
closest sinusoid is its own base), OPT (rows 0-1 differ and are never used), BART (offset 2 in
the encoder and decoder tables), GPT-Neo, DistilBERT and ELECTRA (row t), Longformer (row t +
pad_token_id + 1), RoBERTa (rows t + 2, a zero padding row), Whisper (an encoder table equal to its formula, and one entry off by 0.01),
ViT (class row + 2x2 grid), SigLIP (3x3 grid, no class row), T5 (bias per bucket and head), stored
inv_freq buffers (one right, one written for another rope_theta), and a GGUF GPT-2 table. Every
expected value is computed here with numpy from the arrays written (formulas from
modeling_whisper.sinusoids and LlamaRotaryEmbedding's default inv_freq), never from posenc."""
import json
import os
import struct
import tempfile

import numpy as np

from harness import expect, finish, run


def save(path, arrays):
    header, data = {}, b""
    for name, a in arrays.items():
        a = np.ascontiguousarray(a, dtype=np.float32)
        raw = a.astype("<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data)


def folder(tmp, name, config, arrays):
    d = os.path.join(tmp, name)
    os.makedirs(d)
    json.dump(config, open(os.path.join(d, "config.json"), "w"))
    save(os.path.join(d, "model.safetensors"), arrays)
    return d


def report(path):
    r = run("model", path, "--format", "json", text=True)
    expect(r.returncode == 0, f"{path}: posenc model exits 0 ({r.stderr.strip()[:300]})")
    return json.loads(r.stdout) if r.returncode == 0 else {"mechanisms": []}


def mech(rep, kind, where=None):
    for m in rep["mechanisms"]:
        if m["kind"] == kind and (where is None or m["where"] == where or m.get("layer_type") == where):
            return m
    return {}


def close(got, want, tol):
    got, want = np.asarray(got, dtype=float), np.asarray(want, dtype=float)
    return got.shape == want.shape and bool(np.all(np.abs(got - want) <= tol))


def neighbour_cos(t, pairs):
    return [float(t[i] @ t[j] / np.sqrt((t[i] @ t[i]) * (t[j] @ t[j]))) for i, j in pairs]


WEIGHT_KEYS = {"tensor", "dtype", "shape", "first_row", "rows_used", "unused_rows", "row_norm"}

with tempfile.TemporaryDirectory() as tmp:
    rng = np.random.default_rng(28)
    f32 = lambda a: np.asarray(a, dtype=np.float32)

    # GPT-2: a split [sin | cos] table with w_k = 1000^(-2k/d): its closest sinusoid is base 1000
    # (10^(60/20), on the fit's grid) with a cosine-similarity difference of float32 rounding.
    n, d = 16, 8
    w = 1000.0 ** (-2 * np.arange(d // 2) / d)
    wpe = f32(np.concatenate([np.sin(np.arange(n)[:, None] * w), np.cos(np.arange(n)[:, None] * w)], axis=1))
    rep = report(folder(tmp, "gpt2", {"model_type": "gpt2", "n_positions": n, "n_embd": d, "n_layer": 1}, {"wpe.weight": wpe}))
    m = mech(rep, "learned")
    wt, s = m.get("weights", {}), m.get("weights_summary", {})
    expect(set(wt) == WEIGHT_KEYS, f"gpt2: the weights keys are the issue's ({sorted(wt)})")
    expect(wt.get("tensor") == "wpe.weight" and wt.get("shape") == [n, d] and wt.get("dtype") == "F32",
           f"gpt2: wpe.weight F32 [16, 8] found by its suffix ({wt.get('tensor')}, {wt.get('shape')})")
    expect(wt.get("first_row") == 0 and wt.get("rows_used") == [0, n - 1] and wt.get("unused_rows") == [],
           f"gpt2: row t is position t, every row used ({wt.get('first_row')}, {wt.get('rows_used')}, {wt.get('unused_rows')})")
    expect(close(wt.get("row_norm", []), np.linalg.norm(wpe.astype(float), axis=1), 1e-12), "gpt2: row norms as numpy's")
    want = neighbour_cos(wpe.astype(float), [(i, i + 1) for i in range(n - 1)])
    expect(abs(s.get("neighbour_cosine_mean", 9) - np.mean(want)) < 1e-12 and abs(s.get("neighbour_cosine_min", 9) - min(want)) < 1e-12,
           f"gpt2: neighbouring rows' cosine mean/min as numpy's ({s.get('neighbour_cosine_mean')}, {np.mean(want)})")
    expect(abs(s.get("sinusoid_base", 0) - 1000) < 1e-6 and s.get("sinusoid_rms", 1) < 1e-6,
           f"gpt2: the closest sinusoid is base 1000 with RMS < 1e-6 ({s.get('sinusoid_base')}, {s.get('sinusoid_rms')})")
    expect(s.get("sinusoid_rms_base_10000", 0) > 1e-3, "gpt2: base 10000 fits worse")

    # The same table in a sharded checkpoint: found through model.safetensors.index.json.
    shards = os.path.join(tmp, "sharded")
    os.makedirs(shards)
    json.dump({"model_type": "gpt2", "n_positions": n, "n_embd": 8, "n_layer": 1}, open(os.path.join(shards, "config.json"), "w"))
    save(os.path.join(shards, "model-00001-of-00002.safetensors"), {"wte.weight": f32(rng.standard_normal((5, 8)))})
    save(os.path.join(shards, "model-00002-of-00002.safetensors"), {"wpe.weight": wpe})
    json.dump({"metadata": {"total_size": 5 * 8 * 4 + wpe.nbytes},
               "weight_map": {"wte.weight": "model-00001-of-00002.safetensors", "wpe.weight": "model-00002-of-00002.safetensors"}},
              open(os.path.join(shards, "model.safetensors.index.json"), "w"))
    rep = report(shards)
    wt = mech(rep, "learned").get("weights", {})
    expect(str(rep.get("weights_source", "")).endswith("model.safetensors.index.json") and wt.get("tensor") == "wpe.weight"
           and close(wt.get("row_norm", []), np.linalg.norm(wpe.astype(float), axis=1), 1e-12),
           f"sharded gpt2: wpe.weight read from the second shard through the index ({rep.get('weights_source')})")

    # OPT: offset 2, rows 0-1 set apart (norm 100·2), positions use rows 2..7.
    opt = f32(rng.standard_normal((8, 4)))
    opt[:2] = 100.0
    rep = report(folder(tmp, "opt", {"model_type": "opt", "max_position_embeddings": 6, "hidden_size": 4,
                                     "num_hidden_layers": 1}, {"model.decoder.embed_positions.weight": opt}))
    m = mech(rep, "learned")
    wt, s = m.get("weights", {}), m.get("weights_summary", {})
    expect(wt.get("first_row") == 2 and wt.get("rows_used") == [2, 7] and wt.get("unused_rows") == [0, 1],
           f"opt: position 0 is row 2, rows 0-1 unused ({wt.get('first_row')}, {wt.get('rows_used')}, {wt.get('unused_rows')})")
    expect(close(wt.get("row_norm", []), np.linalg.norm(opt.astype(float), axis=1), 1e-12) and abs(wt["row_norm"][0] - 200) < 1e-12,
           "opt: row norms as numpy's (rows 0-1: 200)")
    want = neighbour_cos(opt.astype(float), [(i, i + 1) for i in range(2, 7)])
    expect(abs(s.get("neighbour_cosine_mean", 9) - np.mean(want)) < 1e-12, "opt: neighbour cosine over the used rows only")
    expect(s.get("padding_row") == 1, "opt: padding tokens take row 1")

    # Learned tables with a row rule, one run each: (model_type, config, tensors per stack, stored rows,
    # row of position 0). BartLearnedPositionalEmbedding: max_position_embeddings + 2 rows,
    # forward(position_ids + 2), in the encoder and the decoder; GPTNeoModel.wpe, DistilBERT's
    # Embeddings and ElectraEmbeddings: max_position_embeddings rows, row t; LongformerEmbeddings:
    # max_position_embeddings rows, create_position_ids_from_input_ids gives row t + pad_token_id + 1.
    def rule(rows, offset):
        return offset, [offset, rows - 1], list(range(offset))

    emb = "embeddings.position_embeddings.weight"
    for mt, cfg, names, rows, offset in (
            ("bart", {"max_position_embeddings": 6, "d_model": 4, "num_hidden_layers": 1},
             {"encoder": "model.encoder.embed_positions.weight", "decoder": "model.decoder.embed_positions.weight"}, 6 + 2, 2),
            ("mbart", {"max_position_embeddings": 5, "d_model": 4, "num_hidden_layers": 1},  # MBartLearnedPositionalEmbedding: as BART's
             {"encoder": "model.encoder.embed_positions.weight", "decoder": "model.decoder.embed_positions.weight"}, 5 + 2, 2),
            ("gpt_neo", {"max_position_embeddings": 7, "hidden_size": 4, "num_layers": 1},
             {"embeddings": "transformer.wpe.weight"}, 7, 0),
            ("distilbert", {"max_position_embeddings": 5, "dim": 4, "n_layers": 1}, {"embeddings": "distilbert." + emb}, 5, 0),
            ("electra", {"max_position_embeddings": 6, "embedding_size": 4, "hidden_size": 8, "num_hidden_layers": 1},
             {"embeddings": "electra." + emb}, 6, 0),
            ("longformer", {"max_position_embeddings": 9, "hidden_size": 4, "pad_token_id": 3, "num_hidden_layers": 1},
             {"embeddings": "longformer." + emb}, 9, 3 + 1)):
        tables = {k: f32(rng.standard_normal((rows, 4))) for k in names}
        for t in tables.values():
            t[:offset] = 50.0
        rep = report(folder(tmp, mt, {"model_type": mt, **cfg}, {names[k]: tables[k] for k in names}))
        for where, name in names.items():
            m = mech(rep, "learned", where)
            wt = m.get("weights", {})
            got = (wt.get("first_row"), wt.get("rows_used"), wt.get("unused_rows"))
            expect(len([x for x in rep["mechanisms"] if x["kind"] == "learned"]) == len(names) and wt.get("tensor") == name
                   and wt.get("shape") == [rows, 4] and got == rule(rows, offset)
                   and close(wt.get("row_norm", []), np.linalg.norm(tables[where].astype(float), axis=1), 1e-12),
                   f"{mt} {where}: {name}, first row / rows used / unused {got} (want {rule(rows, offset)})")
    expect(mech(rep, "learned").get("weights_summary", {}).get("padding_row") == 3, "longformer: padding tokens take row pad_token_id")

    # RoBERTa: rows t + padding_idx + 1; row 1 (padding_idx) zero.
    rob = f32(rng.standard_normal((10, 4)))
    rob[1] = 0
    rep = report(folder(tmp, "roberta", {"model_type": "roberta", "max_position_embeddings": 10, "hidden_size": 4,
                                         "pad_token_id": 1, "num_hidden_layers": 1},
                        {"roberta.embeddings.position_embeddings.weight": rob}))
    m = mech(rep, "learned")
    wt, s = m.get("weights", {}), m.get("weights_summary", {})
    expect(wt.get("first_row") == 2 and wt.get("rows_used") == [2, 9] and wt.get("unused_rows") == [0, 1]
           and s.get("padding_row") == 1, f"roberta: rows t + 2, padding row 1 ({wt.get('rows_used')}, {s.get('padding_row')})")
    expect(any("row 1 (padding) is all zeros" in f for f in s.get("findings", [])), "roberta: the zero padding row is a finding")

    # Whisper: the encoder table as modeling_whisper.sinusoids computes it in float32; the decoder table learned.
    def whisper_sinusoids(length, channels):
        inc = np.float32(np.log(10000) / (channels // 2 - 1))
        inv = np.exp(-inc * np.arange(channels // 2, dtype=np.float32)).astype(np.float32)
        t = (np.arange(length, dtype=np.float32)[:, None] * inv[None, :]).astype(np.float32)
        return np.concatenate([np.sin(t), np.cos(t)], axis=1).astype(np.float32)

    enc = whisper_sinusoids(12, 8)
    dec = f32(rng.standard_normal((5, 8)))
    cfg = {"model_type": "whisper", "max_source_positions": 12, "max_target_positions": 5, "d_model": 8,
           "encoder_layers": 1, "decoder_layers": 1}
    for name, table, want_diff in (("whisper", enc, 0.0), ("whisper_off", None, 0.01)):
        if table is None:
            table = enc.copy()
            table[7, 3] += np.float32(0.01)
            want_diff = float(abs(np.float64(table[7, 3]) - np.float64(enc[7, 3])))
        rep = report(folder(tmp, name, cfg, {"model.encoder.embed_positions.weight": table,
                                             "model.decoder.embed_positions.weight": dec}))
        e, dm = mech(rep, "sinusoidal", "encoder"), mech(rep, "learned", "decoder")
        got = e.get("weights", {}).get("formula_max_abs_diff", 9)
        # sin/cos rounded to float32 by numpy and by posenc may differ by one ulp (< 1.2e-7 here)
        expect(abs(got - want_diff) < 2e-7, f"{name}: encoder table against its formula: max |diff| {got} (want {want_diff})")
        expect(set(e.get("weights", {})) == WEIGHT_KEYS | {"formula_max_abs_diff"}, f"{name}: encoder weights keys")
        expect(dm.get("weights", {}).get("rows_used") == [0, 4] and "formula_max_abs_diff" not in dm.get("weights", {}),
               f"{name}: the decoder table is learned, rows 0-4")
        expect((want_diff > 1e-6) == any("differs from Whisper" in f for f in e.get("weights_summary", {}).get("findings", [])),
               f"{name}: a finding only when the table is not the formula")

    # ViT: class row + 2x2 grid (image 8, patch 4), stored [1, 5, 4].
    vit = f32(rng.standard_normal((1, 5, 4)))
    rep = report(folder(tmp, "vit", {"model_type": "vit", "image_size": 8, "patch_size": 4, "hidden_size": 4,
                                     "num_hidden_layers": 1}, {"vit.embeddings.position_embeddings": vit}))
    m = mech(rep, "learned-grid")
    wt, s = m.get("weights", {}), m.get("weights_summary", {})
    expect(m.get("values", {}).get("grid_rows") == 2 and m["values"].get("grid_cols") == 2 and m["values"].get("class_token") is True,
           "vit: a 2x2 grid with a class token from image_size 8 / patch_size 4")
    expect(wt.get("shape") == [1, 5, 4] and wt.get("rows_used") == [0, 4] and s.get("class_token") is True,
           f"vit: [1, 5, 4] read as 5 rows, class row 0 ({wt.get('shape')}, {wt.get('rows_used')})")
    want = neighbour_cos(vit[0].astype(float), [(1, 2), (3, 4)])
    expect(abs(s.get("neighbour_cosine_mean", 9) - np.mean(want)) < 1e-12, "vit: neighbours are horizontally adjacent patches")

    # SigLIP: 3x3 grid, no class row.
    sig = f32(rng.standard_normal((9, 4)))
    rep = report(folder(tmp, "siglip", {"model_type": "siglip_vision_model", "image_size": 12, "patch_size": 4,
                                        "hidden_size": 4, "num_hidden_layers": 1},
                        {"vision_model.embeddings.position_embedding.weight": sig}))
    m = mech(rep, "learned-grid")
    wt, s = m.get("weights", {}), m.get("weights_summary", {})
    expect(m.get("values", {}).get("class_token") is False and wt.get("rows_used") == [0, 8] and s.get("grid_rows") == 3,
           "siglip: 9 patch rows, no class token")
    want = neighbour_cos(sig.astype(float), [(y * 3 + x, y * 3 + x + 1) for y in range(3) for x in range(2)])
    expect(abs(s.get("neighbour_cosine_mean", 9) - np.mean(want)) < 1e-12, "siglip: grid neighbours")

    # Reformer's axial table. Config: ReformerModelTester's defaults (huggingface/transformers
    # tests/models/reformer/test_modeling_reformer.py @ 01841b341b64: hidden_size 32, axial_pos_shape
    # [4, 8], axial_pos_embds_dim [16, 16], max_position_embeddings 512, axial_pos_embds true).
    # Expected: AxialPositionEmbeddings.forward transcribed in numpy (each factor broadcast to
    # axial_pos_shape, concatenated on the last axis, reshaped to 32 rows).
    reformer_cfg = {"model_type": "reformer", "hidden_size": 32, "num_attention_heads": 2, "attention_head_size": 16,
                    "attn_layers": ["local", "local"], "max_position_embeddings": 512, "axial_pos_embds": True,
                    "axial_pos_shape": [4, 8], "axial_pos_embds_dim": [16, 16], "is_decoder": True,
                    "_source": "huggingface/transformers tests/models/reformer/test_modeling_reformer.py @ "
                               "01841b341b64ab547cd2e30f09cb9c74929f50f2, ReformerModelTester.__init__ defaults"}
    w0, w1 = f32(rng.standard_normal((4, 1, 16))), f32(rng.standard_normal((1, 8, 16)))
    built = np.concatenate([np.broadcast_to(w0, (4, 8, 16)), np.broadcast_to(w1, (4, 8, 16))], axis=-1).reshape(32, 32)
    built = built.astype(np.float64)
    names = ["reformer.embeddings.position_embeddings.weights.0", "reformer.embeddings.position_embeddings.weights.1"]
    for label, cfg, used in (("tester config", reformer_cfg, 32),
                             ("max_position_embeddings 20 (a variant)", dict(reformer_cfg, max_position_embeddings=20), 20)):
        rep = report(folder(tmp, f"reformer{used}", cfg, {names[0]: w0, names[1]: w1}))
        m = mech(rep, "learned")
        wt, s = m.get("weights", {}), m.get("weights_summary", {})
        expect(wt.get("shape") == [32, 32] and wt.get("parts") == [{"tensor": names[0], "shape": [4, 1, 16]},
                                                                    {"tensor": names[1], "shape": [1, 8, 16]}],
               f"reformer {label}: the built table's shape and its two parts ({wt})")
        expect(wt.get("rows_used") == [0, used - 1] and wt.get("unused_rows") == list(range(used, 32))
               and wt.get("first_row") == 0, f"reformer {label}: rows used ({wt.get('rows_used')}, {wt.get('unused_rows')})")
        expect(close(wt.get("row_norm", []), np.linalg.norm(built, axis=1), 1e-12),
               f"reformer {label}: row norms of concat(weights.0[i0], weights.1[i1])")
        want = neighbour_cos(built, [(i, i + 1) for i in range(used - 1)])
        expect(abs(s.get("neighbour_cosine_mean", 9) - np.mean(want)) < 1e-12,
               f"reformer {label}: neighbour cosine over the used rows ({s.get('neighbour_cosine_mean')}, {np.mean(want)})")
    rep = report(folder(tmp, "reformer_bad", reformer_cfg, {names[0]: w0, names[1]: f32(np.zeros((1, 4, 16)))}))
    m = mech(rep, "learned")
    expect("weights" not in m and any("has shape [1, 4, 16]" in n and "[1, 8, 16]" in n for n in m.get("notes", [])),
           f"reformer: a factor of the wrong shape is named, no table built ({m.get('notes')})")

    # T5: the bias of each stack, buckets x heads, as stored.
    eb, db = f32(rng.standard_normal((4, 2))), f32(rng.standard_normal((4, 2)))
    rep = report(folder(tmp, "t5", {"model_type": "t5", "relative_attention_num_buckets": 4, "num_heads": 2, "d_model": 8,
                                    "num_layers": 1},
                        {"encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight": eb,
                         "decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight": db}))
    for stack, b in (("encoder", eb), ("decoder", db)):
        wt = mech(rep, "t5", stack).get("weights", {})
        expect(set(wt) == {"tensor", "dtype", "shape", "bias"} and close(wt.get("bias", []), b.astype(float), 0),
               f"t5 {stack}: bias [4 buckets x 2 heads] as stored")

    # Llama with stored inv_freq: layer 0 as the config says (rope_theta 10000, head_dim 8), layer 1 from 500000.
    # LlamaRotaryEmbedding (default rope): inv_freq = 1 / base ** (arange(0, dim, 2).float() / dim), in float32
    inv = lambda theta: (np.float32(1) / np.float32(theta) ** (np.arange(0, 8, 2).astype(np.float32) / np.float32(8))).astype(np.float32)
    rep = report(folder(tmp, "llama", {"model_type": "llama", "hidden_size": 16, "num_attention_heads": 2, "num_hidden_layers": 2,
                                       "rope_theta": 10000.0, "max_position_embeddings": 64},
                        {"model.layers.0.self_attn.rotary_emb.inv_freq": f32(inv(1e4)),
                         "model.layers.1.self_attn.rotary_emb.inv_freq": f32(inv(5e5))}))
    m = mech(rep, "rope")
    ws = {t["tensor"]: t for t in m.get("weights", [])}
    expect(len(ws) == 2, f"llama: both stored inv_freq tensors read ({sorted(ws)})")
    for layer, theta in ((0, 1e4), (1, 5e5)):
        t = ws.get(f"model.layers.{layer}.self_attn.rotary_emb.inv_freq", {})
        stored, config = inv(theta).astype(float), inv(1e4).astype(float)
        want = float(np.max(np.abs(stored - config) / config))
        # float32 pow may round differently by one ulp (6e-8 relative) in numpy and in posenc
        expect(set(t) == {"tensor", "dtype", "shape", "stored", "expected", "max_rel_diff"}
               and close(t.get("stored", []), stored, 0) and close(np.asarray(t.get("expected", [])) / config, np.ones(4), 1.2e-7)
               and abs(t.get("max_rel_diff", 9) - want) <= 2.4e-7,
               f"llama layer {layer}: stored, expected, max_rel_diff {t.get('max_rel_diff')} (want {want})")
    notes = " ".join(m.get("notes", []))
    expect("model.layers.1.self_attn.rotary_emb.inv_freq differs" in notes and "layers.0.self_attn.rotary_emb.inv_freq differs" not in notes,
           "llama: a finding for layer 1's buffer only")

    # Figures of the table read: a PNG; a grid figure of a model without a grid refused in one line.
    png = os.path.join(tmp, "sim.png")
    r = run("model", os.path.join(tmp, "opt"), "--weights-figure", "similarity", "-o", png, text=True)
    expect(r.returncode == 0 and open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n", f"opt: similarity figure ({r.stderr.strip()[:200]})")
    r = run("model", os.path.join(tmp, "opt"), "--weights-figure", "patch", "-o", os.path.join(tmp, "patch.png"), text=True)
    expect(r.returncode == 2 and r.stderr.count("\n") == 1 and "no patch grid read from weights" in r.stderr
           and not os.path.exists(os.path.join(tmp, "patch.png")), f"opt: --weights-figure patch refused in one line ({r.stderr.strip()[:200]})")

    # GGUF files (ggml docs/gguf.md: header, key/values, tensor infos with ne innermost first, data
    # aligned to 32 bytes): GPT-2's position_embd.weight F32 ne [8, 6] = PyTorch [6, 8]; T5's
    # attn_rel_b of each stack, ne [heads 2, buckets 4] = PyTorch [4, 2] as transformers stores it.
    def s_(text):
        b = text.encode()
        return struct.pack("<Q", len(b)) + b

    def gguf_file(path, arch, keys, tensors):
        kvs = [s_("general.architecture") + struct.pack("<I", 8) + s_(arch)]
        kvs += [s_(f"{arch}.{k}") + struct.pack("<II", 4, v) for k, v in keys]
        head, data = b"GGUF" + struct.pack("<IQQ", 3, len(tensors), len(kvs)) + b"".join(kvs), b""
        for name, a in tensors:
            ne = list(reversed(a.shape))
            head += s_(name) + struct.pack("<I", len(ne)) + struct.pack(f"<{len(ne)}Q", *ne) + struct.pack("<IQ", 0, len(data))
            blob = a.astype("<f4").tobytes()
            data += blob + b"\0" * (-len(blob) % 32)
        head += b"\0" * (-len(head) % 32)
        open(path, "wb").write(head + data)

    pos = f32(rng.standard_normal((6, 8)))
    gguf = os.path.join(tmp, "gpt2.gguf")
    gguf_file(gguf, "gpt2", [("context_length", 6), ("embedding_length", 8), ("block_count", 1), ("attention.head_count", 2)],
              [("position_embd.weight", pos)])
    t5g = os.path.join(tmp, "t5.gguf")
    gguf_file(t5g, "t5", [("context_length", 512), ("embedding_length", 8), ("block_count", 1), ("attention.head_count", 2),
                          ("attention.relative_buckets_count", 4)],
              [("enc.blk.0.attn_rel_b.weight", eb), ("dec.blk.0.attn_rel_b.weight", db)])
    rep = report(t5g)
    for stack, b in (("encoder", eb), ("decoder", db)):
        wt = mech(rep, "t5", stack).get("weights", {})
        expect(wt.get("shape") == [4, 2] and close(wt.get("bias", []), b.astype(float), 0),
               f"gguf t5 {stack}: attn_rel_b as [4 buckets x 2 heads] ({wt.get('tensor')}, {wt.get('shape')})")
    rep = report(gguf)
    wt = mech(rep, "learned").get("weights", {})
    expect(wt.get("shape") == [6, 8] and wt.get("rows_used") == [0, 5] and close(wt.get("row_norm", []), np.linalg.norm(pos.astype(float), axis=1), 1e-12),
           f"gguf gpt2: position_embd.weight [6, 8], rows 0-5, row norms as numpy's ({wt.get('shape')})")
    t = run("model", gguf, text=True)
    expect(t.returncode == 0 and "weights: position_embd.weight F32 [6, 8]" in t.stdout and "rule: row t holds position t" in t.stdout,
           f"gguf gpt2: the text report shows the tensor and its rule ({t.stderr.strip()[:200]})")

    # A llama GGUF's rope_freqs.weight (n_rot 16: 8 pairs, freq_base 500000). Expected: llama.cpp's
    # convert_hf_to_gguf.py LlamaModel.generate_extra_tensors transcribed in numpy float32 (torch
    # float32 frequencies and wavelengths). convert_hf_to_gguf.py writes no llama3 keys: without
    # them the report says it cannot predict the tensor; with factor, low/high_freq_factor and the
    # original context written as keys (as some other converters do) the tensor is compared.
    def llama3_factors(base, dim, factor, low, high, old):
        freqs = np.float32(1.0) / (np.float32(base) ** (np.arange(0, dim, 2, dtype=np.float32) / np.float32(dim)))
        out = []
        for freq in freqs:
            wavelen = np.float32(2 * np.pi) / freq
            if wavelen < old / high:
                out.append(1.0)
            elif wavelen > old / low:
                out.append(factor)
            else:
                smooth = (np.float32(old) / wavelen - np.float32(low)) / np.float32(high - low)
                out.append(np.float32(1) / ((np.float32(1) - smooth) / np.float32(factor) + smooth))
        return np.array(out, dtype=np.float32)

    def llama_gguf(path, extra_keys, rope_tensors):
        def kv(k, t, v):
            packed = {4: lambda: struct.pack("<I", v), 6: lambda: struct.pack("<f", v), 8: lambda: s_(v)}[t]()
            return s_(k) + struct.pack("<I", t) + packed
        keys = [("general.architecture", 8, "llama"), ("llama.context_length", 4, 131072), ("llama.embedding_length", 4, 64),
                ("llama.block_count", 4, 1), ("llama.attention.head_count", 4, 4), ("llama.rope.dimension_count", 4, 16),
                ("llama.rope.freq_base", 6, 500000.0)] + extra_keys
        head = b"GGUF" + struct.pack("<IQQ", 3, len(rope_tensors), len(keys)) + b"".join(kv(*k) for k in keys)
        data = b""
        for name, a in rope_tensors:
            head += s_(name) + struct.pack("<IQ", 1, a.size) + struct.pack("<IQ", 0, len(data))
            blob = a.astype("<f4").tobytes()
            data += blob + b"\0" * (-len(blob) % 32)
        head += b"\0" * (-len(head) % 32)
        open(path, "wb").write(head + data)

    want = llama3_factors(500000.0, 16, 8.0, 1.0, 4.0, 64)  # old context 64: the three bands all occur
    expect(1.0 in want and 8.0 in want and np.any((want > 1) & (want < 8)), f"llama3 test factors span the bands: {want}")
    llama3_keys = [("llama.rope.scaling.type", 8, "none"), ("llama.rope.scaling.factor", 6, 8.0),
                   ("llama.rope.scaling.low_freq_factor", 6, 1.0), ("llama.rope.scaling.high_freq_factor", 6, 4.0),
                   ("llama.rope.scaling.original_context_length", 4, 64)]
    cases = (("no llama3 keys", [], want, None), ("llama3 keys, right tensor", llama3_keys, want, "agrees"),
             ("llama3 keys, pair 5 off by 1%", llama3_keys, np.where(np.arange(8) == 5, want * np.float32(1.01), want),
              "differs"))
    for label, keys, stored, verdict in cases:
        path = os.path.join(tmp, "llama3.gguf")
        llama_gguf(path, keys, [("rope_freqs.weight", f32(stored)), ("rope_factors_long.weight", f32(np.ones(8)))])
        rep = report(path)
        m = mech(rep, "rope")
        tensors = {t.get("tensor"): t for t in m.get("weights", [])} if isinstance(m.get("weights"), list) else {}
        rf = tensors.get("rope_freqs.weight", {})
        notes = " | ".join(m.get("notes", []))
        if verdict is None:
            expect(rf.get("expected") is None and "rope_freqs.weight (8 values, 1 to 8) has no expected values here" in notes
                   and "llama.rope.scaling.low_freq_factor" in notes and "posenc rope diff" in notes,
                   f"gguf {label}: says it cannot predict rope_freqs and why ({notes[:400]})")
        else:
            expect(close(rf.get("expected", []), want.astype(float), 1e-6 * 8), f"gguf {label}: expected = numpy's llama3 factors ({rf.get('expected')})")
            expect(f"rope_freqs.weight {verdict} " in notes and (verdict == "agrees" or "pair 5" in notes),
                   f"gguf {label}: the finding ({notes[:400]})")
        expect("rope_factors_long.weight (8 values) has no expected values here" in notes and "long_factor" in notes,
               f"gguf {label}: LongRoPE factors cannot be predicted from keys, said so ({notes[:300]})")
finish()
