"""posenc: the positional encodings of transformers, from the library the `posenc` command uses.

Every function mirrors a command: keyword names are the option names with ``_`` for ``-``
(``rotary_dim=`` is ``--rotary-dim``), dicts have the keys of the command's JSON output with
numpy arrays for lists of numbers, and errors are :class:`posenc.Error` (a ``ValueError``)
carrying the command line's one-line message. docs/python.md has examples.
"""
import builtins as _builtins

from . import _posenc
from ._posenc import Error

__all__ = ["Error", "Figure", "Checkpoint", "CheckResult", "generate", "rope", "rope_engines", "rope_permutation",
           "extrapolate", "model", "usage", "tensors", "similarity", "check", "figure", "open"]
# posenc.list() is left out of __all__: `from posenc import *` would hide the built-in list.
__version__ = "0.1.0"
Error.__module__ = "posenc"


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _arrays(value):
    """JSON values with every list of numbers (or rectangular list of such lists) as a numpy array."""
    import numpy as np  # imported on first use: `import posenc` stays fast
    if isinstance(value, dict):
        return {k: _arrays(v) for k, v in value.items()}
    if not isinstance(value, _builtins.list) or not value:
        return value
    if all(_is_number(x) or x is None for x in value) and any(_is_number(x) for x in value):
        if all(isinstance(x, int) and not isinstance(x, bool) for x in value):
            return np.array(value, dtype=np.int64)
        return np.array([np.nan if x is None else x for x in value], dtype=np.float64)  # JSON null: NaN
    items = [_arrays(x) for x in value]
    if all(isinstance(x, np.ndarray) for x in items) and len({(x.shape, x.dtype.kind) for x in items}) == 1:
        return np.stack(items)
    return items


def _report(json_text):
    import json  # imported on first use, as numpy: `import posenc` stays fast
    return _arrays(json.loads(json_text))


def generate(scheme=None, /, **params):
    """The table of an encoding, as ``posenc generate SCHEME --OPTION VALUE ... -o t.npy`` writes it.

    ``generate("sinusoidal", len=50, dim=128)``; ``generate(hf_config="config.json")`` lets the model
    choose the scheme (``gguf="model.gguf"`` for a llama.cpp file); ``dtype="float64"`` for doubles
    (default float32). Returns an array of shape (len, dim) or (heads, len, len): numpy allocates
    it and the library writes the values straight into its buffer (no copy).
    """
    return _posenc.generate(scheme or "", params)


def rope(**settings):
    """``posenc rope --format json``: per-pair frequencies before and after scaling, as a dict."""
    return _report(_posenc.rope(settings))


def rope_diff(**settings):
    """``posenc rope diff --format json``: two sides of the same RoPE settings compared (config_a=,
    config_b=, and any setting per side: convention_b="ggml", factor_b=8; len=, tol=); "pass" says
    whether every difference is within tol. A .gguf config_b: the conversion check's JSON."""
    return _report(_posenc.rope_diff(settings))


def rope_engines(**settings):
    """``posenc rope engines --format json``: every engine's RoPE beside transformers' (len=, tol=)."""
    text, _within = _posenc.rope_engines(settings)
    return _report(text)


def extrapolate(**params):
    """``posenc extrapolate --format json`` (train_len= and target_len= are required; methods= and
    schemes= take a comma-separated string or a list of names)."""
    return _report(_posenc.extrapolate(params))


def model(path):
    """``posenc model PATH --format json``: every position mechanism of a config.json, folder or .gguf."""
    import os
    return _report(_posenc.model(os.fspath(path)))


def usage(path, **params):
    """``posenc usage PATH --format json``: which RoPE frequencies a trained model uses, from its
    q/k weights (a model folder or a .gguf), as a dict with the JSON's keys and arrays (layers x
    heads x pairs for q_norm, k_norm, pair_cos, k_pair_cos, rho, phi); high_band=,
    positional_share=. table="rho" (or q-norm, k-norm, phi, pair-cos, k-pair-cos) returns that one
    float64 array, as ``--table rho -o rho.npy`` writes it."""
    import os
    text, array = _posenc.usage(os.fspath(path), params)
    return array if text is None else _report(text)


def tensors(path, **params):
    """``posenc tensors PATH --format json``: the tensors of a checkpoint (a safetensors file, a
    sharded index or a folder) or a GGUF file, from the headers only (filter="*GLOB*")."""
    import os
    return _report(_posenc.tensors(os.fspath(path), params))


def rope_permutation(**params):
    """``posenc rope permutation --dim D --format json``: the q/k weight-row permutation from the
    interleaved to the half layout and its inverse (dim=, rotary_dim=), as int64 arrays."""
    return _report(_posenc.rope_permutation(params))


def list():  # noqa: A001 (posenc.list as `posenc list`)
    """``posenc list --format json``: every scheme with its parameters, defaults and formula, and
    the RoPE conventions."""
    return _report(_posenc.list())


def similarity(scheme=None, /, **params):
    """``posenc similarity SCHEME ... --format json``: the N x N similarity table as a dict with the
    JSON's keys (scheme, params, shape, axes, dtype, ...) and its values as ``data`` (metric=, qk=,
    seed=, dtype=)."""
    return _posenc.similarity(scheme or "", params)


def decay(scheme=None, /, **params):
    """``posenc decay SCHEME ... --format json``: how the score, bias or bucket changes with the
    offset, as a dict ("offset" and each series' "values" as arrays; max_offset=, from_=, metric=,
    symmetric=, qk=, seed=, no_extras=, dtype=). vary="base=100,1000" for one group of curves per
    value; compare="learned --dim 128" (or a list of such specs, each written as after
    ``posenc decay``) for other schemes' curves in the same result; input="table.npy" instead of
    a scheme for a table of your own."""
    if "from_" in params:  # `from` is a Python keyword
        params["from"] = params.pop("from_")
    if "input" in params and params["input"] is not None:
        import os
        params["input"] = os.fspath(params["input"])
    return _report(_posenc.decay(scheme or "", params))


def project(scheme=None, /, **params):
    """``posenc project SCHEME ... --format json``: the positions as 2 or 3 coordinates (dims=[i, j]
    or pca=2|3; default the table's own 2 or 3 columns, else pca=2), a dict as similarity's."""
    if isinstance(params.get("dims"), (_builtins.list, tuple)):
        params["dims"] = ",".join(str(int(d)) for d in params["dims"])
    return _posenc.project(scheme or "", params)


class CheckResult(dict):
    """``posenc check --format json`` as a dict (scheme, params, all_hold, identities, skipped),
    with ``holds`` (every identity holds), and ``errors`` and ``tolerances`` by identity name."""

    @property
    def holds(self):
        return self["all_hold"]

    @property
    def errors(self):
        return {i["name"]: i["max_error"] for i in self["identities"]}

    @property
    def tolerances(self):
        return {i["name"]: i["tolerance"] for i in self["identities"]}

    def __bool__(self):
        return self.holds


def check(scheme=None, /, **params):
    """``posenc check SCHEME ...``: the identities of the scheme's table (identity= one name, a
    comma-separated string or a list; tol=, min_distance=, bound=, max_offset=, max_work=, qk=, seed=)."""
    return CheckResult(_posenc.check(scheme or "", params))


class Figure:
    """A figure as ``posenc COMMAND ... -o x.png`` draws it; Jupyter shows it inline."""

    def __init__(self, data):
        self._data = data

    def png(self):
        """PNG bytes (with the title and parameters in tEXt chunks, as the command writes them)."""
        return self._data.png()

    def svg(self):
        """SVG document bytes (UTF-8)."""
        return self._data.svg().encode()

    @property
    def size(self):
        """(width, height) in pixels."""
        return tuple(self._data.size)

    def save(self, path):
        """Writes a .png or .svg file, by the extension of ``path``."""
        import os
        name = os.fspath(path)
        ext = os.path.splitext(name)[1].lower()
        if ext not in (".png", ".svg"):
            raise Error(f"Figure.save: '{name}' must end in .png or .svg")
        with open_file(name, "wb") as f:
            f.write(self.png() if ext == ".png" else self.svg())

    def _repr_png_(self):
        return self.png()

    def _repr_svg_(self):
        return self._data.svg()

    def __repr__(self):
        w, h = self.size
        return f"<posenc.Figure {w}x{h}>"


open_file = open  # the built-in, before posenc.open below takes the name


def figure(command, *args, **params):
    """The figure of a command: ``figure("generate", "sinusoidal", len=50, dim=128)`` or
    ``figure("rope", hf_config="config.json")``; also "rope_diff", "rope_engines", "decay",
    "project", "similarity" and "extrapolate" with the keywords of their functions, "model" with a
    path (weights_figure=) and "usage" with a path (figure="layers"|"heads"|"wavelength", table=,
    layer=, high_band=, positional_share=). Figure options
    width=, height=, title=, scale=, cmap= (and reduce=, vmin=, vmax= for tables)."""
    if "from_" in params:
        params["from"] = params.pop("from_")
    if isinstance(params.get("dims"), (_builtins.list, tuple)):
        params["dims"] = ",".join(str(int(d)) for d in params["dims"])
    return Figure(_posenc.figure(command, tuple(args), params))


class Checkpoint:
    """A safetensors checkpoint (a file, a sharded index or a folder) or a GGUF file."""

    def __init__(self, path):
        import os
        self.path = os.fspath(path)
        self._c = _posenc.Checkpoint(self.path)
        self.format = self._c.format

    def keys(self):
        """Tensor names, in file order."""
        return self._c.keys()

    def metadata(self):
        """safetensors: ``__metadata__`` (strings); GGUF: every key (numbers, strings, arrays)."""
        return self._c.metadata()

    def dtype(self, name):
        """The dtype the file stores ("F32", "BF16", "Q8_0", ...)."""
        return self._c.dtype(name)

    def get_tensor(self, name):
        """The tensor in PyTorch shape order (GGUF: ne reversed), read-only. F32 and F16 are views
        of the file, mapped into memory (no copy; the mapping lives while the array does), with
        the file's dtype (float32, float16; a big-endian GGUF's '>f4'); BF16, FP8, integers and
        GGUF's quantised types are float32 copies. ``stored_dtype`` is the dtype the file stores,
        ``is_view`` whether the array is a view of the file, ``copy_reason`` why it is not (None
        for a view): the dtype was decoded, or the bytes were not aligned for the dtype."""
        array, reason = self._c.get_tensor(name)
        t = array.view(__getattr__("Tensor") if "Tensor" not in globals() else Tensor)
        t.stored_dtype = self._c.dtype(name)
        t.copy_reason = reason
        t.is_view = reason is None
        return t

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return f"<posenc.Checkpoint {self.format} {self.path!r}: {len(self.keys())} tensors>"


def open(path):  # noqa: A001 (posenc.open as safetensors.safe_open and gguf's reader)
    """Opens a checkpoint for reading: headers now, tensors on request."""
    return Checkpoint(path)


def _tensor_class():
    import numpy as np

    class Tensor(np.ndarray):
        """A numpy array that knows the dtype its file stores, and whether it is a view of the file."""
        stored_dtype = None
        is_view = False
        copy_reason = None

        def __array_finalize__(self, obj):
            self.stored_dtype = getattr(obj, "stored_dtype", None)
            self.is_view = getattr(obj, "is_view", False)
            self.copy_reason = getattr(obj, "copy_reason", None)

    return Tensor


def __getattr__(name):  # posenc.Tensor, built on first use (numpy is not imported by `import posenc`)
    if name == "Tensor":
        globals()["Tensor"] = _tensor_class()
        return globals()["Tensor"]
    raise AttributeError(f"module 'posenc' has no attribute '{name}'")
