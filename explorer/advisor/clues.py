"""What an error text says, read like an engineer reads it: the operations it names, the library and device,
the mode, the ONNX opset, the dtype, the operation (forward, backward, an export) and any release it reveals.

Paths, hashes and line numbers carry no meaning of their own and are dropped; a whole traceback gives the same
clues as its message line.  Every step is one pass over the text (``str.find`` loops and chunked regular
expressions with no nested repetition), so the work grows linearly with the length of the text.

>>> c = read_clues("RuntimeError: upsample_bilinear2d_backward_out_cuda does not have a deterministic "
...                "implementation, but you set 'torch.use_deterministic_algorithms(True)'.")
>>> c.ops, sorted(c.devices), c.operation
(('bilinear2d',), ['cuda'], 'backward')
>>> read_clues("The operator 'aten::_linalg_solve_ex.result' is not currently implemented for MPS").foreign_ops
('_linalg_solve_ex',)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .. import limits
from ..conventions import registry

# --- operations -------------------------------------------------------------------------------------------------
# A resize operation as the libraries name it, reduced to a key: the nominal mode, the rank, "_aa" when
# antialiased.  upsample_bilinear2d_backward_out_cuda, aten::upsample_bilinear2d.out and
# UpsampleBilinear2DBackward0 are all "bilinear2d"; the operation (forward, backward) is read separately.
_TORCH_OP = re.compile(r"^_?upsample_(nearest_exact|nearest|linear|bilinear|bilineard|trilinear|bicubic|lanczos)"
                       r"(\d)d(_aa)?")
_POOL_OP = re.compile(r"^_?adaptive_avg_pool(\d)d")
#: op names of other libraries -> key (TensorFlow's op types, ATen helpers that name a kernel)
NAMED_OPS = {
    "resizearea": "tf_area", "resizebilinear": "tf_bilinear", "resizebilineargrad": "tf_bilinear",
    "resizenearestneighbor": "tf_nearest", "resizenearestneighborgrad": "tf_nearest",
    "resizebicubic": "tf_bicubic", "resizebicubicgrad": "tf_bicubic", "scaleandtranslate": "tf_scale_translate",
    "scaleandtranslategrad": "tf_scale_translate",
    "compute_index_ranges_weights": "aa", "compute_indices_weights_cubic": "bicubic2d",
    "compute_indices_weights_nearest": "nearest1d", "compute_indices_weights_linear": "linear",
    "upsample_nearest2d_channels_last": "nearest2d",
    "upsample_bilinear2d_channels_last": "bilinear2d",
}
#: key -> (mode family in PyTorch's vocabulary, the nominal word)
OP_MODES = {"nearest": "nearest", "nearest_exact": "nearest-exact", "linear": "linear", "bilinear": "linear",
            "trilinear": "linear", "bicubic": "cubic", "lanczos": "lanczos3", "area": "area",
            "tf_area": "area", "tf_bilinear": "linear", "tf_nearest": "nearest-exact", "tf_bicubic": "cubic"}
#: key -> further families the operation computes by an attribute the name does not show (TensorFlow's
#: ResizeNearestNeighbor is half-pixel nearest with half_pixel_centers=True, TF2's tf.image.resize, and floor
#: nearest without, TF1 and TensorFlow.js by default)
ALSO_OP_MODES = {"tf_nearest": ("nearest",)}
#: operators named by a text that are not resizes (what the error is about when no resize op is named)
_OP_MARKERS = ("aten::", "op type: ", "exporting the operator ", "convert function for op ", "export of operator ",
               "not lowered: ", "has not been registered: ")
#: phrases after which only a resize is recognised (OpenCV's "in function 'resize'"; other names there are
#: helpers such as 'size', not what the error is about)
_RESIZE_MARKERS = ("in function '", "in funtion '", "in function cv::", "in function void cv::", "in function ")
#: a generic resize named by one of those phrases (ONNX's Resize, OpenCV's cv::resize)
_GENERIC_RESIZE = {"resize": "resize", "upsample": "resize", "resizebilinear": "tf_bilinear"}
_GRAD_SUFFIXES = ("_backward", "grad", "backward0")
#: how runtimes print the type of the node or layer an error is about; a type that is not a resize makes the
#: text about another operator (a Conv node of ONNX Runtime, OpenCV's Slice layer), a resize type names one
_NODE_TYPES = re.compile(
    r"while running ([a-z0-9_]+) node"                                # ONNX Runtime: ... while running Resize node
    r"|while parsing node number \d+ \[([a-z0-9_]+)"                  # onnx-tensorrt: ... node number 80 [Resize -> "301"]
    r"|node \[([a-z0-9_]+)@[a-z0-9_.]*\]"                            # OpenCV DNN 4.6+: Node [Resize@ai.onnx]
    r"|processing node with \d+ inputs and \d+ outputs: \[([a-z0-9_]+)\]"  # OpenCV DNN handleNode
    r"|cv::dnn::(?:[a-z0-9_]+::){0,3}([a-z0-9]+?)layer(?:impl)?::"   # OpenCV DNN: cv::dnn::SliceLayerImpl::
    r"|not_supported_op: \[ ?([a-z0-9_]+)"                            # MNN converter: NOT_SUPPORTED_OP: [ Resize ]
    r"|optype:([a-z0-9_]+)"                                           # ONNX Runtime layout transformer
    r"|\] type \[([a-z0-9_]+)\]"                                      # ONNX Runtime NNAPI: Node [x] type [Resize]
    r"|\b([a-z0-9_]+) version \d+ is not implemented"                   # onnx-tf: Resize version 11 is not ...
    r"|cannot create ([a-z0-9_]+) layer"                              # OpenVINO IR: Cannot create Interpolate layer
    r"|not yet supported for op: '?([a-z0-9_]+)"                     # TFLite quantizer: ... for op: 'CONV_2D'
    r"|flex runtime \(enabled via setting the -emit-select-tf-ops flag\): ([a-z0-9_]+)"  # TFLite converter
    r"|unsupported op_type ([a-z0-9_]+) for op"                       # candle-onnx simple_eval
    r"|'([a-z0-9_]+)' not yet implemented or not found in the registry"  # TensorFlow.js kernel registry
    r"|unsupported ops in the model(?: before optimization| after optimization)?\s+([a-z0-9_]+)")  # tfjs-converter
#: words that name a resize call in code or a message
RESIZE_WORDS = frozenset({"resize", "resized", "resizing", "interpolate", "interpolation", "upsample", "upsampling",
                          "upsampled", "upsampling2d", "upsampling3d", "thumbnail", "rescale", "downsample",
                          "downsampling", "scale_factor", "zoom", "interp", "resample", "imresize"})
#: a resize's scale in coremltools' messages: the symbolic scale its frontends compute from a constant output size
#: and a flexible input length, (Hout + 1e-4)/Hin printed as ``40.0001/is2``, or the name of an upsample's scale
#: input (``Input 6_scale_factor_height: ...``)
COREML_SCALE = re.compile(r"\d\.0001/is\d+|_scale_factor_(?:height|width)\b")
#: two shapes a coremltools shape check compares ("Incompatible dim 2 in shapes (1, 16, -112, 112) vs. (1, 16,
#: 144, 112)", "Dimension mismatch in concat ...: shapes [1, 128, 128, 128] vs. (1, 128, -128, -128)")
_COMPARED_SHAPES = re.compile(r"shapes [(\[]([-\d, ]{1,80})[)\]] vs\. [(\[]([-\d, ]{1,80})[)\]]")


def int8_wrapped_length(flat: str) -> bool:
    """Whether two compared shapes differ by a length wrapped to int8 (L - 256 against L, L in 128 ... 254: -1 is
    also how an unknown length prints): the coremltools 4.0 betas stored an interpolate's computed output size as
    int8 (apple/coremltools#951, #887)."""
    for match in _COMPARED_SHAPES.finditer(flat[: limits.DIAGNOSE_MAX_CHARS]):
        try:
            a, b = ([int(v) for v in g.split(",") if v.strip()] for g in match.groups())
        except ValueError:
            continue
        if len(a) == len(b) and any(min(x, y) < 0 and max(x, y) - min(x, y) == 256 and 128 <= max(x, y) <= 254
                                    for x, y in zip(a, b)):
            return True
    return False


#: node and layer types that are resizes (ONNX Resize and Upsample, Caffe/ncnn/MNN Interp, OpenVINO Interpolate,
#: TFLite's builtin resizes, OpenCV's Resize2 layer of 5.0)
RESIZE_TYPES = frozenset({"resize", "upsample", "interp", "interpolate", "resize2", "resizebilinear",
                          "resizenearestneighbor", "resize_bilinear", "resize_nearest_neighbor", "upsampling",
                          "resizebilineargrad", "resizenearestneighborgrad", "resizebicubic", "resizearea"})

# --- libraries, devices, modes, dtypes ----------------------------------------------------------------------------
@registry.derived
def runtime_words() -> tuple[dict, dict]:
    """(a word in the text -> the runtime it points to, a word -> a second runtime it also points to): the
    ``words`` and ``also`` of every declared runtime (burn-candle is Burn on candle)."""
    words, also = {}, {}
    for rt in registry.all_runtimes():
        words.update((w, rt.id) for w in rt.words)
        also.update(rt.also)
    return words, also


@registry.derived
def version_markers() -> tuple:
    """("<marker>", runtime) for every phrase after which a text prints a runtime's release (``torch==``)."""
    return tuple((marker, rt.id) for rt in registry.all_runtimes() for marker in rt.version_markers)


DEVICE_WORDS = {"cuda": "cuda", "cudnn": "cuda", "mps": "mps", "metal": "metal", "xpu": "xpu", "ipex": "xpu",
                "rocm": "rocm", "hip": "rocm", "gpu": "gpu", "xla_gpu_jit": "gpu", "tpu": "tpu", "xla": "xla",
                "cpu": "cpu", "xla_cpu_jit": "cpu"}
MODE_WORDS = {"nearest": "nearest", "bilinear": "linear", "trilinear": "linear", "linear": "linear",
              "bicubic": "cubic", "cubic": "cubic", "lanczos": "lanczos3", "lanczos3": "lanczos3",
              "lanczos5": "lanczos5", "area": "area", "inter_area": "area", "inter_linear": "linear",
              "inter_cubic": "cubic", "inter_nearest": "nearest", "nearestexact": "nearest-exact"}
DTYPE_WORDS = {"half": "float16", "float16": "float16", "bfloat16": "bfloat16", "byte": "uint8", "uint8": "uint8",
               "double": "float64", "float64": "float64", "int": "int32", "int32": "int32", "long": "int64",
               "int64": "int64", "int8": "int8", "f16": "float16", "bf16": "bfloat16", "u8": "uint8"}
#: a kernel name ending (upsample_bilinear2d_backward_out_cuda) -> the device it runs on
_KERNEL_DEVICES = {"_cuda": "cuda", "_mps": "mps", "_cpu": "cpu", "_xpu": "xpu"}
_DTYPE_MARKERS = ("not implemented for '", "but is a ", "dtype=torch.", "dtype ")
#: words that say the text is about a gradient, an export or a conversion
_BACKWARD_WORDS = {"backward", "gradient", "gradients", "grad", "autodiff", "gradienttape", "requires_grad"}
_EXPORT_ONNX_WORDS = {"onnx", "symbolic", "dynamo_export", "torchscript"}
_CONVERT_WORDS = {"coremltools", "convert", "mlmodel"}
_TFLITE_WORDS = {"tflite", "tflitecontverter", "tfliteconverter"}
#: words of a model converter's own log (onnx2tf's "onnx_op_name:", MNNConvert, onnx2ncnn): the text is about a
#: conversion, not a run
_CONVERTER_WORDS = {"converter", "converting", "onnx_op_name", "input_onnx_file_path", "mnnconvert", "onnx2ncnn",
                    "pnnx"}
#: phrases after which a library names the mode the caller asked for ("(got bicubic)", "interpolation=area")
_MODE_SLOTS = ("(got ", "interpolation=", "interpolation: ", "resize method \"", "resize method is not implemented: ",
               "mode attribute is ", "upsampling algorithm: ", "unsupported mode ", "resampling filter (",
               "attr 'method' of \"")
_VERSION = re.compile(r"v?(\d{1,2}\.\d{1,3}(?:\.\d{1,4})?(?:[-.](?:pre|rc|dev|a|b)\.?\d*)?)")
_TOKEN = re.compile(r"[a-z0-9_]+")
_HEX = re.compile(r"^[0-9a-f]{7,64}$")
#: at most this many occurrences of one marker are read (a log repeating a line says nothing new)
_MAX_HITS = 2000


@dataclass(frozen=True)
class Clues:
    """Everything :func:`read_clues` found; empty fields mean the text does not say."""

    words: frozenset = frozenset()
    focus: frozenset = frozenset()  # the words of the lines that report an error (what a fragment is compared to)
    ops: tuple = ()                 # resize operation keys ("bilinear2d", "bicubic2d_aa", "area2d", "tf_area")
    foreign_ops: tuple = ()         # other operators the text is about (grid_sampler_2d, _linalg_solve_ex)
    runtimes: frozenset = frozenset()  # the runtimes the text names (the knowledge base's data files)
    devices: frozenset = frozenset()
    modes: frozenset = frozenset()  # families named by words or by the operations
    op_modes: frozenset = frozenset()
    named_modes: tuple = ()         # the mode word the library quotes back ("(got cubic)" -> "cubic")
    antialias: bool | None = None   # True when the text names an antialiased kernel or antialias=True
    operation: str = "forward"      # forward | backward | double_backward | export_onnx | export_coreml | export_tflite
    #                                 | convert
    opsets: tuple = ()
    dtypes: frozenset = frozenset()
    versions: dict = field(default_factory=dict)   # library -> release read in the text
    commits: tuple = ()             # hex hashes (a torch release's git version)
    providers: frozenset = frozenset()  # ONNX Runtime execution providers named ("dmlexecutionprovider")

    @property
    def names_resize(self) -> bool:
        """Whether the text names a resize at all: a resize operator or node, or a resize word in its code or
        message (``im.resize(``, ``F.interpolate``, ``UpSampling2D``), also as a part of a function's name in a
        traceback (``_preprocess_resize_output_shape``, ``resize_with_pad``)."""
        return bool(self.ops) or bool(self.words & RESIZE_WORDS) or any(
            "_" in w and not RESIZE_WORDS.isdisjoint(w.split("_")) for w in self.words) or bool(
            COREML_SCALE.search(self.flat)) or int8_wrapped_length(self.flat)
    flat: str = ""                  # the text read, lower case, runs of white space as one space

    def to_dict(self) -> dict:
        return {"ops": list(self.ops), "foreign_ops": list(self.foreign_ops), "runtimes": sorted(self.runtimes),
                "devices": sorted(self.devices), "modes": sorted(self.modes), "named_modes": list(self.named_modes),
                "operation": self.operation,
                "opsets": list(self.opsets), "dtypes": sorted(self.dtypes), "versions": dict(self.versions)}


def op_key(token: str) -> tuple[str, bool] | None:
    """(resize operation key, names a gradient) for an operator token, or None when it is not a resize."""
    token = token.lower().lstrip(":")
    m = _TORCH_OP.match(token)
    if m:
        mode = {"bilineard": "bilinear"}.get(m.group(1), m.group(1))
        return f"{mode}{m.group(2)}d{m.group(3) or ''}", "backward" in token
    m = _POOL_OP.match(token)
    if m:
        return f"area{m.group(1)}d", "backward" in token
    if token in NAMED_OPS:
        return NAMED_OPS[token], token.endswith("grad")
    return None


def op_mode(key: str) -> str | None:
    """The mode family of an operation key ("bicubic2d_aa" -> "cubic")."""
    stem = re.sub(r"\d+d(_aa)?$", "", key)
    return OP_MODES.get(stem)


#: words that mark the lines an engineer reads first in a long log (the error, the panic, the warning)
_ANCHORS = ("error", "exception", "panicked", "warning", "not implemented", "not supported", "unsupported",
            "failed", "assert", "traceback", "not currently", "cannot", "can't", "could not", "unknown", "invalid",
            "not lowered", "not found", "deprecated", "aten::", "implemented", "requires", "only compatible",
            "unable", "must", "should")


def excerpt(text: str) -> str:
    """What of ``text`` is read: all of it when short; else its head, its tail and the surroundings of the last
    places that report an error.  One pass of ``str.rfind`` per anchor word, then bounded work.

    The places are taken from every anchor word in turn, newest first, and a line already read (digits aside)
    does not take a place again: a panic followed by thousands of repeated warnings is read, not crowded out
    by them."""
    if len(text) <= limits.DIAGNOSE_WHOLE_CHARS:
        return text
    lower = text.lower()
    reach = limits.DIAGNOSE_CONTEXT_CHARS
    per_anchor = []
    for anchor in _ANCHORS:
        at, places = lower.rfind(anchor), []
        while at >= 0 and len(places) < limits.DIAGNOSE_MAX_PLACES:
            places.append(at)
            at = lower.rfind(anchor, 0, max(0, at - reach))
        per_anchor.append(places)
    chosen, lines_read = [], set()
    for turn in range(limits.DIAGNOSE_MAX_PLACES):  # round robin: each anchor's newest unread place in turn
        for places in per_anchor:
            if turn >= len(places) or len(chosen) >= limits.DIAGNOSE_MAX_PLACES:
                continue
            at = places[turn]
            key = _line_key(text, at, reach)
            if key in lines_read:
                continue
            lines_read.add(key)
            chosen.append(at)
    pieces = {}
    for at in sorted(chosen, reverse=True):
        piece = text[max(0, at - reach): at + reach]
        pieces.setdefault(piece, None)
    head, tail = text[: limits.DIAGNOSE_HEAD_CHARS], text[-limits.DIAGNOSE_TAIL_CHARS:]
    return "\n".join([head, *pieces, tail])


def _line_key(text: str, at: int, reach: int) -> str:
    """The line holding offset ``at`` (within ``reach`` of it), digits removed: repeated log lines compare
    equal whatever counter or address they print."""
    start = text.rfind("\n", max(0, at - reach), at) + 1 or max(0, at - reach)
    end = text.find("\n", at, at + reach)
    end = at + reach if end < 0 else end
    return re.sub(r"\d+", "", text[start:end]).strip()


def tokens(text: str) -> set[str]:
    """The words of ``text`` (lower case), without numbers and hex hashes, read in bounded chunks."""
    out: set[str] = set()
    step = limits.DIAGNOSE_CHUNK_CHARS
    start = 0
    while start < len(text):
        stop = min(len(text), start + step)
        if stop < len(text):  # end the chunk at a separator so no word is cut
            cut = text.rfind("\n", start, stop)
            stop = cut + 1 if cut > start else stop
        out.update(_TOKEN.findall(text[start:stop].lower()))
        start = stop
    return {t for t in out if len(t) > 1 and not t.isdigit() and not (_HEX.match(t) and any(c.isdigit() for c in t))}


def _after(lower: str, marker: str, length: int = 80):
    """The text right after each occurrence of ``marker`` (one str.find pass)."""
    at, hits = lower.find(marker), 0
    while at >= 0 and hits < _MAX_HITS:
        yield lower[at + len(marker): at + len(marker) + length]
        at, hits = lower.find(marker, at + len(marker)), hits + 1


def _before(lower: str, marker: str, length: int = 80):
    at, hits = lower.find(marker), 0
    while at >= 0 and hits < _MAX_HITS:
        yield lower[max(0, at - length): at]
        at, hits = lower.find(marker, at + len(marker)), hits + 1


def _names_after(lower: str, markers) -> list[str]:
    names = []
    for marker in markers:
        for tail in _after(lower, marker):
            # OpenCV names its back ends' functions by namespace: cv::hal::resize is cv::resize
            m = re.match(r"['\"]?(?:aten::|::|cv::(?:hal::|ocl::|ipp::)?)?([a-z0-9_.]+)", tail)
            if m:
                names.append(m.group(1).split(".")[0])
    return names


def _named_operators(lower: str) -> list[str]:
    """Operator names that follow the phrases libraries put before them, or precede a determinism alert."""
    names = _names_after(lower, _OP_MARKERS)
    for head in _before(lower, " does not have a deterministic implementation"):
        m = re.search(r"([a-z0-9_]+)$", head)
        if m:
            names.append(m.group(1))
    return names


#: operators that are not resizes but share words with them (bicubic grid_sampler, roi_align)
FOREIGN_WORDS = ("grid_sampler", "grid_sample", "affine_grid", "roi_align", "scatter_add", "index_put")
_ERROR_WORDS = ("error", "exception", "not implemented", "not supported", "failed", "panicked")
# a line that says the failure was passed over ("Failed to register 'torchvision::roi_align'. Skipped", logged by
# torch.onnx's dynamo exporter when torchvision's C ops are missing) is a log of skipped ops, not the error
_PASSED_OVER = ("skipped", "skipping")


def _foreign_subjects(lower: str) -> list[str]:
    """Foreign operators named on a line that reports an error (not in passing, as in a log of skipped ops)."""
    found = []
    for word in FOREIGN_WORDS:
        at, hits = lower.find(word), 0
        while at >= 0 and hits < _MAX_HITS:
            start, stop = lower.rfind("\n", 0, at) + 1, lower.find("\n", at)
            line = lower[start: stop if stop >= 0 else len(lower)]
            if any(e in line for e in _ERROR_WORDS) and not any(p in line for p in _PASSED_OVER):
                found.append(word)
                break
            at, hits = lower.find(word, at + len(word)), hits + 1
    return found


def read_operators(lower: str, words) -> tuple[tuple, bool, tuple, set]:
    """(resize operation keys, whether one is a gradient, other operators named, devices of the kernels)."""
    ops, grads, devices = set(), False, set()
    for word in words:
        found = op_key(word)
        if found:
            ops.add(found[0])
            grads = grads or found[1]
            devices.update(d for suffix, d in _KERNEL_DEVICES.items() if word.endswith(suffix))
    foreign = []
    for name in _named_operators(lower):
        found = op_key(name)
        if found:
            ops.add(found[0])
            grads = grads or found[1]
        elif name in _GENERIC_RESIZE:
            ops.add(_GENERIC_RESIZE[name])
        elif not name.startswith(("upsample", "interpolat", "resize", "function", "__")) and len(name) > 1:
            foreign.append(name)
    ops.update(_GENERIC_RESIZE[n] for n in _names_after(lower, _RESIZE_MARKERS) if n in _GENERIC_RESIZE)
    for kind in node_types(lower):
        if kind in RESIZE_TYPES:
            ops.add(_GENERIC_RESIZE.get(kind, "resize"))
        elif len(kind) > 1 and not kind.isdigit():
            foreign.append(kind)
    foreign += _foreign_subjects(lower)
    return tuple(sorted(ops)), grads, tuple(dict.fromkeys(foreign)), devices


def node_types(lower: str) -> list[str]:
    """The node and layer types a runtime's message names (``_NODE_TYPES``), in order, each once."""
    found = []
    for match in _NODE_TYPES.finditer(lower):
        kind = next(g for g in match.groups() if g)
        if kind not in found and len(found) < _MAX_HITS:
            found.append(kind)
    return found


def _named_modes(lower: str) -> tuple:
    found = []
    for marker in _MODE_SLOTS:
        for tail in _after(lower, marker, 24):
            m = re.match(r"['\"]?([a-z0-9_-]+)", tail)
            if m and not m.group(1).isdigit():
                found.append(m.group(1).replace("_", "-").strip("-"))
    return tuple(dict.fromkeys(found))


def _operation(words: set, op_grads: bool, lower: str) -> str:
    if "differentiate interpolate backward" in lower or any(
            re.match(r":? ?[a-z]*grad\b", tail) for tail in _after(lower, "registry has no entry for", 40)):
        return "double_backward"
    if words & _TFLITE_WORDS or "tensorflow lite" in lower:
        return "export_tflite"
    if "coremltools" in words or "convert function for op" in lower or "core ml" in lower:
        return "export_coreml"
    if words & _EXPORT_ONNX_WORDS and ({"export", "exporting", "exporter", "symbolic", "opset"} & words) \
            and "onnxruntimeerror" not in words:
        return "export_onnx"
    if op_grads or words & _BACKWARD_WORDS:
        return "backward"
    if words & _CONVERTER_WORDS:
        return "convert"
    return "forward"


def _opsets(lower: str) -> tuple:
    found = []
    for marker in ("opset version ", "opset_version=", "opset ", "resize(", "domain_version of ", "target version "):
        for tail in _after(lower, marker, 6):
            m = re.match(r"\$?(\d{1,2})\b", tail)
            if m and 1 <= int(m.group(1)) <= 30:
                found.append(int(m.group(1)))
    return tuple(dict.fromkeys(found))


def _dtypes(lower: str, words: set) -> frozenset:
    found = set()
    for marker in _DTYPE_MARKERS:
        for tail in _after(lower, marker, 12):
            m = re.match(r"([a-z0-9]+)", tail)
            if m and m.group(1) in DTYPE_WORDS:
                found.add(DTYPE_WORDS[m.group(1)])
    found.update(DTYPE_WORDS[w] for w in ("float16", "bfloat16", "float64", "uint8") if w in words)
    return frozenset(found)


def _versions(lower: str) -> dict:
    found: dict = {}
    for marker, library in version_markers():
        if library in found:
            continue
        for tail in _after(lower, marker, 24):
            m = _VERSION.match(tail)
            if m:
                found[library] = m.group(1)
                break
    return found


_SELF_DOCUMENTING = re.compile(r"\{([A-Za-z_][A-Za-z0-9_.]{0,60})=(?:![rsa])?\}")


def printed(text: str) -> str:
    """A Python f-string's self-documenting fields as they print: ``invalid {size=}`` -> ``invalid size={size}``
    (a text quoted from source and the message it prints read alike)."""
    return _SELF_DOCUMENTING.sub(lambda m: f"{m.group(1)}={{{m.group(1)}}}", text) if "=}" in text else text


def read_clues(text: str) -> Clues:
    """The clues of an error text (see the module docstring); a long text is read through :func:`excerpt`."""
    text = excerpt(text)
    lower = text.lower()
    words = tokens(text)
    ops, grads, foreign, devices = read_operators(lower, words)
    devices.update(DEVICE_WORDS[w] for w in words if w in DEVICE_WORDS)
    op_modes = frozenset(m for m in (op_mode(k) for k in ops) if m) | frozenset(
        m for k in ops for m in ALSO_OP_MODES.get(re.sub(r"\d+d(_aa)?$", "", k), ()))
    named = _named_modes(lower)
    modes = set(op_modes) | {MODE_WORDS[w] for w in words if w in MODE_WORDS}
    if "nearest" in words and "exact" in words:
        modes.add("nearest-exact")
    by_word, also = runtime_words()
    libraries = {by_word[w] for w in words if w in by_word}
    libraries.update(also[w] for w in words if w in also)
    commits = tuple(dict.fromkeys(m.group(1) for tail in _after(lower, "commit hash ", 44)
                                  if (m := re.match(r"([0-9a-f]{7,40})", tail))))
    antialias = True if any(k.endswith("aa") for k in ops) or {"antialias", "true"} <= words else None
    focus = set()
    for line in lower.splitlines():
        if any(a in line for a in _ANCHORS):
            focus.update(_TOKEN.findall(line))
    return Clues(words=frozenset(words), focus=frozenset(focus & words), ops=ops, foreign_ops=foreign,
                 runtimes=frozenset(libraries), devices=frozenset(devices), modes=frozenset(modes),
                 op_modes=op_modes, named_modes=named, antialias=antialias,
                 operation=_operation(words, grads, lower), opsets=_opsets(lower), dtypes=_dtypes(lower, words),
                 versions=_versions(lower), commits=commits, flat=" ".join(printed(lower).split()),
                 providers=frozenset(w for w in words if w.endswith("executionprovider") and len(w) > 17))
