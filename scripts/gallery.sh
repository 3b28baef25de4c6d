#!/usr/bin/env bash
# The main job: installs what is missing, builds posenc, and draws the gallery:
# for every scheme a heatmap PNG, a CSV and a JSON, plus gallery/index.html that
# shows each figure with the command that made it.
#   scripts/gallery.sh [OUTDIR]      (default: gallery/)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
out="${1:-gallery}"
mkdir -p "$out"
posenc="$PWD/build/posenc"

# name | arguments of `posenc generate` (the seeds' 50×128 size unless the scheme needs another)
entries=(
  "integer|integer --len 50 --dim 16"
  "normalized|normalized --len 50 --dim 16"
  "binary|binary --len 64 --dim 8"
  "sine-pow2|sine --len 50 --dim 16 --frequencies pow2"
  "sine-paper|sine --len 50 --dim 128 --frequencies paper"
  "sinusoidal|sinusoidal --len 50 --dim 128"
  "sinusoidal-split|sinusoidal --len 50 --dim 128 --layout split"
  "sinusoidal-tensor2tensor|sinusoidal --len 50 --dim 128 --convention tensor2tensor"
  "sinusoidal-fairseq|sinusoidal --len 50 --dim 128 --convention fairseq"
  "learned|learned --len 50 --dim 128"
  "recurrent|recurrent --len 50 --dim 128"
)
extra_file="scripts/gallery_entries.txt"  # more entries, one "name|args" per line, added as schemes land
if [[ -f "$extra_file" ]]; then
  while IFS= read -r line; do [[ -n "$line" && "$line" != \#* ]] && entries+=("$line"); done < "$extra_file"
fi

html="$out/index.html"
{
  echo '<!doctype html><html><head><meta charset="utf-8"><title>posenc gallery</title>'
  echo '<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}'
  echo 'figure{margin:2em 0}img{max-width:100%;border:1px solid #ddd}code{background:#f4f4f4;padding:2px 4px}</style>'
  echo '</head><body><h1>posenc gallery</h1>'
  echo "<p>Made by <code>scripts/gallery.sh</code> with $("$posenc" --version). Each figure shows the command that made it; the CSV and JSON beside it hold the same table.</p>"
} > "$html"

for entry in "${entries[@]}"; do
  name="${entry%%|*}"
  args="${entry#*|}"
  read -r -a argv <<< "$args"
  for ext in png csv json; do
    "$posenc" generate "${argv[@]}" -o "$out/$name.$ext"
  done
  {
    echo "<figure><h2>$name</h2><img src=\"$name.png\" alt=\"$name\">"
    echo "<figcaption><code>posenc generate $args -o $name.png</code> &middot;"
    echo "<a href=\"$name.csv\">CSV</a> &middot; <a href=\"$name.json\">JSON</a></figcaption></figure>"
  } >> "$html"
  echo "gallery: $out/$name.{png,csv,json}"
done
echo '</body></html>' >> "$html"
echo "gallery: open $html"
