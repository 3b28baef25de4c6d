"""The bad-input battery: every bad invocation of every subcommand exits 2, prints exactly
one line on stderr that names the option or field at fault, writes nothing to stdout,
creates no file and leaves an existing output file byte-identical."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bad_inputs  # noqa: E402

POSENC = os.path.abspath(sys.argv[1])
G = "generate"
I = "inputs/"
LEN = ["--len", "8", "--dim", "4"]

# (argv, words stderr must contain); "-o keep.csv" is added where the command writes.
CASES = [
    # top level
    ([], ["command", "generate"]),
    (["frobnicate"], ["frobnicate"]),
    (["--max-memory", "lots", G, "integer"], ["--max-memory", "lots"]),
    (["--max-memory", "-1", G, "integer"], ["--max-memory"]),
    ([G, "integer", "--max-memory", "0"], ["--max-memory", "'0'"]),
    (["list", "--format", "xml"], ["--format", "xml"]),
    (["list", "schemes"], ["schemes"]),
    # generate: every scheme
    ([G], ["scheme", "--input"]),
    ([G, "integr"], ["integr", "integer"]),
    ([G, "integer", "--len", "0"], ["--len", "0"]),
    ([G, "integer", "--len", "-5"], ["--len"]),
    ([G, "integer", "--len", "abc"], ["--len", "abc"]),
    ([G, "integer", "--len", "1e99"], ["--len"]),
    ([G, "integer", "--len", "2147483649"], ["--len", "2147483649"]),
    ([G, "integer", "--dim", "0"], ["--dim", "0"]),
    ([G, "integer", "--dim", "65537"], ["--dim", "65537"]),
    ([G, "integer", "--bogus"], ["--bogus"]),
    ([G, "integer", "stray"], ["stray"]),
    ([G, "normalized", "--len", "x"], ["--len", "x"]),
    ([G, "normalized", "--dim", "-1"], ["--dim"]),
    ([G, "binary", "--bit-order", "middle"], ["--bit-order", "middle"]),
    ([G, "binary", "--dim", "0"], ["--dim"]),
    ([G, "sine", "--frequencies", "fast"], ["--frequencies", "fast"]),
    ([G, "sine", "--len", ""], ["--len"]),
    ([G, "sinusoidal", "--base", "0.5"], ["--base", "0.5"]),
    ([G, "sinusoidal", "--base", "nan"], ["--base", "nan"]),
    ([G, "sinusoidal", "--base", "inf"], ["--base", "inf"]),
    ([G, "sinusoidal", "--layout", "diagonal"], ["--layout", "diagonal"]),
    ([G, "sinusoidal", "--convention", "keras"], ["--convention", "keras"]),
    ([G, "sinusoidal", "--padding-idx", "-1"], ["--padding-idx"]),
    ([G, "learned", "--std", "-1"], ["--std", "-1"]),
    ([G, "learned", "--len", "2000"], ["--len", "2000", "--max-len"]),
    ([G, "learned", "--seed", "-1"], ["--seed"]),
    ([G, "learned", "--max-len", "0"], ["--max-len", "0"]),
    ([G, "recurrent", "--base", "0"], ["--base", "0"]),
    ([G, "recurrent", "--dim", "7"], ["--dim", "7"]),
    ([G, "rope", "--dim", "63"], ["--dim", "63"]),
    ([G, "rope", "--layout", "diag"], ["--layout", "diag"]),
    ([G, "rope", "--table", "tan"], ["--table", "tan"]),
    ([G, "rope", "--partial-rotary-factor", "1.5"], ["--partial-rotary-factor", "1.5"]),
    ([G, "rope", "--scaling", "magic"], ["--scaling", "magic"]),
    ([G, "rope", "--scaling", "linear", "--factor", "0"], ["--factor", "0"]),
    ([G, "rope", "--scaling", "linear", "--factor", "-2"], ["--factor", "-2"]),
    ([G, "rope", "--scaling", "yarn", "--factor", "nan"], ["--factor", "nan"]),
    ([G, "rope", "--base", "1"], ["--base", "1"]),
    ([G, "rope", "--base", "0.5"], ["--base", "0.5"]),
    ([G, "rope", "--convention", "torch"], ["--convention", "torch"]),
    ([G, "rope", "--precision", "f16"], ["--precision", "f16"]),
    ([G, "rope", "--scaling", "longrope", "--short-factor", "1,2", "--long-factor", "1,2"], ["short"]),
    ([G, "rope", "--short-factor", "1,x"], ["--short-factor", "x"]),
    ([G, "alibi", "--heads", "0"], ["--heads", "0"]),
    ([G, "alibi", "--heads", "8", "--head", "8"], ["--head", "8"]),
    ([G, "alibi", "--form", "both"], ["--form", "both"]),
    ([G, "t5", "--buckets", "1"], ["--buckets", "1"]),
    ([G, "t5", "--max-distance", "0"], ["--max-distance", "0"]),
    ([G, "t5", "--mode", "sideways"], ["--mode", "sideways"]),
    ([G, "t5", "--key-len", "-1"], ["--key-len"]),
    # generate: output options
    ([G, "integer", "--format", "xlsx"], ["--format", "xlsx"]),
    ([G, "integer", "--dtype", "float16"], ["--dtype", "float16"]),
    ([G, "integer", "-o", "out.xyz"], ["out.xyz", "--format"]),
    ([G, "integer", "-o", "no/such/dir/x.csv"], ["-o", "no/such/dir"]),
    ([G, "integer", "-o", "."], ["-o", "'.'"]),
    ([G, "integer", "-o", ""], ["-o"]),
    ([G, "integer", "--input", I + "header_only.csv"], ["--input", "integer"]),
    # hostile .npy
    ([G, "--input", "missing.npy"], ["--input", "missing.npy"]),
    ([G, "--input", I + "folder.npy"], ["--input", "folder"]),
    ([G, "--input", I + "table.txt"], ["--input", ".txt"]),
    ([G, "--input", I + "magic.npy"], ["--input", "magic"]),
    ([G, "--input", I + "truncated.npy"], ["--input", "truncated"]),
    ([G, "--input", I + "huge_shape.npy"], ["--input", "1099511627776"]),
    ([G, "--input", I + "overflow_shape.npy"], ["--input", "shape"]),
    ([G, "--input", I + "int_dtype_str.npy"], ["--input", "<U8", "float"]),
    ([G, "--input", I + "object.npy"], ["--input", "|O"]),
    ([G, "--input", I + "complex.npy"], ["--input", "<c16"]),
    ([G, "--input", I + "float128.npy"], ["--input", "<f16"]),
    ([G, "--input", I + "raw2.npy"], ["--input", "<V2", "--input-dtype bfloat16"]),
    ([G, "--input", I + "fortran_truncated.npy"], ["--input", "truncated"]),
    ([G, "--input", I + "bigendian_complex.npy"], ["--input", ">c8"]),
    ([G, "--input", I + "four_d.npy"], ["--input", "4-d"]),
    ([G, "--input", I + "bad_crc.npz"], ["--input", "bad_crc.npz:pe.npy", "crc"]),
    ([G, "--input", I + "truncated.npz"], ["--input", "truncated.npz"]),
    ([G, "--input", I + "no_npy.npz"], ["--input", "no .npy member", "'notes.txt'"]),
    ([G, "--input", I + "bad_member.npz"], ["--input", "bad_member.npz:pe.npy", "truncated"]),
    ([G, "--input", I + "magic.npy", "--npz-key", "x", "--input-format", "npz"], ["--input", "zip"]),
    ([G, "--input", I + "every_2nd.csv"], ["--input", "not consecutive", "--index-col", "--no-index"]),
    ([G, "--input", I + "every_2nd.csv", "--index-col", "b"], ["--index-col 'b'", "'position'"]),
    ([G, "--input", I + "semicolon.csv"], ["--input", "--delimiter ';'"]),
    ([G, "--input", I + "semicolon.csv", "--delimiter", ";;"], ["--delimiter", "one character"]),
    ([G, "integer", "--delimiter", ";"], ["--delimiter", "--input"]),
    (["similarity", "--input", I + "long_form.csv"], ["--input", "long form", "1 x 2 x 2"]),
    (["project", "--input", I + "long_form.csv"], ["--input", "long form"]),
    ([G, "--input", I + "empty_shape.npy"], ["--input", "empty"]),
    ([G, "--input", I + "garbage_header.npy"], ["--input", "header"]),
    ([G, "--input", I + "version9.npy"], ["--input", "version"]),
    ([G, "--input", I + "short.npy"], ["--input", "short.npy"]),
    ([G, "--input", I + "empty.npy"], ["--input", "empty.npy"]),
    # hostile .csv
    ([G, "--input", I + "ragged.csv"], ["--input", "line 3", "2 cells", "expected 3"]),
    ([G, "--input", I + "text_cell.csv"], ["--input", "line 2", "column 2", "five"]),
    ([G, "--input", I + "empty.csv"], ["--input", "empty"]),
    ([G, "--input", I + "blank_lines.csv"], ["--input", "empty"]),
    ([G, "--input", I + "bom_text.csv"], ["--input", "line 2", "column 2", "oops"]),
    ([G, "--input", I + "quote.csv"], ["--input", "line 1", "quote"]),
    ([G, "--input", I + "header_only.csv"], ["--input", "no data rows"]),
    ([G, "--input", I + "position_only.csv"], ["--input", "position"]),
    # config.json
    ([G, "rope", "--hf-config", "missing.json"], ["--hf-config", "missing.json"]),
    ([G, "rope", "--hf-config", I + "not_json.json"], ["not_json.json", "json"]),
    ([G, "rope", "--hf-config", I + "array.json"], ["array.json", "object"]),
    ([G, "rope", "--hf-config", I + "empty.json"], ["empty.json", "json"]),
    ([G, "rope", "--hf-config", I + "empty.gguf"], ["--hf-config", "empty.gguf", "byte 0", "magic"]),
    (["rope", "--hf-config", I + "empty.gguf"], ["--hf-config", "empty.gguf", "byte 0", "magic"]),
    (["model", I + "empty.gguf"], ["empty.gguf", "byte 0", "magic"]),
    (["model", I + "json_named.gguf"], ["json_named.gguf", "byte 0", "not a GGUF file"]),
    (["completion", "tcsh"], ["unknown shell 'tcsh'", "bash, zsh or fish"]),
    ([G, "rope", "--hf-config", I + "theta_string.json"], ["rope_theta", "number", "string"]),
    ([G, "rope", "--hf-config", I + "theta_one.json"], ["rope_theta", "1"]),
    ([G, "rope", "--hf-config", I + "theta_negative.json"], ["rope_theta", "-5"]),
    ([G, "rope", "--hf-config", I + "theta_nan.json"], ["theta_nan.json", "rope_theta", "got NaN"]),
    ([G, "rope", "--hf-config", I + "theta_huge.json"], ["theta_huge.json", "1e400"]),
    ([G, "rope", "--hf-config", I + "no_heads.json"], ["num_attention_heads", "missing"]),
    ([G, "rope", "--hf-config", I + "zero_heads.json"], ["num_attention_heads", "0"]),
    ([G, "rope", "--hf-config", I + "head_dim_negative.json"], ["head_dim", "-4"]),
    ([G, "rope", "--hf-config", I + "head_dim_odd.json"], ["head_dim", "63"]),
    ([G, "rope", "--hf-config", I + "head_dim_float.json"], ["head_dim", "integer"]),
    ([G, "rope", "--hf-config", I + "scaling_string.json"], ["rope_scaling", "object", "string"]),
    ([G, "rope", "--hf-config", I + "scaling_no_type.json"], ["rope_scaling.rope_type", "missing"]),
    ([G, "rope", "--hf-config", I + "scaling_bad_type.json"], ["rope_scaling.rope_type", "magic"]),
    ([G, "rope", "--hf-config", I + "factor_zero.json"], ["factor", "0"]),
    ([G, "rope", "--hf-config", I + "factor_negative.json"], ["factor", "-2"]),
    ([G, "rope", "--hf-config", I + "factor_missing.json"], ["rope_scaling.factor", "missing"]),
    ([G, "rope", "--hf-config", I + "factor_string.json"], ["rope_scaling.factor", "number"]),
    ([G, "rope", "--hf-config", I + "llama3_missing.json"], ["high_freq_factor", "missing"]),
    ([G, "rope", "--hf-config", I + "longrope_length.json"], ["short", "2"]),
    ([G, "rope", "--hf-config", I + "longrope_item.json"], ["short_factor[1]", "number"]),
    ([G, "rope", "--hf-config", I + "partial_big.json"], ["partial", "2"]),
    ([G, "rope", "--hf-config", I + "truncate_string.json"], ["truncate", "true or false"]),
    # decay
    (["decay"], ["scheme", "--input"]),
    (["decay", "integer", "--max-offset", "-1"], ["--max-offset", "-1"]),
    (["decay", "integer", "--max-offset", "99999999"], ["--max-offset", "99999999"]),
    (["decay", "integer", "--from", "-1"], ["--from", "-1"]),
    (["decay", "integer", "--metric", "manhattan"], ["--metric", "manhattan"]),
    (["decay", "sinusoidal", "--vary", "base=abc"], ["--vary", "abc"]),
    (["decay", "sinusoidal", "--vary", "nothing=1,2"], ["--vary", "nothing"]),
    (["decay", "sinusoidal", "--vary", "base"], ["--vary", "base"]),
    (["decay", "integer", "--format", "xlsx"], ["--format", "xlsx"]),
    (["decay", "--input", I + "magic.npy"], ["--input", "magic"]),
    (["decay", "rope", "--scaling", "yarn", "--factor", "0"], ["--factor", "0"]),
    # similarity
    (["similarity"], ["scheme", "--input"]),
    (["similarity", "alibi"], ["alibi", "position vectors"]),
    (["similarity", "t5"], ["t5", "position vectors"]),
    (["similarity", "integer", "--metric", "foo"], ["--metric", "foo"]),
    (["similarity", "rope", "--qk", "sometimes"], ["--qk", "sometimes"]),
    (["similarity", "integer", "--seed", "-3"], ["--seed", "-3"]),
    (["similarity", "integer", "--len", "0"], ["--len", "0"]),
    (["similarity", "--input", I + "ragged.csv"], ["--input", "line 3"]),
    (["similarity", "integer", "-o", "x.bmp"], ["x.bmp", "--format"]),
    # project
    (["project"], ["scheme", "--input"]),
    (["project", "integer", "--dims", "0"], ["--dims", "2 or 3"]),
    (["project", "integer", "--dims", "0,1,2,3"], ["--dims", "2 or 3"]),
    (["project", "integer", "--dim", "2", "--dims", "0,5"], ["--dims", "5"]),
    (["project", "integer", "--dims", "0,x"], ["--dims", "x"]),
    (["project", "integer", "--pca", "4"], ["--pca", "4"]),
    (["project", "integer", "--pca", "2", "--dims", "0,1"], ["--dims", "--pca"]),
    (["project", "alibi"], ["alibi", "position vectors"]),
    (["project", "integer", "--format", "npy"], ["--format", "npy"]),
    (["project", "--input", I + "empty.csv"], ["--input", "empty"]),
    # check
    (["check"], ["scheme", "--input"]),
    (["check", "integer", "--identity", "bogus"], ["--identity", "bogus"]),
    (["check", "integer", "--tol", "-1"], ["--tol", "-1"]),
    (["check", "integer", "--tol", "nan"], ["--tol", "nan"]),
    (["check", "integer", "--max-offset", "-1"], ["--max-offset", "-1"]),
    (["check", "rope", "--qk", "sometimes"], ["--qk", "sometimes"]),
    (["check", "integer", "--format", "csv"], ["--format", "csv"]),
    (["check", "rope", "--dim", "7"], ["--dim", "7"]),
    (["check", "--input", I + "four_d.npy"], ["--input", "4-d"]),
    # rope report, diff, permutation
    (["rope", "--dim", "63"], ["--dim", "63"]),
    (["rope", "--base", "1"], ["--base", "1"]),
    (["rope", "--scaling", "magic"], ["--scaling", "magic"]),
    (["rope", "--factor", "-1"], ["--factor", "-1"]),
    (["rope", "--scaling", "linear", "--factor", "inf"], ["--factor", "inf"]),
    (["rope", "--hf-config", I + "not_json.json"], ["not_json.json", "json"]),
    (["rope", "--hf-config", I + "theta_huge.json"], ["theta_huge.json", "1e400"]),
    (["rope", "--hf-config", I + "longrope_length.json"], ["short", "2"]),
    (["rope", "--format", "jpg"], ["--format", "jpg"]),
    (["rope", "-o", "keep.gif"], ["keep.gif", "extension"]),
    (["rope", "-o", "keep.csv", "bogus"], ["bogus"]),
    (["rope", "diff", "--tol", "-1"], ["--tol", "-1"]),
    (["rope", "diff", "--tol", "nan"], ["--tol", "nan"]),
    (["rope", "diff", "--len", "0"], ["--len", "0"]),
    (["rope", "diff", "--convention-a", "torch"], ["--convention-a", "torch"]),
    (["rope", "diff", "--precision-b", "f16"], ["--precision-b", "f16"]),
    (["rope", "diff", "--config-a", I + "array.json"], ["array.json", "object"]),
    (["rope", "diff", "--config-b", "missing.json"], ["missing.json"]),
    (["rope", "diff", "--format", "csv", "-o", "keep.csv"], ["--format", "csv"]),
    (["rope", "permutation"], ["--dim"]),
    (["rope", "permutation", "--dim", "7"], ["--dim", "7"]),
    (["rope", "permutation", "--dim", "0"], ["--dim", "0"]),
    (["rope", "permutation", "--dim", "8", "--format", "csv"], ["--format", "csv"]),
    (["rope", "permutation", "--dim", "8", "-o", "keep.csv"], ["keep.csv"]),
    # resource guards: refused before allocating, never killed
    ([G, "recurrent", "--len", "2147483648", "--dim", "65536", "-o", "big.npy"], ["--len", "2147483648"]),
    (["similarity", "integer", "--len", "2000000000", "--dim", "65536", "-o", "big.npy"], ["--max-memory"]),
    (["similarity", "rope", "--len", "2147483648", "--dim", "64", "--max-memory", "1G", "-o", "big.npy"],
     ["--max-memory", "2147483648 positions"]),
    (["similarity", "sinusoidal", "--len", "2147483648", "--dim", "64", "--max-memory", "1G", "-o", "big.npy"],
     ["--max-memory", "2147483648 positions"]),
    (["project", "sinusoidal", "--len", "2147483648", "--dim", "65536", "-o", "big.csv"], ["--max-memory"]),
    (["check", "learned", "--len", "2147483648", "--max-len", "2147483648", "--dim", "65536"], ["--max-memory"]),
    (["decay", "--max-memory", "1K", "learned", "--len", "4096", "--max-len", "4096", "--dim", "512"],
     ["--max-memory"]),
]

# hostile CSV, sizes of input files
CASES += [
    ([G, "--input", I + "mixed_first_line.csv"], ["--input", "line 1, column 2", "'2O'"]),
    ([G, "--input", I + "nul.csv"], ["--input", "line 2", "\\x00", "utf-8"]),
    ([G, "--input", I + "utf16.csv"], ["--input", "utf-16", "utf-8"]),
    ([G, "--input", I + "latin1.csv"], ["--input", "line 2, column 2", "\\xe9", "utf-8"]),
    ([G, "--max-memory", "1M", "--input", I + "big.csv"], ["--input", "big.csv", "1 MiB", "--max-memory"]),
    ([G, "--max-memory", "10M", "--input", I + "zero.csv"], ["--input", "zero.csv", "not a regular file", "10 MiB"]),
    ([G, "rope", "--hf-config", I + "zero.json"], ["--hf-config", "zero.json", "not a regular file"]),
]

# numeric options: one rule, plain decimal, range stated
CASES += [
    ([G, "integer", "--len", "2.5"], ["--len must be an integer in 1..2147483648", "'2.5'"]),
    ([G, "integer", "--len", "1e3"], ["--len must be an integer in 1..2147483648", "'1e3'"]),
    ([G, "integer", "--len", "0x10"], ["--len must be an integer", "'0x10'"]),
    ([G, "integer", "--dim=", "-o", "keep.csv"], ["--dim=", "no value"]),
    ([G, "integer", "-o", "keep.csv", "--len"], ["--len needs a value"]),
    (["project", "integer", "--dims", "-1,0"], ["--dims must be an integer in 0..65535", "'-1'"]),
    (["similarity", "rope", "--seed", "99999999999999999999"], ["--seed", "0..18446744073709551615"]),
    ([G, "learned", "--seed", "9223372036854775808"], ["--seed", "0..9223372036854775807"]),
    ([G, "rope", "--scaling", "linear", "--factor", "0"], ["--factor must be a number > 0", "'0'"]),
    ([G, "sinusoidal", "--base", "0x10"], ["--base must be a number >= 1", "'0x10'"]),
    ([G, "sinusoidal", "--threads", "0"], ["--threads must be an integer in 1..1024"]),
    (["decay", "integer", "--from", "1.5"], ["--from must be an integer", "'1.5'"]),
    (["check", "integer", "--max-offset", "1e3"], ["--max-offset must be an integer", "'1e3'"]),
    (["rope", "diff", "--len", "010x"], ["--len must be an integer", "'010x'"]),
    ([G, "rope", "--truncate", "maybe"], ["--truncate must be true or false", "'maybe'"]),
    ([G, "rope", "--apply-attention-factor", "2"], ["--apply-attention-factor must be true or false"]),
    (["project", "integer", "--pca", "x"], ["--pca must be an integer in 2..3", "'x'"]),
]

# --format contradicting a known extension of -o
CASES += [
    ([G, "integer", "--format", "csv", "-o", "keep.npy"], ["--format csv", "keep.npy"]),
    ([G, "integer", "--format", "png", "-o", "keep.csv"], ["--format png", "keep.csv"]),
    ([G, "integer", "--format", "npy", "-o", "keep.json"], ["--format npy", "keep.json"]),
    ([G, "integer", "--format", "svg", "-o", "keep.npy"], ["--format svg", "keep.npy"]),
    (["similarity", "integer", "--format", "json", "-o", "keep.npy"], ["--format json", "keep.npy"]),
    (["rope", "--format", "csv", "-o", "keep.json"], ["--format csv", "keep.json"]),
]

# memory counted before computing; sizes validated first
CASES += [
    (["--max-memory", "79M", "project", "learned", "--len", "10000", "--max-len", "10000", "--dim", "1024", "--pca", "3"],
     ["project (pca)", "--max-memory"]),
    (["--max-memory", "79M", "check", "learned", "--len", "10000", "--max-len", "10000", "--dim", "1024"],
     ["check of a 10000 x 1024 table", "--max-memory"]),
    (["decay", "learned", "--len", "1000000", "--max-len", "1000000", "--dim", "512", "--max-offset", "16777216"],
     ["--from 0", "offset 16777216", "--max-offset"]),
    ([G, "sinusoidal", "--convention", "paper", "--padding-idx", "3"], ["--padding-idx", "fairseq"]),
]

# tables too small for the question
CASES += [
    (["check", "integer", "--len", "1"], ["check needs at least 2 positions", "--len"]),
    (["check", "alibi", "--len", "1"], ["check needs at least 2 positions"]),
]

# every output-file error names -o
CASES += [
    ([G, "integer", "-o", "/proc/x.csv"], ["-o '/proc/x.csv'", "cannot write"]),
    ([G, "integer", "-o", "inputs/folder.npy"], ["-o 'inputs/folder.npy'", "folder"]),
    ([G, "integer", "-o", "n" * 300 + ".csv"], ["-o 'nnn", "cannot write", "name too long"]),
]

# disk space: refused before writing (2e9 x 65536 CSV is at least 238 TiB)
CASES += [
    ([G, "sinusoidal", "--len", "2000000000", "--dim", "65536", "-o", "keep.csv"], ["-o 'keep.csv'", "needs at least", "free"]),
    ([G, "sinusoidal", "--len", "2000000000", "--dim", "65536", "-o", "big.npy"], ["-o 'big.npy'", "needs at least"]),
    (["similarity", "sinusoidal", "--len", "2000000", "--dim", "64", "-o", "keep.csv"], ["-o 'keep.csv'", "needs at least"]),
]

WRITERS = {"generate", "decay", "similarity", "project"}


def snapshot(root):
    out = {}
    for d, _, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            if os.path.islink(p):  # zero.csv -> /dev/zero: never read
                continue
            with open(p, "rb") as fh:
                out[os.path.relpath(p, root)] = fh.read()
    return out


def main():
    passed, failed = 0, []
    with tempfile.TemporaryDirectory() as tmp:
        bad_inputs.write_all(os.path.join(tmp, "inputs"))
        with open(os.path.join(tmp, "keep.csv"), "wb") as f:
            f.write(b"precious\n")
        before = snapshot(tmp)
        for argv, needles in CASES:
            args = list(argv)
            if args and args[0] in WRITERS and "-o" not in args and "--format" not in args:
                args += ["-o", "keep.csv"]
            r = subprocess.run([POSENC, *args], cwd=tmp, capture_output=True, timeout=60)
            err = r.stderr.decode(errors="replace")
            problems = []
            if r.returncode != 2:
                problems.append(f"exit {r.returncode}")
            if err.count("\n") != 1 or not err.endswith("\n") or not err.startswith("posenc: error: "):
                problems.append("stderr is not one 'posenc: error:' line")
            low = err.lower()
            problems += [f"no {n!r} in stderr" for n in needles if n.lower() not in low]
            if r.stdout:
                problems.append(f"stdout {r.stdout[:60]!r}")
            after = snapshot(tmp)
            if after != before:
                problems.append(f"files changed: {sorted(set(after) ^ set(before)) or 'keep.csv'}")
                before = after
            if problems:
                failed.append(argv)
                print(f"FAIL {args}: {'; '.join(problems)}\n     stderr: {err!r}", file=sys.stderr)
            else:
                passed += 1
    print(f"{len(CASES)} bad invocations: {passed} passed, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
