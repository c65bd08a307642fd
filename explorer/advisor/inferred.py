"""What an unmatched resize error text still tells, answered from the text and the measured matrix, marked inferred.

When no record explains a pasted text but it names a runtime the probe measured (ONNX Runtime, OpenVINO, TVM,
MNN, ncnn, OpenCV DNN, tinygrad) and a resize operation or mode, :func:`infer` reads from it the runtime, the
op, the mode and the attributes it names (``coordinate_transformation_mode``, ``nearest_mode``, a dtype, an
opset; :func:`explorer.advisor.diagnose.read_node` and :mod:`.clues`), and lists the Resize configurations the
runtime's newest measured release runs (status ``ok`` in ``explorer/advisor/data/matrix/``) for that mode and
dtype: first those that compute the same weights as what the text asks for (computed by the engine, for the
sizes in the text or else 7 -> 12, 12 -> 5 and 5 -> 9), else the closest, each with its measured difference from the
explorer's computation of the node.  It is an inference, never a record: the diagnosis stays unmatched.

>>> from explorer.advisor.clues import read_clues
>>> i = infer(read_clues('OpenVINO: Resize mode="linear" coordinate_transformation_mode="pytorch_half_pixel"'))
>>> i.runtime, i.op, i.attributes["coordinate_transformation_mode"], i.configurations[0].same
('openvino', 'Resize', 'pytorch_half_pixel', True)
>>> infer(read_clues('Resize mode="linear" coordinate_transformation_mode="pytorch_half_pixel"')) is None  # no runtime
True
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .measured import AGREES, ONNX_RUNTIMES, committed_matrix

#: the matrix runtimes whose one-node ONNX Resize models were measured (the runtime ids the text names)
MEASURED_NODE_RUNTIMES = tuple(sorted(set(ONNX_RUNTIMES.values())))
#: the node attributes a configuration is told by (the rest left at ONNX's defaults)
CONFIG_ATTRIBUTES = ("coordinate_transformation_mode", "nearest_mode")
#: the ONNX mode of each mode family the clues name
ONNX_MODES = {"nearest": "nearest", "nearest-exact": "nearest", "linear": "linear", "cubic": "cubic"}
#: the axis lengths the weights are compared at when the text gives no sizes (an upsample and a downsample)
DEFAULT_PAIRS = ((7, 12), (12, 5), (5, 9))
#: the matrix groups that vary the configuration attributes on fixed geometries (the opset and edge groups vary
#: other things, their failures are not the configuration's; the dtype group runs the defaults in each dtype)
CONFIG_GROUPS = ("attributes", "v19", "dtypes")
#: ONNX's defaults of those attributes (a configuration setting one is the configuration leaving it out)
DEFAULTS = {"coordinate_transformation_mode": "half_pixel", "nearest_mode": "round_prefer_floor"}
#: weights within this of each other are the same
SAME = 1e-6
#: at most this many configurations are listed
LISTED = 4


@dataclass(frozen=True)
class Configuration:
    """One measured configuration: its attributes, whether it computes the text's weights, the largest weight
    difference from them (computed), and its measured verdict and difference from the explorer (the matrix)."""

    attributes: dict
    same: bool
    weight_difference: float
    rows_differing: float
    verdict: str
    measured_difference: float | None
    cases: tuple = ()

    def said(self) -> str:
        return ", ".join(f"{k}={v}" for k, v in self.attributes.items()) or "the defaults"

    def to_dict(self) -> dict:
        return {"attributes": dict(self.attributes), "same": self.same, "weight_difference": self.weight_difference,
                "rows_differing": self.rows_differing,
                "verdict": self.verdict, "measured_difference": self.measured_difference, "cases": list(self.cases)}


@dataclass(frozen=True)
class Inferred:
    """What :func:`infer` read from the text and the measured configurations it offers."""

    runtime: str
    release: str
    op: str
    attributes: dict
    configurations: tuple = ()
    asked: Configuration | None = None   # the configuration the text names, when measured
    where: str = ""
    message: str = ""
    notes: tuple = field(default_factory=tuple)

    def to_dict(self) -> dict:
        return {"runtime": self.runtime, "release": self.release, "op": self.op, "attributes": dict(self.attributes),
                "configurations": [c.to_dict() for c in self.configurations], "message": self.message}


def _runtime(clues) -> str | None:
    """The measured runtime the text names; of several (a report comparing TVM with ONNX Runtime), the one it
    names first."""
    from .clues import runtime_words
    found = [r for r in MEASURED_NODE_RUNTIMES if r in clues.runtimes]
    if len(found) <= 1:
        return found[0] if found else None
    words, _ = runtime_words()
    first = {}
    for word, runtime in words.items():
        if runtime in found and word in clues.words:
            at = clues.flat.find(word)
            if at >= 0:
                first[runtime] = min(first.get(runtime, at), at)
    return min(first, key=first.get) if first else None


def _mode(clues, node: dict) -> str | None:
    if node.get("mode"):
        return node["mode"]
    families = {ONNX_MODES[m] for m in (*clues.modes, *clues.named_modes) if m in ONNX_MODES}
    return families.pop() if len(families) == 1 else None


def _op(clues) -> str:
    words = clues.words
    for name in ("interpolate", "upsample", "interp", "resize"):
        if name in words:
            return name.capitalize()
    return "Resize"


def _pairs(node: dict):
    if "sizes" in node:
        return tuple(zip(*node["sizes"]))
    return DEFAULT_PAIRS


def _config(cell) -> tuple | None:
    """The (attribute, value) pairs that tell a plain Resize cell's configuration (None: other attributes set,
    or not a 2-D NCHW node)."""
    case = cell.case
    attrs = case.get("attributes", {})
    if set(attrs) - set(CONFIG_ATTRIBUTES) or any(t in case["id"] for t in ("/nhwc-", "/rank2-")):
        return None
    if len(case.get("input_shape", ())) != 4 or case.get("roi") is not None:
        return None
    return tuple((k, attrs[k]) for k in CONFIG_ATTRIBUTES if k in attrs)


def _measured(runtime: str, release: str, mode: str, dtype: str, matrix) -> dict:
    """Configuration -> its cells of the release (mode, dtype) in :data:`CONFIG_GROUPS`."""
    out: dict = {}
    for cell in matrix.release_cells(runtime, release):
        case = cell.case
        if case.get("kind") != "onnx" or case.get("op") != "Resize" or case.get("mode") != mode:
            continue
        if case.get("dtype") != dtype or case.get("group") not in CONFIG_GROUPS:
            continue
        config = _config(cell)
        if config is not None:
            out.setdefault(config, []).append(cell)
    return out


def _difference(mode: str, pairs, goal, attrs: dict):
    import numpy as np

    from ..engine.plan import weights
    from .diagnose import target_spec
    spec = target_spec(mode, attrs)
    if spec is None:
        return None
    try:
        gaps = [np.abs(weights(n, m, spec) - g) for (n, m), g in zip(pairs, goal)]
    except (ValueError, NotImplementedError):
        return None
    rows = sum(int((gap.max(axis=1) > SAME).sum()) for gap in gaps) / sum(gap.shape[0] for gap in gaps)
    return rows, max(float(gap.max()) for gap in gaps)


def infer(clues, node: dict | None = None, matrix=None) -> Inferred | None:
    """The inferred answer for an unmatched text (see the module docstring), or None when the text names no
    measured runtime, no resize (operation or mode) or no single mode, is about another operator, or names a
    device or execution provider other than the CPU (the matrix was measured there)."""
    from ..engine.plan import weights
    from .diagnose import target_spec, read_node
    runtime = _runtime(clues)
    # the probe ran on the CPU: a text about another device or execution provider is not answered from it
    if clues.devices - {"cpu"} or clues.providers - {"cpuexecutionprovider"}:
        return None
    if runtime is None or not (clues.ops or clues.modes) or (clues.foreign_ops and not clues.ops):
        return None
    node = read_node(clues) if node is None else node
    mode = _mode(clues, node)
    if mode is None:
        return None
    matrix = committed_matrix() if matrix is None else matrix  # reads the one release file asked about
    release = matrix.current(runtime)
    dtype = next(iter(clues.dtypes)) if len(clues.dtypes) == 1 else "float32"
    opset = clues.opsets[0] if len(clues.opsets) == 1 else None
    wanted = {k: node[k] for k in CONFIG_ATTRIBUTES if k in node}
    attributes = {"mode": mode, **wanted}
    if clues.dtypes:
        attributes["dtype"] = dtype
    if opset is not None:
        attributes["opset"] = opset
    measured = _measured(runtime, release, mode, dtype, matrix)
    pairs = _pairs(node)
    target = target_spec(mode, wanted)
    try:
        goal = [weights(n, m, target) for n, m in pairs] if target is not None else None
    except (ValueError, NotImplementedError):
        goal = None
    configurations = []
    for config, cells in measured.items():
        ok = [c for c in cells if c.status == "ok"]
        if not ok or len(ok) < len(cells):  # a configuration some geometry fails is not offered
            continue
        attrs = dict(config)
        diff = _difference(mode, pairs, goal, attrs) if goal is not None else None
        verdicts = {c.verdict for c in ok}
        verdict = "exact" if verdicts == {"exact"} else "close" if verdicts <= set(AGREES) else \
            next(v for v in ("differs", "shape", "no-reference") if v in verdicts) if verdicts - set(AGREES) else "ok"
        diffs = [c.outcome.get("max_abs_diff") for c in ok if c.outcome.get("max_abs_diff") is not None]
        rows, gap = (1.0, float("inf")) if diff is None else diff
        configurations.append(Configuration(
            attrs, gap <= SAME and verdict in AGREES, gap, rows, verdict, max(diffs) if diffs else None, tuple(c.case["id"] for c in ok)))
    configurations.sort(key=lambda c: (not c.same, verdict_rank(c.verdict), c.rows_differing, c.weight_difference,
                                       c.said()))
    where = ("the sizes in the text" if "sizes" in node else
             ", ".join(f"{n} -> {m}" for n, m in pairs) + " (no sizes in the text)")
    plain = {k: v for k, v in wanted.items() if DEFAULTS.get(k) != v}
    asked = next((c for c in configurations if c.attributes == plain), None)
    found = Inferred(runtime, release, _op(clues), attributes, tuple(configurations[:LISTED]), asked, where)
    return replace(found, message=_message(found))


def verdict_rank(verdict: str) -> int:
    return {"exact": 0, "close": 1}.get(verdict, 2)


def _measured_text(c: Configuration) -> str:
    if c.verdict == "exact":
        return "measured exact"
    diff = f", max difference {c.measured_difference:.3g}" if c.measured_difference is not None else ""
    return f"measured {c.verdict}{diff}"


def _message(i: Inferred) -> str:
    said = ", ".join(f"{k}={v}" for k, v in i.attributes.items())
    text = (f"Inferred from the text (not a record): runtime {i.runtime}, op {i.op}, {said}. ")
    if not i.configurations:
        return text + (f"{i.runtime} {i.release}, its newest measured release, runs no plain {i.attributes['mode']} "
                       f"Resize configuration of this dtype in the matrix.")
    if i.asked is not None and i.asked.verdict not in AGREES:
        named = "The configuration it names" if set(CONFIG_ATTRIBUTES) & set(i.attributes) else \
            "The configuration it names (ONNX's defaults: it names no coordinate_transformation_mode or nearest_mode)"
        text += (f"{named} runs on {i.runtime} {i.release} but its output differs from the ONNX node's "
                 f"({_measured_text(i.asked)}). ")
    same = [c for c in i.configurations if c.same]
    head = f"{i.runtime} {i.release} (newest measured release) runs"
    if same:
        listed = "; ".join(f"{c.said()} ({_measured_text(c)})" for c in same)
        return text + f"{head} these configurations computing the same weights for {i.where}: {listed}."
    best = i.configurations[0]
    diff = "unknown" if best.weight_difference == float("inf") else f"{best.weight_difference:.3g}"
    return text + (f"{head} no configuration computing the same weights for {i.where}; the closest: {best.said()}, "
                   f"max weight difference {diff} in {best.rows_differing:.0%} of the output rows ({_measured_text(best)}).")
