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
from .findings import SEVERITY_ORDER, Finding, check
from .node_calls import PresetResize, measurable, onnx_call, plans_agree, problem
from .onnx_resize import ResizeNode, load_model, resize_nodes
from .question import Target
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

    @property
    def identical(self) -> bool:
        return self.output_shape_a == self.output_shape_b and self.max_abs is not None and \
            self.max_abs <= _SIZE_ATOL

    def __str__(self):
        if self.output_shape_a != self.output_shape_b:
            return f"{self.what}: output {self.output_shape_b} instead of {self.output_shape_a}"
        if self.identical:
            return f"{self.what}: identical (max difference {self.max_abs:.2g})"
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
                "imports": [_plain(b) for b in self.imports], "location": self.location}


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

    def table(self) -> str:
        """One line per node: name, op, shapes, mode and the most severe finding."""
        rows = [("node", "op", "opset", "input -> output", "mode", "equivalents", "worst")]
        for n in self:
            shapes = f"{_shape_text(n.input_shape)} -> {_shape_text(n.output_shape)}"
            mode = _mode_text(n.attributes)
            libraries = sorted({e["library"] for e in n.equivalents}, key=_library_order)
            rows.append((printable(n.node, 60), n.op_type, "" if n.opset is None else str(n.opset), shapes, mode,
                         ",".join(libraries) or "none", n.severity or "-"))
        widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
        return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)

    def __str__(self):
        what = "training" if self.training else "inference"
        version = f" {self.version}" if self.version else ""
        lines = [(f"{printable(self.model)}: {len(self)} resize(s); {self.backend}{version} ({what}), "
                 f"{self.errors} error(s)"), "", self.table()]
        for n in self:
            lines.append("")
            where = f", {printable(n.location)}" if n.location else ""
            lines.append(f"{printable(n.node)} ({n.op_type}{where}): {_mode_text(n.attributes)}")
            for library in sorted({e["library"] for e in n.equivalents}, key=_library_order):
                e = n.equivalent_in(library)
                lines.append(f"  = {library} {e['mode']}{options_text(e['options'])}")
            if not n.equivalents:
                lines.append("  = no library preset computes these weights")
            for f in n.findings:
                lines.append("  - " + "\n    ".join(printable(part, None) for part in str(f).split("\n")))
                for fix in f.fixes:
                    lines.append(f"      fix: {fix}")
                    lines.extend("        " + line for line in fix.code.splitlines())
        return "\n".join(lines)


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
    found.sort(key=lambda c: _library_order(c.library))
    return found


def _family(reference: PresetResize, found: list[PresetResize]) -> str:
    """The mode family of the node's computation ('nearest' when torch nearest computes it, ...)."""
    torch_modes = [c.mode for c in found if c.library == "torch"]
    for mode in torch_modes:
        return mode_family("torch", mode)
    return mode_family(reference.library, reference.mode)


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
                     reference: str) -> list[Finding]:
    """Findings for a backend the user writes the resize for by hand: its equivalent, or the family."""
    library = backend.names
    match = next((c for c in found if library is not None and c.library == library), None)
    out = []
    spatial = max(1, min(len(n), 4))
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
    found_here = check(mode=mode, **fields, align_corners=align_corners, antialias=antialias, spatial_dims=spatial,
                       scale_factor=scale_factor, input_size=n, output_size=m, reference=reference)
    out.extend(measured_away(found_here) if match is not None else found_here)
    return out


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
    diff = np.abs(y_a.astype(np.float64) - y_b.astype(np.float64))
    return Measurement(what, tuple(out_a), tuple(out_b), float(diff.max(initial=0.0)),
                       float(np.mean(diff > _SIZE_ATOL)))


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
            tuple(sorted(node.sources.items())), node.problem, node.readable)


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
            return _unanalysed(node, f"node {printable(node.name)!r} was not analysed: {spent} was spent on the "
                                     "nodes before it; scan a smaller model or raise the limit", "unknown")
        self.analysed += 1
        self.done[key] = scanned = analyse(node)
        return scanned


def _renamed(scanned: ScannedNode, node: ResizeNode) -> ScannedNode:
    """A copy of another node's analysis for ``node`` (same facts, its own name and place)."""
    out = copy.deepcopy(scanned)
    out.node, out.location, out.source = node.name, node.graph, node
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


def _scan_onnx_node(node: ResizeNode, target: Target, training: bool, path) -> ScannedNode:
    """One node's analysis; whatever goes wrong in it is a finding on that node, never the end of the scan."""
    if node.problem is not None:
        if not node.readable:
            found = _unanalysed(node, f"not scanned: {node.problem}", "unknown")
        else:
            found = _unanalysed(node, f"ONNX Runtime rejects this node: {node.problem}", "fails", "error")
        found.findings[0].backend = target.backend.id
        return found
    try:
        return _analyse_onnx_node(node, target, training, path)
    except Exception as exc:  # noqa: BLE001 - one node's analysis never stops the others (reported on the node)
        found = _unanalysed(node, f"not scanned: node {printable(node.name)!r} could not be analysed "
                                  f"({type(exc).__name__}: {printable(exc)})", "unknown")
        found.findings[0].backend = target.backend.id
        return found


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
    n, m = node_lengths(call)
    imports = importer(backend.runtime)
    if backend.declared is not None and backend.declared.runs_nodes:  # ONNX Runtime, TensorRT: the node as written
        scanned.findings = _node_as_written(node, call, target, training)
    elif imports is not None:
        scanned.findings, scanned.imports = imports.node_findings(node, call, found, target, training, path)
    else:
        scanned.findings = _preset_findings(backend, _family(call, found), found, n, m, asked(target, training),
                                            call.scale_factor, "onnxruntime")
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


def _scan_torch_call(c: InterpolateSite, target: Target, training: bool, opset) -> ScannedNode:
    """One interpolate call's analysis; a failure in it is a finding on that call, never the end of the scan."""
    try:
        return _analyse_torch_call(c, target, training, opset)
    except Exception as exc:  # noqa: BLE001 - one call's analysis never stops the others (reported on the call)
        scanned = ScannedNode(node=c.name, op_type=c.op, opset=opset, attributes=c.attributes,
                              input_shape=c.input_shape, output_shape=c.output_shape, source=c,
                              location=c.location or c.module)
        scanned.findings.append(Finding(
            severity="warning", backend=target.backend.id, operation="forward", status="unknown", mode=c.mode,
            message=f"not scanned: call {printable(c.name)!r} could not be analysed ({type(exc).__name__}: "
                    f"{printable(exc)})", source="explorer.advisor.torch_resize", evidence="measured"))
        return scanned


def _analyse_torch_call(c: InterpolateSite, target: Target, training: bool, opset) -> ScannedNode:
    scanned = ScannedNode(node=c.name, op_type=c.op, opset=opset, attributes=c.attributes,
                          input_shape=c.input_shape, output_shape=c.output_shape, source=c,
                          location=c.location or c.module)
    call = _torch_reference(c)
    found = equivalents(call)
    scanned.equivalents = [e.describe() for e in found]
    n, m = node_lengths(call)
    scanned.findings = _preset_findings(target.backend, _family(call, found), found, n, m, asked(target, training),
                                        c.scale_factor, "torch")
    if opset is not None:  # what each exporter of torch.onnx.export does with the call at that opset
        for exporter in ("onnx-dynamo", "onnx-torchscript"):
            export = check(mode=c.mode, backend="torch", training=False, align_corners=c.align_corners,
                           antialias=c.antialias, spatial_dims=len(n), export=exporter, opset=opset,
                           scale_factor=c.scale_factor, input_size=n, output_size=m)
            scanned.findings.extend(f for f in export if f.operation == "export_onnx")
    scanned.findings.sort(key=lambda f: SEVERITY_ORDER[f.severity])
    return scanned


def _is_torch_module(model) -> bool:
    for cls in type(model).__mro__:
        if cls.__module__.startswith("torch.nn") and cls.__name__ == "Module":
            return True
    return False


def scan(model, example_inputs=None, backend=None, training=False, version=None, device=None,
         opset=None, *, max_nodes=None, max_seconds=None) -> Scan:
    """Every resize in ``model`` with its equivalents and the findings for ``backend``.

    ``model`` is an ONNX model (a path, the file's bytes or an ``onnx.ModelProto``) or a ``torch.nn.Module``
    (then ``example_inputs``, a tuple of tensors, is required).  For an ONNX model ``example_inputs`` fixes the
    graph inputs' shapes (dict name -> shape or array, or a sequence in input order) when they are dynamic;
    its opset is read from the file.  For a module, ``opset`` adds what ``torch.onnx.export`` at that opset
    does.  ``backend``: any id of :func:`explorer.backends` (default ``onnxruntime`` for an ONNX model,
    ``torch`` for a module); ``version``, ``device`` and ``training`` as in :func:`explorer.check`.

    A model is untrusted input: one node that cannot be read or analysed is a finding on that node and the
    others are scanned; nodes alike (attributes, shapes, sizes) are analysed once; at most ``max_nodes``
    distinct nodes are analysed, for at most ``max_seconds`` (:data:`~explorer.limits.SCAN_MAX_NODES`,
    :data:`~explorer.limits.SCAN_MAX_SECONDS`), and the nodes past the budget get a warning saying so.
    """
    torch_module = _is_torch_module(model)
    training = validate.strict_bool(training, "training")
    budget = _Budget(max_nodes, max_seconds)
    target = Target.of(backend or ("torch" if torch_module else "onnxruntime"), version, device)
    if torch_module:
        if opset is not None:
            opset = validate.opset(opset, minimum=7, hint="the ONNX opset you export with, e.g. 18")
        calls = interpolate_calls(model, example_inputs)
        nodes = [_scan_torch_call(c, target, training, opset) for c in calls]
        name = type(model).__name__
    else:
        if opset is not None:
            raise ArgumentValueError("opset is read from the ONNX model; pass opset only when scanning a "
                                     "torch.nn.Module")
        if isinstance(model, (list, dict)) or model is None:
            raise ArgumentTypeError(f"model must be an ONNX model (path, bytes or onnx.ModelProto) or a "
                                    f"torch.nn.Module, got {type(model).__name__}")
        path = str(model) if isinstance(model, (str,)) or hasattr(model, "__fspath__") else "model.onnx"
        proto = load_model(model)
        nodes = [budget.scan(node, lambda n: _scan_onnx_node(n, target, training, path))
                 for node in resize_nodes(proto, example_inputs)]
        name = path
    return Scan(nodes, target.backend.id, target.version, training, target.device, name)


__all__ = ["Measurement", "Scan", "ScannedNode", "equivalents", "measure", "scan"]
