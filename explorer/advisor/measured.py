"""Findings measured by the probe: a question answered from the committed matrix's cells of the release it asks about.

The matrix (``explorer/advisor/data/matrix/``, written by ``python -m explorer.probe``; read by
:mod:`explorer.advisor.matrix_data`) holds one file per runtime release.  :data:`MEASURED_RUNTIMES` names the
matrix runtime that ran each backend's own call (``torch`` eager, ``tensorflow``, ``jax``, the three Keras
backends, LiteRT's two kernel sets, MLX); ``export="onnx"`` on ``torch`` reads the ``torch-onnx`` cells of the
question's exporter and opset, ``export="coreml"`` the ``coremltools`` cells (ML program target) of the
``converter_version`` asked (the newest measured when none).  A cell answers the question when its call is the computation the backend makes
of the question (:func:`explorer.advisor.backend_calls.computation`: the same library, mode and options, defaults
filled in), in the question's dtype and number of spatial axes (and, where the matrix has both, by a scale
factor or by a size as the question says), on the CPU (a question about another device gets none).  A
question about a Resize node on an ONNX runtime (:data:`ONNX_RUNTIMES`) is answered from the one-node models
with its ONNX mode and exactly the attributes it sets, its dtype, rank and (when given) opset; their outputs
were compared with the explorer's computation of the node (ONNX Runtime's CPU arithmetic).

:func:`measured_findings` gives, for a measured release, one finding on the forward (or the export) and, when
training, one on the gradient, each with ``evidence="measured"`` and the release file as its source: ``error``
with the runtime's exact text when every matching cell fails, ``differs`` when a cell's output differs from the
explorer's computation, ``warning`` when some configurations fail and others run, ``info`` when every cell runs
and agrees (what it equals).  A release the matrix has no file for gets none: the knowledge base's records
(cited) answer alone.

>>> from explorer.advisor.question import Question
>>> [f.severity for f in measured_findings(Question.of(mode="bilinear", backend="torch", dtype="float16",
...                                                    antialias=True, training=False))]
['error']
"""

from __future__ import annotations

import functools

from ..conventions.library_resize import resolve
from .backend_calls import computation
from .findings import Finding
from .matrix_data import LazyMatrix
from .question import Question

#: backend id -> the matrix runtime whose cells are that backend's own call
MEASURED_RUNTIMES = {"torch": "torch", "tensorflow": "tensorflow", "jax": "jax", "keras-tensorflow": "keras-tensorflow",
                     "keras-jax": "keras-jax", "keras-torch": "keras-torch", "litert": "litert",
                     "litert-builtin": "litert", "mlx": "mlx"}
#: backend id -> the matrix runtime that ran one-node ONNX models on it (a question about a Resize node)
ONNX_RUNTIMES = {"onnxruntime": "onnxruntime", "openvino-onnx": "openvino", "tinygrad-onnx": "tinygrad",
                 "opencv-dnn": "opencv-dnn", "ncnn": "ncnn", "mnn": "mnn", "tvm-relax": "tvm"}
ONNX_EXPORTS = ("onnx", "onnx-dynamo", "onnx-torchscript")
AGREES = ("exact", "close")


@functools.cache
def committed_matrix():
    """The committed matrix, each release file read once per process when first asked about (check() asks it
    for every call it judges)."""
    return LazyMatrix()


def _normal(options: dict) -> dict:
    """Options with None read as False (PyTorch's ``align_corners=None`` computes ``False``'s numbers)."""
    return {k: (False if v is None else v) for k, v in options.items()}


def _call_key(library, mode, options):
    try:
        _, native, opts = resolve(library, mode, dict(options))
    except Exception:  # noqa: BLE001 - a call the library does not take matches nothing
        return None
    return library, native, tuple(sorted(_normal(opts).items()))


def matrix_runtime(setup: Question) -> str | None:
    """The matrix runtime that measured this question's call (None: the backend is not measured)."""
    if setup.backend.id == "torch" and setup.export in ONNX_EXPORTS:
        return "torch-onnx"
    if setup.backend.id == "torch" and setup.export == "coreml":
        return "coremltools"
    return MEASURED_RUNTIMES.get(setup.backend.id) or ONNX_RUNTIMES.get(setup.backend.id)


def _same_release(version: str, release: str) -> bool:
    """A knowledge-base release and a matrix file's (``5.0.0`` / ``5.0.0.93``, ``20260526`` / ``1.0.20260526``,
    ``0.27.0`` / ``0.27.0.post1``)."""
    return release == version or release.startswith(version + ".") or release == "1.0." + version


def measured_release(setup: Question, runtime: str, matrix) -> str | None:
    """The release of ``runtime`` the question asks about: the backend's release, or for a Core ML conversion
    the coremltools release (``converter_version``; the newest measured when not given)."""
    if runtime == "coremltools":
        return setup.converter_version or matrix.current(runtime)
    if setup.backend.id in ONNX_RUNTIMES:
        return next((r for r in matrix.release_list(runtime) if _same_release(setup.version, r)), setup.version)
    return setup.version


def matching_cells(setup: Question, matrix=None) -> tuple[str | None, list]:
    """``(matrix runtime, cells)`` answering the question for its release (no cells: not measured)."""
    runtime = matrix_runtime(setup)
    if runtime is None or setup.device not in (None, "cpu"):  # the probe runs on the CPU
        return runtime, []
    matrix = committed_matrix() if matrix is None else matrix
    release = measured_release(setup, runtime, matrix)
    if (runtime, release) not in matrix.releases:
        return runtime, []
    if setup.backend.id in ONNX_RUNTIMES:
        return runtime, _node_cells(setup, matrix.release_cells(runtime, release))
    try:
        call = computation(setup)
    except Exception:  # noqa: BLE001 - a question no library models is not in the matrix
        return runtime, []
    want = _call_key(call.library, call.mode, call.options)
    if want is None:
        return runtime, []
    cells = []
    for cell in matrix.release_cells(runtime, release):
        case = cell.case
        if case.get("dtype") != setup.dtype or "library" not in case or len(case.get("axes", ())) != setup.spatial_dims:
            continue
        if case.get("variant"):  # compiled by XLA, or a second derivative: not the eager call asked about
            continue
        if runtime == "torch-onnx" and (case.get("exporter") != setup.exporter or case.get("opset") != setup.opset):
            continue
        if runtime == "coremltools" and case.get("target") != "mlprogram":  # ct.convert's default target
            continue
        if _call_key(case["library"], case["mode"], case["options"]) == want:
            cells.append(cell)
    by_scale = [c for c in cells if (c.case.get("scale_factor") is not None) == bool(setup.scale_factor)]
    return runtime, (by_scale or cells)


def _node_cells(setup: Question, cells) -> list:
    """The one-node ONNX cells of a question about a Resize node: its ONNX mode, the attributes it sets (exactly),
    dtype, number of spatial axes of an (N, C, *spatial) input and, when given, opset."""
    attributes = dict(setup.attributes)
    out = []
    for cell in cells:
        case = cell.case
        if case.get("kind") != "onnx" or case.get("op") != "Resize" or case.get("mode") != setup.mode:
            continue
        if case.get("dtype") != setup.dtype or case.get("attributes", {}) != attributes:
            continue
        if setup.opset is not None and case.get("opset") != setup.opset:
            continue
        if any(tag in case["id"] for tag in ("/nhwc-", "/rank2-")) or len(case["input_shape"]) - 2 != setup.spatial_dims:
            continue
        out.append(cell)
    return out


def _source(matrix, runtime, release) -> str:
    prov = matrix.provenance(runtime, release)
    return (f"explorer/advisor/data/matrix/{runtime}-{release}.json (measured {prov.get('date', '')[:10]} by "
            f"`{prov.get('command', 'python -m explorer.probe')}`)")


def _geometry(cell) -> str:
    return cell.case["id"].rsplit("/", 1)[-1]


def _agreement(cells, matrix, library: str) -> str:
    """How the cells agree, and the conventions every one of them equals (``library``'s own first)."""
    exact = sum(c.verdict == "exact" for c in cells)
    equals = set.intersection(*(set(matrix.equals(c)) for c in cells)) if all(c.outcome.get("equals") for c in cells) \
        else set()
    text = f"{exact} exact, {len(cells) - exact} within the dtype's rounding"
    if equals:
        text += "; equal to " + ", ".join(sorted(equals, key=lambda e: (not e.startswith(library + ":"), e))[:4])
    return text


def _op_text(op: dict) -> str:
    """A converted op with its flags (booleans and strings; not its scales or sizes): ``upsample_bilinear
    (align_corners=False)``."""
    flags = [f"{k}={v}" for k, v in op.get("inputs", {}).items() if isinstance(v, (bool, str))]
    return op["op"] + (f"({', '.join(flags)})" if flags else "")


def _forward_finding(setup, runtime, cells, matrix, common) -> Finding:
    what = {"torch-onnx": "the export", "coremltools": "the conversion"}.get(runtime, "the call")
    if setup.backend.id in ONNX_RUNTIMES:
        what = "the node"
    converted = [c for c in cells if c.status == "skipped" and c.outcome.get("converted")]
    ran = [c for c in cells if c.status == "ok"] + converted
    failed = [c for c in cells if c.status not in ("ok", "skipped")]
    operation = {"torch-onnx": "export_onnx", "coremltools": "export_coreml"}.get(runtime, "forward")
    release = common["versions"].split(" ", 1)[1]
    kind = "node" if setup.backend.id in ONNX_RUNTIMES else "call"
    geometries = sorted({_geometry(c) for c in cells})
    shown = ", ".join(geometries[:6]) + (f", … {len(geometries) - 6} more" if len(geometries) > 6 else "")
    head = f"Measured on {runtime} {release}, CPU ({len(cells)} configuration(s) of this {kind}: {shown})"
    if failed and not ran:
        first = failed[0].outcome
        stage = first.get("stage") or "run"
        return Finding("error", f"{head}: {what} fails at its {stage} stage in every one.",
                       error_text=first.get("error"), error_type=first.get("error_type"),
                       status="fails", operation=operation, **common)
    differs = [c for c in ran if c.status == "ok" and c.verdict not in AGREES]
    if failed:
        first = failed[0].outcome
        names = ", ".join(_geometry(c) for c in failed)
        return Finding("warning", f"{head}: {what} fails in {len(failed)} ({names}) and runs in {len(ran)}.",
                       error_text=first.get("error"), error_type=first.get("error_type"),
                       status="fails", operation=operation, **common)
    if differs:
        worst = max((c.outcome.get("max_abs_diff") for c in differs if isinstance(c.outcome.get("max_abs_diff"),
                                                                                    float)), default=None)
        by = f" by up to {worst:.3g}" if worst is not None else ""
        return Finding("differs", f"{head}: the output differs from the explorer's computation of the {kind} in "
                                  f"{len(differs)}{by} ({', '.join(_geometry(c) for c in differs)}).",
                       status="differs", operation=operation, **common)
    if converted and len(converted) == len(ran):  # conversion only (Core ML prediction needs macOS)
        ops = sorted({" + ".join(_op_text(o) for o in c.outcome["converted"].get("mil", []) if o["op"] != "cast")[:160]
                      for c in converted})
        return Finding("info", f"{head}: {what} succeeds in every one; it becomes {'; '.join(ops)} (the MIL "
                               "operations; not run here).", status="supported", operation=operation, **common)
    agreement = _agreement(ran, matrix, setup.backend.id.split("-")[-1])
    return Finding("info", f"{head}: {what} runs and computes what the explorer computes ({agreement}).",
                   status="supported", operation=operation, **common)


def _gradient_finding(runtime, cells, common) -> Finding | None:
    trained = [c for c in cells if c.status == "ok" and (c.outcome.get("gradient_verdict")
                                                         or c.outcome.get("gradient_error"))]
    if not trained:
        return None
    head = f"Measured on {runtime} {common['versions'].split(' ', 1)[1]}, CPU, the gradient ({len(trained)} configuration(s))"
    failed = [c for c in trained if c.outcome.get("gradient_error")]
    if failed:
        first = failed[0].outcome["gradient_error"]
        severity = "error" if len(failed) == len(trained) else "warning"
        return Finding(severity, f"{head}: the backward fails in {len(failed)} of {len(trained)}.",
                       error_text=first.get("error"), error_type=first.get("error_type"), status="fails",
                       operation="backward", **common)
    differs = [c for c in trained if c.outcome.get("gradient_verdict") not in AGREES]
    if differs:
        return Finding("differs", f"{head}: differs from the transpose of the explorer's forward in "
                                  f"{len(differs)} ({', '.join(c.outcome['gradient_verdict'] for c in differs)}).",
                       status="differs", operation="backward", **common)
    return Finding("info", f"{head}: equals the transpose of the explorer's forward in every one.", status="supported",
                   operation="backward", **common)


def measured_findings(setup: Question, matrix=None) -> list[Finding]:
    """The measured findings for the question's release (empty when the matrix has not measured it)."""
    matrix = committed_matrix() if matrix is None else matrix
    runtime, cells = matching_cells(setup, matrix)
    if not cells:
        return []
    release = measured_release(setup, runtime, matrix)
    common = {"source": _source(matrix, runtime, release), "backend": setup.backend.id, "mode": setup.mode,
              "evidence": "measured", "versions": f"{runtime} {release}"}
    out = [_forward_finding(setup, runtime, cells, matrix, common)]
    if setup.training and runtime not in ("torch-onnx", "coremltools"):
        gradient = _gradient_finding(runtime, cells, common)
        if gradient is not None:
            out.append(gradient)
    return out
