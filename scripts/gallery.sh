#!/usr/bin/env bash
# The main job: installs what is missing, builds posenc, and draws the gallery: for
# every entry a figure (PNG and SVG) and its data (CSV and JSON), plus
# gallery/index.html that shows each figure with the command that made it.
#   scripts/gallery.sh [OUTDIR]      (default: gallery/)
#   scripts/gallery.sh --docs        redraws docs/img/NAME.png for every entry (the docs pages
#                                    show them) and docs/gallery.md from the entries that have
#                                    a caption (third field)
# Figures whose caption starts with "+ " stand beside the previous one, in both outputs.
# An entry is "name|arguments|caption": the arguments of a posenc command
# (generate, decay, similarity, project, rope, model, extrapolate); arguments that start with a scheme
# name mean `posenc generate ...`; they are shell words (quote a --title with spaces).
# POSENC=path/to/posenc skips the setup and build.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -z "${POSENC:-}" ]]; then
  scripts/setup.sh
  POSENC="$PWD/build/posenc"
fi
posenc="$(realpath "$POSENC")"
docs=0
if [[ "${1:-}" == "--docs" ]]; then
  docs=1
  out="docs/img"
else
  out="${1:-gallery}"
fi
mkdir -p "$out"

# name | arguments | caption (entries with a caption are also in docs/gallery.md)
entries=(
  "integer|integer --len 50 --dim 16"
  "normalized|normalized --len 50 --dim 16"
  "binary|binary --len 64 --dim 8|The binary table (seed 1.3), most significant bit first (the default \`--bit-order msb\`): column k of D = 8 is bit D−1−k of the position (worth 2^(D−1−k)) and flips every 2^(D−1−k) rows: the last column every row, column 2 at 32, and columns 0 and 1 (128 and 64) stay 0 over these 64 positions; the values are discrete and the bits do not say how far apart two positions are."
  "sine|sine --len 50 --dim 16 --frequencies pow2"
  "sine-paper|sine --len 50 --dim 128 --frequencies paper"
  "sinusoidal|sinusoidal --len 50 --dim 128|The seeds' 50×128 sinusoidal table: sin/cos pairs interleaved, the frequency falls from 1 (left) to 1/10000 (right), so only the first dimensions change quickly with the position."
  "sinusoidal-split|sinusoidal --len 50 --dim 128 --layout split"
  "sinusoidal-tensor2tensor|sinusoidal --len 50 --dim 128 --convention tensor2tensor"
  "sinusoidal-fairseq|sinusoidal --len 50 --dim 128 --convention fairseq"
  "learned|learned --len 50 --dim 128"
  "recurrent|recurrent --len 50 --dim 128"
)
extra_file="scripts/gallery_entries.txt"  # more entries, one per line, added as commands land
if [[ -f "$extra_file" ]]; then
  while IFS= read -r line; do [[ -n "$line" && "$line" != \#* ]] && entries+=("$line"); done < "$extra_file"
fi

commands=" generate decay similarity project rope model extrapolate "
html="$out/index.html"
md="docs/gallery.md"
if (( docs )); then
  {
    echo "# Gallery"
    echo
    echo "Every figure here was drawn by \`scripts/gallery.sh --docs\` with $("$posenc" --version); the command under"
    echo "each one makes it again, byte for byte. Replace \`-o NAME.png\` by \`-o NAME.svg\` for a vector figure, or"
    echo "by \`--format ansi\` for a preview in the terminal."
    echo
  } > "$md"
else
  {
    echo '<!doctype html><html><head><meta charset="utf-8"><title>posenc gallery</title>'
    echo '<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto;color:#222}'
    echo 'section{margin:2em 0}.row{display:flex;gap:1em;align-items:flex-start}figure{margin:0;flex:1;min-width:0}'
    echo 'img{max-width:100%;border:1px solid #ddd}code{background:#f4f4f4;padding:2px 4px}</style>'
    echo '</head><body><h1>posenc gallery</h1>'
    echo "<p>Made by <code>scripts/gallery.sh</code> with $("$posenc" --version). Each figure shows the command that made it; the SVG, CSV and JSON beside it come from the same command.</p>"
  } > "$html"
fi

# Caption text as HTML: &, < and > escaped, `code` as <code>code</code>.
html_text() {
  sed -E 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g; s/`([^`]*)`/<code>\1<\/code>/g' <<< "$1"
}

# One section per figure, or per group of figures shown side by side (a caption starting
# with "+ " puts its figure beside the previous one): in docs/gallery.md, or index.html.
sec_names=() sec_cmds=() sec_caps=() sec_links=()
flush_section() {
  (( ${#sec_names[@]} )) || return 0
  if (( ! docs )); then
    {
      echo "<section><h2>$(IFS=' '; echo "${sec_names[*]}" | sed 's/ / \&middot; /g')</h2><div class=\"row\">"
      for i in "${!sec_names[@]}"; do
        printf '<figure><img src="%s.png" alt="%s"><figcaption><code>%s</code>%s</figcaption></figure>\n' \
          "${sec_names[$i]}" "${sec_names[$i]}" "$(html_text "${sec_cmds[$i]}")" "${sec_links[$i]}"
      done
      echo '</div>'
      for c in "${sec_caps[@]}"; do if [[ -n "$c" ]]; then echo "<p>$(html_text "$c")</p>"; fi; done
      echo '</section>'
    } >> "$html"
    sec_names=() sec_cmds=() sec_caps=() sec_links=()
    return 0
  fi
  {
    echo "## $(IFS=' '; echo "${sec_names[*]}" | sed 's/ / · /g')"
    echo
    if (( ${#sec_names[@]} == 1 )); then
      echo "![${sec_names[0]}](img/${sec_names[0]}.png)"
    else
      for n in "${sec_names[@]}"; do echo "<img src=\"img/$n.png\" alt=\"$n\" width=\"$((98 / ${#sec_names[@]}))%\">"; done
    fi
    echo
    for c in "${sec_caps[@]}"; do echo "$c"; echo; done
    echo '```'
    for c in "${sec_cmds[@]}"; do echo "$c"; done
    echo '```'
    echo
  } >> "$md"
  sec_names=() sec_cmds=() sec_caps=() sec_links=()
}

for entry in "${entries[@]}"; do
  IFS='|' read -r name args caption <<< "$entry"
  eval "argv=($args)"  # the entries are ours: shell words, so a --title can be quoted
  if [[ "$commands" != *" ${argv[0]} "* ]]; then
    argv=(generate "${argv[@]}")
    args="generate $args"
  fi
  if (( docs )); then
    # Every entry is drawn (the docs pages show them); those with a caption are also in gallery.md.
    "$posenc" "${argv[@]}" -o "$out/$name.png" 2> >(grep -v '^posenc: warning' >&2 || true)
    echo "gallery: $out/$name.png"
    [[ -n "${caption:-}" ]] || continue
    links=""
  else
    links=""
    for ext in png svg csv json; do
      # Not every command writes every format; the figure (png) is required.
      if "$posenc" "${argv[@]}" -o "$out/$name.$ext" 2>/dev/null; then
        links+=" &middot; <a href=\"$name.$ext\">${ext^^}</a>"
      elif [[ "$ext" == png ]]; then
        "$posenc" "${argv[@]}" -o "$out/$name.$ext"  # again, to show the error
      fi
    done
    echo "gallery: $out/$name.{png,svg,csv,json}"
  fi
  # A caption starting with "+ " puts the figure beside the previous one.
  if [[ "${caption:-}" == "+ "* && ${#sec_names[@]} -gt 0 ]]; then
    caption="${caption#+ }"
  else
    flush_section
  fi
  sec_names+=("$name")
  sec_cmds+=("posenc $args -o $name.png")
  sec_caps+=("${caption:-}")
  sec_links+=("${links:-}")
done
flush_section
if (( docs )); then
  echo "gallery: $md ($(du -ch "$out"/*.png | tail -1 | cut -f1) of PNG in $out)"
else
  echo '</body></html>' >> "$html"
  echo "gallery: open $html"
fi
