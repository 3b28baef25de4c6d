#!/usr/bin/env bash
# tools/compare_outputs.sh POSENC OUTDIR: the gallery and a sample of outputs (--format json and
# text) of every command, and model / rope --gguf / rope diff on every GGUF of ../shared, written
# into OUTDIR. Run it with two binaries and compare the folders (diff -r) to show that a change
# kept every output byte (issue 25: the house move and the function splits were checked so).
set -u
bin="$(realpath "$1")"; out="$(realpath -m "$2")"; rm -rf "$out"; mkdir -p "$out/json"
cd "$(dirname "$0")/.."
POSENC="$bin" bash scripts/gallery.sh "$out/gallery" >/dev/null 2>&1 || echo "gallery failed"
C=tests/data/configs; M=$C/models; G=../shared/data/gguf
i=0
while IFS= read -r line; do
  [[ -z "$line" || "$line" == \#* ]] && continue
  i=$((i+1))
  eval "\"$bin\" $line" > "$out/json/$i.out" 2> "$out/json/$i.err"; echo "rc=$? $line" >> "$out/json/$i.err"
done <<'CMDS'
generate sinusoidal --len 8 --dim 8 --format json
generate rope --len 8 --dim 16 --scaling yarn --factor 4 --original-max-position-embeddings 64 --format json
generate alibi --len 6 --heads 6 --format json
generate t5 --len 10 --format json
generate mrope --len 6 --format json
generate axial-rope --len 6 --format json
generate xpos --len 6 --dim 8 --format json
generate kerple --len 6 --format json
generate rope --hf-config $M/gemma-3-4b.json --len 4 --format json
generate alibi --hf-config $M/bloom-3b.json --len 4 --format json
decay rope --dim 64 --max-offset 100 --format json
decay sinusoidal --max-offset 50 --format json
similarity sinusoidal --len 10 --format json
project sinusoidal --len 10 --format json
check sinusoidal --format json
check rope --format json
check alibi --format json
rope --hf-config $C/llama-3.1-8b.json --format json
rope --hf-config $C/deepseek-r1.json --format json
rope --hf-config $C/gpt-oss-20b.json --format json
rope --hf-config $C/phi-3.5-mini.json --convention ggml --format json
rope --hf-config $C/qwen2.5-7b-yarn.json --convention vllm --format json
rope --hf-config $M/gemma-3-4b.json --layer-type sliding_attention --format json
rope engines --hf-config $C/llama-3.1-8b.json --len 64 --format json
rope engines --hf-config $C/deepseek-r1.json --len 64 --format json
rope engines --hf-config $C/gpt-oss-20b.json --len 64 --format json
rope diff --config-a $C/llama-3.1-8b.json --config-b $C/llama-2-7b-chat.json --format json
rope diff --config-a $C/llama-3.1-8b.json --convention-b ggml --format json
model $M/gemma-3-4b.json --format json
model $M/llama-4-maverick.json --format json
model $M/t5-base.json --format json
model $M/bloom-3b.json --format json
model $M/whisper-large-v3-turbo.json --format json
model $M/qwen2-vl-2b.json --format json
model $M/deepseek-v2-lite.json
model $M/gemma-3-4b.json
extrapolate --train-len 4096 --target-len 16384 --dim 64 --format json
extrapolate --hf-config $C/llama-3.1-8b.json --target-len 262144 --format json
list --format json
list
rope --hf-config $C/llama-3.1-8b.json
rope engines --hf-config $C/deepseek-r1.json --len 64
CMDS
for f in $G/*/*.gguf $G/*/*/*.gguf; do
  [[ -f "$f" ]] || continue
  n=$(echo "$f" | tr '/' '_')
  "$bin" model "$f" --format json > "$out/json/gguf_model_$n.out" 2>"$out/json/gguf_model_$n.err"; echo "rc=$?" >> "$out/json/gguf_model_$n.err"
  "$bin" rope --gguf "$f" --format json > "$out/json/gguf_rope_$n.out" 2>"$out/json/gguf_rope_$n.err"; echo "rc=$?" >> "$out/json/gguf_rope_$n.err"
  "$bin" rope diff --config-a $C/llama-3.1-8b.json --config-b "$f" --format json > "$out/json/gguf_diff_$n.out" 2>"$out/json/gguf_diff_$n.err"; echo "rc=$?" >> "$out/json/gguf_diff_$n.err"
done
# normalise the binary path in messages
sed -i "s#$bin#POSENC#g" "$out"/json/* 2>/dev/null
echo done
