"""``scan``: every resize in a model (an ONNX file or a PyTorch module), its equivalents, and what a backend does.

For each ``Resize``/``Upsample`` node of an ONNX model (:mod:`explorer.advisor.onnx_resize`) or each
interpolate call of a PyTorch module (:mod:`explorer.advisor.torch_resize`):

* **equivalents**: every library preset (``explorer.presets()``) that computes the same weights as the node
  for the node's own sizes, with the size argument that does it (``size=`` or ``scale_factor=``), found by
  building both sets of per-axis weights with the library rules (:mod:`explorer.advisor.node_calls`);
* **findings** for the chosen backend, version, device and training, through :func:`explorer.check`; for a
  runtime that imports ONNX with its own code generator (its declaration's ``importer``: Burn), what that
  import generates for the node in that release (:mod:`explorer.advisor.importers`), measured against ONNX
  Runtime's result with the engine on the node's shapes, and the same for every other release
  (``ScannedNode.imports``).

``backend=None`` means ``onnxruntime`` for an ONNX model and ``torch`` for a module.

>>> import onnx
>>> from onnx import TensorProto, helper
>>> x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 10, 10])
>>> y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
>>> sizes = helper.make_tensor("sizes", TensorProto.INT64, [4], [1, 3, 3, 3])
>>> node = helper.make_node("Resize", ["x", "", "", "sizes"], ["y"], name="down", mode="nearest",
...                         nearest_mode="round_prefer_ceil")
>>> model = helper.make_model(helper.make_graph([node], "g", [x], [y], initializer=[sizes]),
...                           opset_imports=[helper.make_opsetid("", 13)])
>>> result = scan(model, backend="burn-tch", version="0.22.0-pre.2")
>>> [(e["library"], e["mode"]) for e in result[0].equivalents if e["library"] in ("torch", "burn")]
[('torch', 'nearest-exact'), ('burn', 'NearestExact')]
>>> print(result[0].findings[0].message)  # doctest: +ELLIPSIS
Burn 0.22.0-pre.2 imports this node as InterpolateMode::Nearest; it ignores nearest_mode=round_prefer_ceil: it computes other ...
"""

from __future__ import annotations

import copy
import importlib
import time
from dataclasses import dataclass, field

import numpy as np

from .. import validate
from ..conventions import presets
from ..conventions import registry
from ..conventions.mode_names import mode_family
from ..errors import ArgumentTypeError, ArgumentValueError
from ..limits import SCAN_MAX_NODES, SCAN_MAX_SECONDS
from ..reading import printable
from ..engine.plan import axis_plan
from .backend_calls import computation, convention_text, spec_of
from .findings import SEVERITY_ORDER, Finding, check
from .node_calls import PresetResize, measurable, onnx_call, plan_difference, plans_agree, problem, rounding_atol
from .onnx_resize import ResizeNode, load_model, resize_nodes
from .question import ATTRIBUTES, Question, Target
from .torch_resize import InterpolateSite, interpolate_calls

_SIZE_ATOL = 1e-5


@dataclass
class Measurement:
    """Two computations of one node on the same seeded random plane (float32, uniform in [0, 1))."""

    what: str
    output_shape_a: tuple
    output_shape_b: tuple
    max_abs: float | None = None
    changed_fraction: float | None = None
    atol: float = _SIZE_ATOL  # what float32 rounding alone can change (:func:`measure`)

    @property
    def identical(self) -> bool:
        return self.output_shape_a == self.output_shape_b and self.max_abs is not None and \
            self.max_abs <= self.atol

    def __str__(self):
        if self.output_shape_a != self.output_shape_b:
            return f"{self.what}: output {self.output_shape_b} instead of {self.output_shape_a}"
        if self.identical:
            return f"{self.what}: identical up to float32 rounding (max difference {self.max_abs:.2g})"
        return (f"{self.what}: max difference {self.max_abs:.3g}, {100 * self.changed_fraction:.0f}% of the "
                "values differ")

    def to_dict(self) -> dict:
        return {"what": self.what, "output_shape_a": list(self.output_shape_a),
                "output_shape_b": list(self.output_shape_b), "max_abs": self.max_abs,
                "changed_fraction": self.changed_fraction, "identical": self.identical, "summary": str(self)}


@dataclass
class ScannedNode:
    """One resize of the model: what it is, what computes the same, and what the backend will do."""

    node: str
    op_type: str
    opset: int | None
    attributes: dict
    input_shape: tuple | None
    output_shape: tuple | None
    equivalents: list = field(default_factory=list)     # {"library", "mode", "options"}
    findings: list = field(default_factory=list)        # Finding
    imports: list = field(default_factory=list)         # per release of the runtime's ONNX import: its outcome,
    #                                                     measured (Burn)
    location: str = ""
    source: object = None                               # the ResizeNode or InterpolateSite read from the model
    trivial: str | None = None                          # "identity" or "one pixel": every kernel computes it
    origin: str = ""                                    # module and source line recorded by the exporter

    @property
    def severity(self) -> str | None:
        """The most severe finding's severity (None without findings)."""
        if not self.findings:
            return None
        return min((f.severity for f in self.findings), key=SEVERITY_ORDER.get)

    @property
    def burn_import(self) -> list:
        """The outcome of each release of Burn's ONNX import (:attr:`imports`, the name it had first)."""
        return self.imports

    def equivalent_in(self, library: str) -> dict | None:
        return next((e for e in self.equivalents if e["library"] == library), None)

    def to_dict(self) -> dict:
        return {"node": self.node, "op_type": self.op_type, "opset": self.opset,
                "attributes": _plain(self.attributes),
                "input_shape": None if self.input_shape is None else list(self.input_shape),
                "output_shape": None if self.output_shape is None else list(self.output_shape),
                "equivalents": [_plain(e) for e in self.equivalents],
                "findings": [f.to_dict() for f in self.findings],
                "imports": [_plain(b) for b in self.imports], "location": self.location, "trivial": self.trivial,
                "origin": self.origin}


def _library_order(library: str) -> int:
    ids = registry.library_ids()
    return ids.index(library) if library in ids else len(ids)


def _plain(value):
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, np.generic):
        return value.item()
    return value


class Scan(list):
    """The scanned nodes (a list of :class:`ScannedNode`), printable as a table."""

    def __init__(self, nodes, backend: str, version: str | None, training: bool, device: str | None,
                 model: str):
        super().__init__(nodes)
        self.backend, self.version, self.training, self.device, self.model = backend, version, training, \
            device, model

    @property
    def errors(self) -> int:
        return sum(1 for n in self for f in n.findings if f.severity == "error")

    @property
    def exit_status(self) -> int:
        return 1 if self.errors else 0

    def to_dicts(self) -> list[dict]:
        return [n.to_dict() for n in self]

    @property
    def unscanned(self) -> int:
        """Nodes the scan could not analyse."""
        return sum(1 for n in self if any(is_unscanned(f) for f in n.findings))

    def counts(self) -> dict:
        """Findings by severity over every node."""
        out = dict.fromkeys(SEVERITY_ORDER, 0)
        for n in self:
            for f in n.findings:
                out[f.severity] += 1
        return out

    def summary_dict(self) -> dict:
        return {"model": self.model, "backend": self.backend, "version": self.version, "nodes": len(self),
                "scanned": len(self) - self.unscanned, "unscanned": self.unscanned, "findings": self.counts(),
                "groups": len(self.groups()), "exit_status": self.exit_status}

    def summary(self) -> str:
        """One line for the model: ``model.onnx: 31 resize(s) in 6 group(s), 31 scanned; onnxruntime 1.32.0:
        0 error(s), 0 differs, 2 warning(s), 5 info; exit 0``."""
        d = self.summary_dict()
        version = f" {self.version}" if self.version else ""
        found = ", ".join(f"{v} {k}" + ("(s)" if k in ("error", "warning") else "") for k, v in d["findings"].items())
        unscanned = f", {d['unscanned']} not scanned" if d["unscanned"] else ""
        return (f"{printable(self.model)}: {d['nodes']} resize(s) in {d['groups']} group(s), {d['scanned']} "
                f"scanned{unscanned}; {self.backend}{version}: {found}; exit {d['exit_status']}")

    def groups(self) -> list[list[ScannedNode]]:
        """The nodes grouped by what they are and what was found (same op, attributes, shapes, equivalents and
        findings), in the order of each group's first node."""
        groups: dict = {}
        for n in self:
            groups.setdefault(_group_key(n), []).append(n)
        return list(groups.values())

    def table(self) -> str:
        """One line per group of alike nodes: how many, the first's name, op, shapes, mode and the most severe
        finding."""
        rows = [("count", "node", "op", "opset", "input -> output", "mode", "equivalents", "worst")]
        for group in self.groups():
            n = group[0]
            shapes = f"{_shape_text(n.input_shape)} -> {_shape_text(n.output_shape)}"
            mode = _mode_text(n.attributes) + (f" ({n.trivial})" if n.trivial else "")
            libraries = sorted({e["library"] for e in n.equivalents}, key=_library_order)
            rows.append((f"x{len(group)}", printable(n.node, 60), n.op_type, "" if n.opset is None else str(n.opset),
                         shapes, mode, ",".join(libraries) or ("-" if _unscanned(n) else "none"),
                         n.severity or "-"))
        widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
        return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)

    def __str__(self):
        what = "training" if self.training else "inference"
        version = f" {self.version}" if self.version else ""
        unscanned = f", {self.unscanned} not scanned" if self.unscanned else ""
        lines = [(f"{printable(self.model)}: {len(self)} resize(s) in {len(self.groups())} group(s){unscanned}; "
                  f"{self.backend}{version} ({what}), {self.errors} error(s)"), "", self.table()]
        for group in self.groups():
            n = group[0]
            lines.append("")
            trivial = f" ({_TRIVIAL_TEXT[n.trivial]})" if n.trivial else ""
            shapes = f"{_shape_text(n.input_shape)} -> {_shape_text(n.output_shape)}"
            lines.append(f"x{len(group)}: {_mode_text(n.attributes)}{trivial}, {shapes} ({n.op_type})")
            for member in group[:_NAMES_SHOWN]:
                where = "".join(f", {printable(text)}" for text in (member.location, member.origin) if text)
                lines.append(f"  {printable(member.node)}{where}")
            if len(group) > _NAMES_SHOWN:
                lines.append(f"  ... and {len(group) - _NAMES_SHOWN} more (--json lists every node)")
            for library in sorted({e["library"] for e in n.equivalents}, key=_library_order):
                e = n.equivalent_in(library)
                lines.append(f"  = {library} {e['mode']}{options_text(e['options'])}")
            if not n.equivalents and not _unscanned(n):
                lines.append("  = no library preset computes these weights")
            for f in n.findings:
                lines.append("  - " + "\n    ".join(printable(part, None) for part in str(f).split("\n")))
                for fix in f.fixes:
                    lines.append(f"      fix: {fix}")
                    lines.extend("        " + line for line in fix.code.splitlines())
        return "\n".join(lines)


#: names listed under a group of alike nodes in the text report (the JSON lists them all)
_NAMES_SHOWN = 4


def _unscanned(n: ScannedNode) -> bool:
    return any(is_unscanned(f) for f in n.findings)


def _group_key(n: ScannedNode) -> tuple:
    named = repr(printable(n.node))
    findings = tuple((f.severity, f.message.replace(f"node {named}", "node"), tuple(str(x) for x in f.fixes))
                     for f in n.findings)
    return (n.op_type, n.opset, _mode_text(n.attributes), n.trivial, n.input_shape, n.output_shape,
            repr(n.equivalents), findings)


def trivial_kind(call: PresetResize) -> str | None:
    """``"identity"`` when every output copies its input (same lengths, identity weights), ``"one pixel"`` when
    each resized axis has one input value that every output copies; None otherwise.  Every kernel computes these
    alike, so the node is neither nearest nor linear.

    >>> trivial_kind(PresetResize("onnx", "linear", {"opset": 13}, (1, 1, 1, 1), (2, 3), size=(5, 7)))
    'one pixel'
    """
    plans = call.plans()[1]
    if all(p.n == 1 and (p.outside is None or not p.outside.any()) for _, p in plans):
        return "one pixel"
    for _, p in plans:
        if p.n != p.m or (p.outside is not None and p.outside.any()):
            return None
        rows, cols, values = p.band.triplets()
        keep = values != 0
        if not (np.array_equal(rows[keep], cols[keep]) and np.allclose(values[keep], 1.0, rtol=0, atol=1e-6)
                and keep.sum() == p.m):
            return None
    return "identity"


_TRIVIAL_TEXT = {"identity": "identity: every output copies its input",
                 "one pixel": "one input pixel: every output copies it"}


def _shape_text(shape) -> str:
    return "?" if shape is None else "x".join("?" if d is None else str(d) for d in shape)


def _mode_text(attributes) -> str:
    keys = ("mode", "coordinate_transformation_mode", "nearest_mode", "cubic_coeff_a", "exclude_outside",
            "antialias", "align_corners")
    mode = attributes.get("mode")
    parts = [printable(mode, 60)]
    for k in keys[1:]:
        v = attributes.get(k)
        if v is None or (k == "nearest_mode" and mode != "nearest") or (k == "cubic_coeff_a" and mode != "cubic"):
            continue
        if k in ("exclude_outside", "antialias") and not v:
            continue
        parts.append(f"{k}={printable(v, 60)}")
    return " ".join(parts)


def options_text(options) -> str:
    if not options:
        return ""
    return " (" + ", ".join(f"{k}={v}" for k, v in options.items()) + ")"


# ------------------------------------------------------------------------------------------------ equivalents
def equivalents(reference: PresetResize) -> list[PresetResize]:
    """Every preset computing the same weights as ``reference`` on its problem (size or scale_factor); the
    reference itself is listed when no preset of its own library is."""
    target = reference.plans()
    out_lengths = tuple(p.m for _, p in target[1])
    found, seen = [], set()
    for row in presets():
        arguments = [{"size": out_lengths}]
        if reference.scale_factor is not None:
            arguments.insert(0, {"scale_factor": reference.scale_factor})
        for args in arguments:
            candidate = PresetResize(row.library, row.mode, dict(row.options), reference.shape, reference.axes, **args)
            try:
                if candidate.output_lengths() != out_lengths or not plans_agree(target, candidate.plans()):
                    continue
            except (ValueError, TypeError, NotImplementedError):
                continue
            key = (row.library, row.mode, tuple(sorted(row.options.items(), key=str)))
            if key not in seen:
                seen.add(key)
                found.append(candidate)
            break
    if not any(c.library == reference.library for c in found):  # the node's own form, when no listed row is it
        found.append(reference)
    kernel = kernel_of(mode_family(reference.library, reference.mode))
    # per library, a mode of the node's own kernel first (an identity is also torch nearest, but a linear node
    # reads as torch bilinear)
    found.sort(key=lambda c: (_library_order(c.library), _kernel_of_call(c) != kernel))
    return found


def kernel_of(family: str) -> str:
    """The kernel of a mode family: 'nearest' for nearest and nearest-exact, else the family itself."""
    return "nearest" if family.startswith("nearest") else family


def _kernel_of_call(call: PresetResize) -> str:
    try:
        return kernel_of(mode_family(call.library, call.mode))
    except ValueError:  # a mode without a family (none today): sorted last
        return ""


def _family(reference: PresetResize, found: list[PresetResize]) -> str:
    """The mode family of the node's computation: torch's mode with the node's kernel that computes it ('nearest'
    for ONNX asymmetric/floor nearest), else the node's own family.  An identity or a resize of one pixel, which
    every kernel computes alike, keeps its own kernel (a linear node is not called nearest)."""
    own = mode_family(reference.library, reference.mode)
    for c in found:
        if c.library == "torch" and kernel_of(mode_family("torch", c.mode)) == kernel_of(own):
            return mode_family("torch", c.mode)
    return own


# ------------------------------------------------------------------------------------------------ findings
def asked(target: Target, training: bool) -> dict:
    """The question fields a scan fixes for every node: the backend, its release and device, training."""
    return {"backend": target.backend.id, "version": target.requested_version, "device": target.device,
            "training": training}


def node_lengths(call: PresetResize):
    """(input lengths, output lengths) of the node's resized axes."""
    out = tuple(p.m for _, p in call.plans()[1])
    return call.input_lengths, out


def _node_as_written(node: ResizeNode, call: PresetResize, target: Target, training: bool) -> list[Finding]:
    """A backend that runs the node as it is written (ONNX Runtime, TensorRT): its failures and caveats (not how
    other libraries differ: the equivalents say that for the node's own sizes)."""
    n, m = node_lengths(call)
    align_corners = True if call.options.get("coordinate_transformation_mode") == "align_corners" else None
    return measured_away(check(mode=call.mode, **asked(target, training), align_corners=align_corners,
                               antialias=bool(call.options.get("antialias", 0)),
                               spatial_dims=max(1, min(len(n), 4)), opset=node.opset,
                               scale_factor=call.scale_factor, input_size=n, output_size=m, reference=None))


def _preset_findings(backend, family: str, found: list[PresetResize], n, m, fields: dict, scale_factor,
                     reference: str, call: PresetResize) -> list[Finding]:
    """Findings for a backend the user writes the resize for by hand: its equivalent, or the family; for a
    backend that no library preset models but whose declaration says what it computes (Core ML, candle, ncnn),
    that computation compared with the node's own weights (not with another library's default)."""
    library = backend.names
    match = next((c for c in found if library is not None and c.library == library), None)
    out = []
    spatial = max(1, min(len(n), 4))
    own = None
    if match is not None:
        options = match.options
        mode = match.mode
        align_corners = options.get("align_corners")
        antialias = bool(options.get("antialias", False))
    else:
        mode, align_corners, antialias = family, None, False
        if library is not None:
            out.append(Finding(
                severity="differs", backend=backend.id, mode=family, operation="convention", status="differs",
                message=(f"no {library} mode computes this node's weights for {lengths_text(n, m)}; "
                         f"{library}'s {family} mode computes other numbers"),
                source="explorer.presets() compared with the node's weights (explorer.advisor.node_calls)",
                evidence="measured"))
        else:
            own = backend_against_node(backend, call, family, fields)
    found_here = check(mode=mode, **fields, align_corners=align_corners, antialias=antialias, spatial_dims=spatial,
                       scale_factor=scale_factor, input_size=n, output_size=m, reference=reference)
    if match is not None:
        return out + measured_away(found_here)
    if own is None:
        return out + found_here
    agrees, text = own
    out.extend(measured_away(found_here))
    if not agrees:
        out.append(Finding(severity="differs", backend=backend.id, mode=family, operation="convention",
                           status="differs", message=text, evidence="measured",
                           source=f"{backend.id}'s declared computation (explorer.conventions.libraries) compared "
                                  "with the node's weights (explorer.advisor.node_calls)"))
    return out


def _node_attributes(call: PresetResize) -> dict | None:
    """The ONNX Resize attributes of an ``onnx`` call (what a runtime that converts the node reads), else None."""
    if call.library != "onnx":
        return None
    return {k: v for k, v in call.options.items() if k in ATTRIBUTES}


def backend_against_node(backend, call: PresetResize, family: str, fields: dict) -> tuple[bool, str] | None:
    """``(agrees, what it computes)``: the backend's own computation (its declaration's ``computes``) on the
    node's lengths against the node's weights, within float32 rounding; None when the backend has no numeric
    model for the node's kernel.

    >>> from explorer.advisor.question import Target
    >>> node = PresetResize("onnx", "nearest", {"opset": 13, "coordinate_transformation_mode": "asymmetric",
    ...                     "nearest_mode": "floor"}, (1, 1, 4, 4), (2, 3), size=(8, 8))
    >>> backend_against_node(Target.of("coreml").backend, node, "nearest", {"training": False})[0]
    True
    """
    align_corners = call.options.get("align_corners")
    if call.options.get("coordinate_transformation_mode") == "align_corners":
        align_corners = True
    try:
        question = Question.of(mode=kernel_of(family), backend=backend.id, version=fields.get("version"),
                               training=False, align_corners=align_corners, attributes=_node_attributes(call))
        computed = computation(question, call.input_lengths, call.output_lengths())
        node_plans = call.plans()[1]
        if computed.library is not None and computed.library in registry.library_ids():
            theirs = PresetResize(computed.library, computed.mode, dict(computed.options), call.shape, call.axes,
                                  size=call.output_lengths()).plans()[1]
        else:
            spec = spec_of(computed)
            theirs = [(axis, axis_plan(p.n, p.m, spec)) for axis, p in node_plans]
    except (ValueError, TypeError, NotImplementedError):
        return None
    worst = max((plan_difference(a, b) for (_, a), (_, b) in zip(node_plans, theirs)), default=0.0)
    lengths = [v for _, p in node_plans for v in (p.n, p.m)]
    if worst <= rounding_atol(*lengths):
        return True, ""
    n, m = node_lengths(call)
    difference = "another output length" if not np.isfinite(worst) else f"weights up to {worst:.3g} apart"
    return False, (f"{backend.id} runs this node as {question.mode!r}, which computes {convention_text(computed)}; "
                   f"this node's own settings compute other weights for {lengths_text(n, m)} ({difference})")


def lengths_text(n, m) -> str:
    return " x ".join(str(v) for v in n) + " -> " + " x ".join(str(v) for v in m)


def measure(first: PresetResize, second: PresetResize, what: str, seed: int = 0) -> Measurement | None:
    """Run both calls on one seeded random plane (None when it would exceed :data:`MEASURE_BYTES`)."""
    out_a, out_b = first.output_lengths(), second.output_lengths()
    if not (measurable(first, out_a) and measurable(second, out_b)):
        return None
    x = np.random.default_rng(seed).random(first.shape, dtype=np.float32)
    y_a, y_b = first.run(x), second.run(x)
    if y_a.shape != y_b.shape:
        return Measurement(what, tuple(out_a), tuple(out_b))
    # each output sums at most 4 weights per axis of inputs in [0, 1): float32 rounding moves it by at most that
    atol = 4 * len(first.axes) * rounding_atol(*first.input_lengths, *out_a)
    diff = np.abs(y_a.astype(np.float64) - y_b.astype(np.float64))
    return Measurement(what, tuple(out_a), tuple(out_b), float(diff.max(initial=0.0)),
                       float(np.mean(diff > atol)), atol)


def measured_away(findings: list[Finding]) -> list[Finding]:
    """The findings left once the node's numbers are measured: conventions that differ from another library
    are what the measurement and the equivalents already answer, for this node's sizes."""
    return [f for f in findings if not (f.operation == "convention" and f.status == "differs")]


def importer(runtime_id: str):
    """The module of :mod:`explorer.advisor.importers` that says what a runtime's ONNX import makes of a node
    (its ``Runtime.importer``), or None."""
    name = registry.runtime(runtime_id).importer
    return None if name is None else importlib.import_module(f"{__package__}.importers.{name}")


# ------------------------------------------------------------------------------------------------ the scan
def _node_key(node: ResizeNode) -> tuple:
    """What a node's analysis depends on: nodes alike in all of it are analysed once (not its name or graph)."""
    return (node.op_type, node.opset, node.op_version, repr(sorted(node.attributes.items(), key=str)),
            node.input_shape, node.output_shape, node.roi, node.scales, node.sizes,
            tuple(sorted(node.sources.items())), node.problem, node.readable, node.unknown_why)


class _Budget:
    """The nodes and the seconds a scan may spend analysing (:data:`SCAN_MAX_NODES`, :data:`SCAN_MAX_SECONDS`);
    nodes alike share one analysis (the first one's, copied)."""

    def __init__(self, max_nodes, max_seconds):
        self.max_nodes = SCAN_MAX_NODES if max_nodes is None else validate.length(max_nodes, "max_nodes")
        self.max_seconds = SCAN_MAX_SECONDS if max_seconds is None else validate.positive_number(max_seconds,
                                                                                                 "max_seconds")
        self.start, self.analysed, self.done = time.monotonic(), 0, {}

    def spent(self) -> str | None:
        if self.analysed >= self.max_nodes:
            return f"the scan's budget of {self.max_nodes} distinct nodes (explorer.limits.SCAN_MAX_NODES)"
        if time.monotonic() - self.start > self.max_seconds:
            return f"the scan's budget of {self.max_seconds:g} s (explorer.limits.SCAN_MAX_SECONDS)"
        return None

    def scan(self, node: ResizeNode, analyse) -> ScannedNode:
        key = _node_key(node)
        if key in self.done:
            return _renamed(self.done[key], node)
        spent = self.spent()
        if spent is not None:
            return _unanalysed(node, f"not scanned: node {printable(node.name)!r} was not analysed: {spent} was spent on the "
                                     "nodes before it; scan a smaller model or raise the limit", "unknown")
        self.analysed += 1
        self.done[key] = scanned = analyse(node)
        return scanned


def _renamed(scanned: ScannedNode, node: ResizeNode) -> ScannedNode:
    """A copy of another node's analysis for ``node`` (same facts, its own name and place)."""
    out = copy.deepcopy(scanned)
    before, after = repr(printable(scanned.node)), repr(printable(node.name))
    for f in out.findings:  # a message names its node: this one's
        f.message = f.message.replace(f"node {before}", f"node {after}")
    out.node, out.location, out.source, out.origin = node.name, node.graph, node, node.origin
    return out


def _unanalysed(node: ResizeNode, message: str, status: str, severity: str = "warning",
                error_text: str | None = None) -> ScannedNode:
    scanned = ScannedNode(node=node.name, op_type=node.op_type, opset=node.opset, attributes=dict(node.attributes),
                          input_shape=node.input_shape, output_shape=node.output_shape, source=node,
                          location=node.graph)
    scanned.findings.append(Finding(
        severity=severity, backend=None, operation="forward", status=status, mode=node.attributes.get("mode"),
        message=message, error_text=error_text,
        source="explorer.advisor.onnx_resize (ONNX Runtime 1.32 attribute checks)", evidence="measured"))
    return scanned


UNSCANNED_CHOICES = ("error", "warning")


def _scan_onnx_node(node: ResizeNode, target: Target, training: bool, path, unscanned: str = "warning") -> ScannedNode:
    """One node's analysis; whatever goes wrong in it is a finding on that node, never the end of the scan.  A
    node left unscanned is a finding of severity ``unscanned``, with what the backend's import refuses whatever
    the shapes (Burn 0.18 refuses every opset-11 model)."""
    if node.problem is not None and node.readable:
        found = _unanalysed(node, f"ONNX Runtime rejects this node: {node.problem}", "fails", "error")
        found.findings[0].backend = target.backend.id
        return found
    if node.problem is not None:
        found = _unanalysed(node, f"not scanned: {node.problem}", "unknown", unscanned)
    elif node.unknown_why:
        found = _unanalysed(node, f"not scanned: node {printable(node.name)!r}: its shapes are not known "
                                  f"({node.input_shape} -> {node.output_shape}): {node.unknown_why}", "unknown",
                            unscanned)
    else:
        try:
            found = _analyse_onnx_node(node if node.static or not node.analysable else node.on_unit_axes(),
                                       target, training, path)
            found.input_shape, found.output_shape, found.source = node.input_shape, node.output_shape, node
        except Exception as exc:  # noqa: BLE001 - one node's analysis never stops the others (reported on it)
            found = _unanalysed(node, f"not scanned: node {printable(node.name)!r} could not be analysed "
                                      f"({type(exc).__name__}: {printable(exc)})", "unknown", unscanned)
    found.origin = getattr(node, "origin", "")
    found.findings = [_unscanned_severity(f, unscanned) for f in found.findings]
    for f in found.findings:
        f.backend = f.backend or target.backend.id
    if any(is_unscanned(f) for f in found.findings) and node.readable:
        imports = importer(target.backend.runtime)
        if imports is not None and hasattr(imports, "unscanned_findings"):
            try:
                found.findings.extend(imports.unscanned_findings(node, target, training, path))
            except Exception:  # noqa: BLE001 - the import's verdict is extra; the node is reported unscanned anyway
                pass
        found.findings.sort(key=lambda f: SEVERITY_ORDER[f.severity])
    return found


def is_unscanned(finding: Finding) -> bool:
    """A finding saying its node was not scanned (shapes, sizes or the budget unknown)."""
    return finding.status == "unknown" and finding.message.startswith("not scanned")


def _unscanned_severity(finding: Finding, severity: str) -> Finding:
    if is_unscanned(finding) and finding.severity in UNSCANNED_CHOICES:
        finding.severity = severity
    return finding


def _analyse_onnx_node(node: ResizeNode, target: Target, training: bool, path) -> ScannedNode:
    backend = target.backend
    scanned = ScannedNode(node=node.name, op_type=node.op_type, opset=node.opset, attributes=dict(node.attributes),
                          input_shape=node.input_shape, output_shape=node.output_shape, source=node,
                          location=node.graph)
    try:
        call = onnx_call(node)
        call.plans()
    except ValueError as exc:
        known = node.static
        text = str(exc)
        if f"node {node.name!r}" not in text:  # every message names the node it is about
            text = f"node {printable(node.name)!r}: {text}"
        scanned.findings.append(Finding(
            severity="error" if known else "warning", backend=backend.id, operation="forward",
            status="fails" if known else "unknown", mode=node.mode,
            message=(f"ONNX Runtime rejects this node: {text}" if known else f"not scanned: {text}"),
            error_text=str(exc) if known else None,
            source="explorer.conventions.libraries.onnx (ONNX Runtime 1.32 attribute checks)", evidence="measured"))
        return scanned
    found = equivalents(call)
    scanned.equivalents = [c.describe() for c in found]
    scanned.trivial = trivial_kind(call)
    n, m = node_lengths(call)
    imports = importer(backend.runtime)
    if backend.declared is not None and backend.declared.runs_nodes:  # ONNX Runtime, TensorRT: the node as written
        scanned.findings = _node_as_written(node, call, target, training)
    elif imports is not None:
        scanned.findings, scanned.imports = imports.node_findings(node, call, found, target, training, path)
    else:
        scanned.findings = _preset_findings(backend, _family(call, found), found, n, m, asked(target, training),
                                            call.scale_factor, "onnxruntime", call)
    scanned.findings.sort(key=lambda f: SEVERITY_ORDER[f.severity])
    return scanned


def _torch_reference(c: InterpolateSite) -> PresetResize:
    shape, axes, out, _ = problem(c.input_shape, c.output_shape, range(2, len(c.input_shape)))
    options = {}
    if c.mode in ("linear", "bilinear", "bicubic", "trilinear") or c.align_corners is not None:
        options["align_corners"] = c.align_corners
    if c.antialias:
        options["antialias"] = True
    if c.scale_factor is not None:
        return PresetResize("torch", c.mode, options, shape, axes, scale_factor=c.scale_factor)
    return PresetResize("torch", c.mode, options, shape, axes, size=out)


def _scan_torch_call(c: InterpolateSite, target: Target, training: bool, opset, exporter=None) -> ScannedNode:
    """One interpolate call's analysis; a failure in it is a finding on that call, never the end of the scan."""
    try:
        return _analyse_torch_call(c, target, training, opset, exporter)
    except Exception as exc:  # noqa: BLE001 - one call's analysis never stops the others (reported on the call)
        scanned = ScannedNode(node=c.name, op_type=c.op, opset=opset, attributes=c.attributes,
                              input_shape=c.input_shape, output_shape=c.output_shape, source=c,
                              location=c.location or c.module)
        scanned.findings.append(Finding(
            severity="warning", backend=target.backend.id, operation="forward", status="unknown", mode=c.mode,
            message=f"not scanned: call {printable(c.name)!r} could not be analysed ({type(exc).__name__}: "
                    f"{printable(exc)})", source="explorer.advisor.torch_resize", evidence="measured"))
        return scanned


EXPORTERS = ("dynamo", "torchscript")
_EXPORT_CALLS = {"dynamo": "torch.onnx.export(..., dynamo=True)", "torchscript": "torch.onnx.export(..., dynamo=False)"}


def default_exporter(version: str | None = None) -> str:
    """The exporter ``torch.onnx.export`` uses by default in torch ``version`` (default: the installed torch, else
    the newest release the knowledge base checked): ``"dynamo"`` from 2.9, ``"torchscript"`` before
    (explorer/advisor/data/torch.toml ``export_default``).

    >>> default_exporter("2.13.0"), default_exporter("2.4.1")
    ('dynamo', 'torchscript')
    """
    from .knowledge import load
    runtime = load().runtimes["torch"]
    if version is None:
        try:
            import torch
            version = torch.__version__.split("+")[0]
        except ImportError:  # pragma: no cover - scanning a module needs torch
            version = runtime.newest
    default = next((d for d in runtime.export_defaults if d.versions.contains(version)), None)
    return default.exporter if default is not None else "dynamo"


def _other_exporter(finding: Finding, exporter: str) -> Finding:
    """An export finding of the exporter the module is not exported with: information (a failure there is no
    failure of this export), its message saying which exporter it is about."""
    out = copy.copy(finding)
    out.severity = "info" if finding.severity in ("error", "warning", "differs") else finding.severity
    out.message = f"Only with the {exporter} exporter ({_EXPORT_CALLS[exporter]}): {finding.message}"
    return out


def _analyse_torch_call(c: InterpolateSite, target: Target, training: bool, opset, exporter=None) -> ScannedNode:
    scanned = ScannedNode(node=c.name, op_type=c.op, opset=opset, attributes=c.attributes,
                          input_shape=c.input_shape, output_shape=c.output_shape, source=c,
                          location=c.location or c.module)
    call = _torch_reference(c)
    found = equivalents(call)
    scanned.equivalents = [e.describe() for e in found]
    scanned.trivial = trivial_kind(call)
    n, m = node_lengths(call)
    scanned.findings = _preset_findings(target.backend, _family(call, found), found, n, m, asked(target, training),
                                        c.scale_factor, "torch", call)
    if opset is not None:  # what each exporter of torch.onnx.export does with the call at that opset
        used = exporter or default_exporter()
        for each in ("dynamo", "torchscript"):
            export = check(mode=c.mode, backend="torch", training=False, align_corners=c.align_corners,
                           antialias=c.antialias, spatial_dims=len(n), export=f"onnx-{each}", opset=opset,
                           scale_factor=c.scale_factor, input_size=n, output_size=m)
            found = [f for f in export if f.operation == "export_onnx"]
            scanned.findings.extend(found if each == used else [_other_exporter(f, each) for f in found])
    scanned.findings.sort(key=lambda f: SEVERITY_ORDER[f.severity])
    return scanned


def _is_torch_module(model) -> bool:
    for cls in type(model).__mro__:
        if cls.__module__.startswith("torch.nn") and cls.__name__ == "Module":
            return True
    return False


def scan(model, example_inputs=None, backend=None, training=False, version=None, device=None,
         opset=None, *, max_nodes=None, max_seconds=None, unscanned=None, exporter=None) -> Scan:
    """Every resize in ``model`` with its equivalents and the findings for ``backend``.

    ``model`` is an ONNX model (a path, the file's bytes or an ``onnx.ModelProto``) or a ``torch.nn.Module``
    (then ``example_inputs``, a tuple of tensors, is required).  For an ONNX model ``example_inputs`` fixes the
    graph inputs' shapes (dict name -> shape or array, or a sequence in input order) when they are dynamic;
    its opset is read from the file.  For a module, ``opset`` adds what ``torch.onnx.export`` at that opset
    does with ``exporter`` (``"dynamo"`` or ``"torchscript"``; default: the installed torch's default exporter,
    dynamo from 2.9): the other exporter's failures are information, since the module is not exported with it.
    ``backend``: any id of :func:`explorer.backends` (default ``onnxruntime`` for an ONNX model, ``torch`` for a
    module); ``version``, ``device`` and ``training`` as in :func:`explorer.check`.

    A model is untrusted input: one node that cannot be read or analysed is a finding on that node and the
    others are scanned; nodes alike (attributes, shapes, sizes) are analysed once; at most ``max_nodes``
    distinct nodes are analysed, for at most ``max_seconds`` (:data:`~explorer.limits.SCAN_MAX_NODES`,
    :data:`~explorer.limits.SCAN_MAX_SECONDS`), and the nodes past the budget get a finding saying so.

    ``unscanned``: the severity of a node of an ONNX model the scan could not analyse (its shapes or sizes not
    known, the budget spent): ``"error"`` (the default when ``backend`` is given: CI fails, since nothing was
    checked for that backend) or ``"warning"`` (the default without ``backend``).
    """
    torch_module = _is_torch_module(model)
    training = validate.strict_bool(training, "training")
    budget = _Budget(max_nodes, max_seconds)
    target = Target.of(backend or ("torch" if torch_module else "onnxruntime"), version, device)
    if torch_module:
        if opset is not None:
            opset = validate.opset(opset, minimum=7, hint="the ONNX opset you export with, e.g. 18")
        if exporter is not None and exporter not in EXPORTERS:
            raise ArgumentValueError(f"exporter={exporter!r} is not an exporter of torch.onnx.export; choose one "
                                     f"of: {', '.join(EXPORTERS)} (default: the installed torch's default)")
        calls = interpolate_calls(model, example_inputs)
        nodes = [_scan_torch_call(c, target, training, opset, exporter) for c in calls]
        name = type(model).__name__
    else:
        if opset is not None or exporter is not None:
            raise ArgumentValueError(f"{'opset' if opset is not None else 'exporter'} is read from the ONNX model; "
                                     "pass opset and exporter only when scanning a torch.nn.Module")
        if isinstance(model, (list, dict)) or model is None:
            raise ArgumentTypeError(f"model must be an ONNX model (path, bytes or onnx.ModelProto) or a "
                                    f"torch.nn.Module, got {type(model).__name__}")
        path = str(model) if isinstance(model, (str,)) or hasattr(model, "__fspath__") else "model.onnx"
        if unscanned is None:
            unscanned = "warning" if backend is None else "error"
        if unscanned not in UNSCANNED_CHOICES:
            raise ArgumentValueError(f"unscanned={unscanned!r} is not a severity a scan gives unscanned nodes; "
                                     f"choose one of: {', '.join(UNSCANNED_CHOICES)}")
        proto = load_model(model)
        nodes = [budget.scan(node, lambda n: _scan_onnx_node(n, target, training, path, unscanned))
                 for node in resize_nodes(proto, example_inputs)]
        for scanned in nodes:  # the budget's own findings
            scanned.findings = [_unscanned_severity(f, unscanned) for f in scanned.findings]
        name = path
    return Scan(nodes, target.backend.id, target.version, training, target.device, name)


__all__ = ["Measurement", "Scan", "ScannedNode", "equivalents", "measure", "scan"]
