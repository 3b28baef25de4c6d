"""Writes the two small demo checkpoints docs/weights.md draws (python3 make_demo.py, from this
folder): opt-demo/, an OPT-like table of 66 × 16 whose rows 2..65 are a split [sin | cos] table
(ω_k = 10000^(−2k/16)) plus noise and whose rows 0-1 (never used by positions) are other values;
vit-demo/, a ViT-like [1, 17, 4] grid parameter (a near-zero class row, then a 4 × 4 patch grid
whose rows are (sin(y/2), cos(y/2), sin(x/2), cos(x/2)) plus noise); whisper-demo/, an encoder
table of 30 × 16 as modeling_whisper.sinusoids computes it in float32 and a random decoder table;
llama-demo/, two rotary_emb.inv_freq buffers written for rope_theta 10000 beside a config that
says 500000. Made-up values that show
the row rules, not a trained model. safetensors written as its README defines the format."""
import json
import os
import struct

import numpy as np


def save(folder, config, arrays):
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "config.json"), "w") as f:
        json.dump(config, f, indent=1)
        f.write("\n")
    header, data = {}, b""
    for name, a in arrays.items():
        raw = np.ascontiguousarray(a, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(a.shape), "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(os.path.join(folder, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + data)


rng = np.random.default_rng(0)
t = np.arange(64)[:, None]
w = 10000.0 ** (-2 * np.arange(8) / 16)
table = np.concatenate([np.sin(t * w), np.cos(t * w)], axis=1) + 0.05 * rng.standard_normal((64, 16))
save("opt-demo", {"model_type": "opt", "max_position_embeddings": 64, "hidden_size": 16, "num_attention_heads": 2,
                  "num_hidden_layers": 2},
     {"model.decoder.embed_positions.weight": np.vstack([rng.standard_normal((2, 16)) * 3, table])})
yy, xx = np.meshgrid(np.arange(4), np.arange(4), indexing="ij")
grid = np.stack([np.sin(yy / 2), np.cos(yy / 2), np.sin(xx / 2), np.cos(xx / 2)], axis=-1).reshape(16, 4)
save("vit-demo", {"model_type": "vit", "image_size": 32, "patch_size": 8, "hidden_size": 4, "num_attention_heads": 1,
                  "num_hidden_layers": 1},
     {"vit.embeddings.position_embeddings": np.vstack([np.zeros((1, 4)), grid])[None] + 0.01 * rng.standard_normal((1, 17, 4))})
inc = np.float32(np.log(10000) / (16 // 2 - 1))
inv = np.exp(-inc * np.arange(8, dtype=np.float32)).astype(np.float32)
angle = (np.arange(30, dtype=np.float32)[:, None] * inv[None, :]).astype(np.float32)
save("whisper-demo", {"model_type": "whisper", "max_source_positions": 30, "max_target_positions": 12, "d_model": 16,
                      "encoder_layers": 2, "decoder_layers": 2},
     {"model.encoder.embed_positions.weight": np.concatenate([np.sin(angle), np.cos(angle)], axis=1),
      "model.decoder.embed_positions.weight": rng.standard_normal((12, 16)) * 0.02})
inv_freq = (np.float32(1) / np.float32(10000) ** (np.arange(0, 16, 2).astype(np.float32) / np.float32(16))).astype(np.float32)
save("llama-demo", {"model_type": "llama", "hidden_size": 64, "num_attention_heads": 4, "num_hidden_layers": 2,
                    "rope_theta": 500000.0, "max_position_embeddings": 8192},
     {"model.layers.0.self_attn.rotary_emb.inv_freq": inv_freq, "model.layers.1.self_attn.rotary_emb.inv_freq": inv_freq})
