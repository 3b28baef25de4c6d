"""`rope diff --config-a CONFIG --config-b FILE.gguf` checks every layer (issue 27 item 3): the
sliding-window split and the sliding layers' base and scaling, the NoPE layers and the M-RoPE
sections. Header-only GGUF files are written here (GGUF v3 as the spec lays it out, no tensors)
from the shipped real configs the way llama.cpp's converter writes them
(../shared/reference/gguf.md §3: gemma.py, qwenvl.py, command_r.py); one posenc run per case.

Expected values come from the rules, not from posenc:
- Gemma3TextConfig: layer i slides iff (i + 1) % sliding_window_pattern (6) != 0; llama.cpp
  gemma3: set_swa_pattern(6) (il % 6 < 5) only when attention.sliding_window > 0, SWA base
  rope.freq_base_swa (default 10000), SWA scale 1; transformers' sliding rope: rope_local_base_freq
  (default 10000), rope_type default.
- Cohere2Attention and llama.cpp's cohere2 graph rotate only the sliding layers ((i + 1) % 4 != 0).
- SmolLM3: no_rope_layers[i] == 0 means no RoPE; llama.cpp's smollm3 skips (il + 1) % 4 == 0, its
  llama graph rotates every layer.
- EXAONE 4: llama.cpp's exaone4 gives the 64-layer model sliding layers il % 4 < 3 (n_swa 4096
  without the key) and rotates only those (models/exaone4.cpp: use_rope = is_swa(il) || no SWA);
  Exaone4Attention likewise rotates only the sliding layers of a hybrid model ("global NoPE").
- Qwen2-VL: transformers gives pair j of mrope_section [16, 24, 24] to t, h, w in contiguous
  chunks; ggml's M-RoPE gives pair j the stream of sector j % sum(sections) in the same order.
"""
import json
import os
import struct
import sys
import tempfile

from harness import expect, finish, run

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.join(HERE, "..", "data", "configs", "models")
U32, I32, F32, STR, ARR = 4, 5, 6, 8, 9


def gguf(kvs):
    """A GGUF v3 header with `kvs` [(key, type, value)] and no tensors."""
    def s(text):
        b = text.encode()
        return struct.pack("<Q", len(b)) + b

    body = b""
    for key, t, v in kvs:
        body += s(key) + struct.pack("<I", t)
        if t == STR:
            body += s(v)
        elif t == U32:
            body += struct.pack("<I", v)
        elif t == F32:
            body += struct.pack("<f", v)
        elif t == ARR:
            body += struct.pack("<IQ", I32, len(v)) + struct.pack("<%di" % len(v), *v)
    out = b"GGUF" + struct.pack("<IQQ", 3, 0, len(kvs)) + body
    return out + b"\0" * (-len(out) % 32)


def header(arch, ctx, embd, heads, layers, base, **extra):
    kvs = [("general.architecture", STR, arch), (f"{arch}.context_length", U32, ctx),
           (f"{arch}.embedding_length", U32, embd), (f"{arch}.attention.head_count", U32, heads),
           (f"{arch}.block_count", U32, layers), (f"{arch}.rope.freq_base", F32, base)]
    for k, (t, v) in extra.items():
        kvs.append((f"{arch}.{k.replace('__', '.')}", t, v))
    return kvs


def check(tmp, name, config, kvs):
    path = os.path.join(tmp, name + ".gguf")
    with open(path, "wb") as f:
        f.write(gguf([kv for kv in kvs if kv is not None]))
    r = run("rope", "diff", "--config-a", os.path.join(MODELS, config), "--config-b", path, "--format", "json", text=True)
    try:
        return r.returncode, json.loads(r.stdout), r.stderr
    except ValueError:
        return r.returncode, None, r.stderr


def errors(j):
    return [f for f in j["findings"] if f["severity"] == "error"] if j else []


def group(j, a, b):
    for g in j["per_layer_type"]:
        if (g["layer_type_a"], g["layer_type_b"]) == a and (g["rope_a"], g["rope_b"]) == b:
            return g
    return None


def main():
    # Gemma 3 4B (34 layers): transformers' and llama.cpp's sliding layers are the same 29.
    hf_sliding = [i for i in range(34) if (i + 1) % 6 != 0]
    ggml_sliding = [i for i in range(34) if i % 6 < 5]
    expect(hf_sliding == ggml_sliding and len(hf_sliding) == 29, "the two split rules agree on 29 of 34")
    full = [i for i in range(34) if i not in hf_sliding]
    gemma = header("gemma3", 131072, 2560, 8, 34, 1e6, attention__head_count_kv=(U32, 4),
                   attention__key_length=(U32, 256), attention__value_length=(U32, 256),
                   rope__scaling__type=(STR, "linear"), rope__scaling__factor=(F32, 8.0))
    swa_base = ("gemma3.rope.freq_base_swa", F32, 10000.0)
    window = ("gemma3.attention.sliding_window", U32, 1024)
    with tempfile.TemporaryDirectory() as tmp:
        rc, j, err = check(tmp, "gemma3", "gemma-3-4b.json", gemma + [swa_base, window])
        expect(rc == 0 and j and j["pass"] and j["kind"] == "gguf" and not errors(j), f"faithful Gemma 3: {rc} {err} {errors(j)}")
        g = group(j, ("sliding_attention", "sliding_attention"), (True, True)) if j else None
        expect(g and g["layers"] == hf_sliding and g["base_a"] == 10000 and g["base_b"] == 10000
               and g["scaling_a"] == "none" and g["scaling_b"] == "none", f"Gemma 3 sliding group: {g}")
        g = group(j, ("full_attention", "full_attention"), (True, True)) if j else None
        expect(g and g["layers"] == full and g["base_a"] == 1e6 and g["scaling_b"] == "linear" and g["factor_b"] == 8,
               f"Gemma 3 full group: {g}")
        expect(j and j["num_layers"] == 34, "num_layers 34")

        # A wrong SWA base: the 29 sliding layers rotate with 1e6 in llama.cpp.
        rc, j, err = check(tmp, "gemma3-swa", "gemma-3-4b.json", gemma + [("gemma3.rope.freq_base_swa", F32, 1e6), window])
        f = [x for x in errors(j) if x["what"] == "rope.freq_base_swa"]
        expect(rc == 1 and j and not j["pass"] and len(f) == 1, f"wrong freq_base_swa: {rc} {err} {errors(j)}")
        if f:
            expect("gemma3.rope.freq_base_swa" in f[0]["where"] and "29 of 34 layers" in f[0]["where"], f[0]["where"])
            expect(f[0]["expected"].startswith("10000 (") and "rope_local_base_freq" in f[0]["expected"], f[0]["expected"])
            expect(f[0]["found"].startswith("1000000 ("), f[0]["found"])

        # No attention.sliding_window: llama.cpp's gemma3 turns SWA off; 29 layers switch rope.
        rc, j, err = check(tmp, "gemma3-nowindow", "gemma-3-4b.json", gemma + [swa_base])
        f = [x for x in errors(j) if x["what"] == "sliding window"]
        expect(rc == 1 and len(f) == 1, f"no sliding_window: {rc} {err} {errors(j)}")
        if f:
            expect(f[0]["where"] == "gemma3.attention.sliding_window", f[0]["where"])
            expect("29 of 34 layers switch rope" in f[0]["cause"], f[0]["cause"])
            expect("29 of 34 layers" in f[0]["expected"] and "sliding_window 1024" in f[0]["expected"], f[0]["expected"])
            expect("absent" in f[0]["found"], f[0]["found"])

        # Qwen2-VL 2B: mrope_section [16, 24, 24] written padded to 4.
        qwen = header("qwen2vl", 32768, 1536, 12, 28, 1e6, attention__head_count_kv=(U32, 2))
        sections = lambda v: ("qwen2vl.rope.dimension_sections", ARR, v)
        rc, j, err = check(tmp, "qwen2vl", "qwen2-vl-2b.json", qwen + [sections([16, 24, 24, 0])])
        expect(rc == 0 and j and j["pass"], f"faithful Qwen2-VL: {rc} {err} {errors(j)}")
        hf_axis = [0] * 16 + [1] * 24 + [2] * 24
        wrong = [24, 20, 20, 0]
        ggml_axis = [0 if j_ % 64 < 24 else 1 if j_ % 64 < 44 else 2 for j_ in range(64)]
        moved = sum(a != b for a, b in zip(hf_axis, ggml_axis))
        rc, j, err = check(tmp, "qwen2vl-wrong", "qwen2-vl-2b.json", qwen + [sections(wrong)])
        f = [x for x in errors(j) if x["what"] == "rope.dimension_sections"]
        expect(rc == 1 and len(f) == 1, f"wrong sections: {rc} {err} {errors(j)}")
        if f:
            expect("28 of 28 layers" in f[0]["where"] and f[0]["expected"].startswith("[16, 24, 24, 0]")
                   and "mrope_section" in f[0]["expected"] and f[0]["found"] == "[24, 20, 20, 0]", f[0])
            expect(f[0]["cause"].startswith(f"{moved} of 64 frequency pairs"), (moved, f[0]["cause"]))
        rc, j, err = check(tmp, "qwen2vl-none", "qwen2-vl-2b.json", qwen)
        f = [x for x in errors(j) if x["what"] == "rope.dimension_sections"]
        expect(rc == 1 and len(f) == 1 and f[0]["found"] == "absent", f"missing sections: {rc} {err} {errors(j)}")

        # Command R7B (cohere2): both rotate only the 24 sliding layers.
        rc, j, err = check(tmp, "cohere2", "command-r7b.json",
                           header("cohere2", 8192, 4096, 32, 32, 50000.0, rope__scaling__type=(STR, "none"),
                                  attention__sliding_window=(U32, 4096)))
        nope = [i for i in range(32) if (i + 1) % 4 == 0]
        g = group(j, ("full_attention", "full_attention"), (False, False)) if j else None
        expect(rc == 0 and g and g["layers"] == nope, f"faithful Command R7B: {rc} {err} {errors(j)} {g}")

        # SmolLM3 3B converted as plain llama: llama.cpp rotates the 9 layers SmolLM3 leaves without RoPE.
        with open(os.path.join(MODELS, "smollm3-3b.json")) as cfg:
            hf_nope = [i for i, v in enumerate(json.load(cfg)["no_rope_layers"]) if v == 0]
        smol = lambda arch: header(arch, 65536, 2048, 16, 36, 5e6)
        rc, j, err = check(tmp, "smollm3", "smollm3-3b.json", smol("smollm3"))
        expect(rc == 0 and j and j["pass"], f"faithful SmolLM3: {rc} {err} {errors(j)}")
        rc, j, err = check(tmp, "smollm3-llama", "smollm3-3b.json", smol("llama"))
        f = [x for x in errors(j) if x["what"] == "NoPE layers"]
        expect(rc == 1 and len(f) == 1, f"SmolLM3 as llama: {rc} {err} {errors(j)}")
        if f:
            expect(f[0]["cause"].startswith(f"{len(hf_nope)} of 36 layers switch") and "9 of 36 layers" in f[0]["expected"]
                   and f[0]["found"] == "RoPE on every layer", f[0])

        # gpt-oss 20B converted under the olmo2 architecture: llama.cpp's olmo2 slides il % 4 < 3
        # and runs those layers unscaled; GptOssForCausalLM slides the even layers with YaRN ×32.
        oss = lambda arch: header(arch, 131072, 2880, 64, 24, 150000.0, attention__key_length=(U32, 64),
                                  rope__scaling__type=(STR, "yarn"), rope__scaling__factor=(F32, 32.0),
                                  rope__scaling__original_context_length=(U32, 4096), attention__sliding_window=(U32, 128))
        rc, j, err = check(tmp, "gpt-oss-olmo2", "gpt-oss-20b.json", oss("olmo2"))
        both = [i for i in range(24) if i % 2 == 0 and i % 4 < 3]
        f = [x for x in errors(j) if x["what"] == "per-layer-type scaling"]
        s = [x for x in errors(j) if x["what"] == "sliding window"]
        expect(rc == 1 and len(f) == 1 and len(s) == 1, f"gpt-oss as olmo2: {rc} {err} {errors(j)}")
        if f and s:
            expect(f[0]["where"].startswith(f"{len(both)} of 24 layers") and f[0]["expected"].startswith("yarn ×32")
                   and f[0]["found"].startswith("none"), f[0])
            switched = sum((i % 2 == 0) != (i % 4 < 3) for i in range(24))
            expect(s[0]["cause"].startswith(f"{switched} of 24 layers switch rope"), s[0]["cause"])
        # The faithful gpt-oss file: the sliding layers add no finding to the global ones (truncate: false).
        rc, j, err = check(tmp, "gpt-oss", "gpt-oss-20b.json", oss("gpt-oss"))
        expect(rc == 1 and j and all("of 24 layers" not in x["where"] for x in errors(j)), f"gpt-oss: {errors(j)}")

        # EXAONE 4 32B as llama.cpp runs it (posenc model): 16 of 64 layers without RoPE, window 4096.
        path = os.path.join(tmp, "exaone4.gguf")
        with open(path, "wb") as f:
            f.write(gguf(header("exaone4", 131072, 5120, 40, 64, 1e6)))
        r = run("model", path, "--format", "json", text=True)
        mech = json.loads(r.stdout)["mechanisms"] if r.returncode == 0 else []
        nope = [m["layers"] for m in mech if m["kind"] == "nope"]
        rope = [m for m in mech if m["kind"] == "rope"]
        expect(nope == [[i for i in range(64) if i % 4 == 3]], f"exaone4 NoPE layers: {r.stderr} {nope}")
        expect(len(rope) == 1 and rope[0]["layers"] == [i for i in range(64) if i % 4 < 3]
               and rope[0]["values"].get("sliding_window") == 4096, f"exaone4 rope: {rope}")
    finish()


if __name__ == "__main__":
    main()
