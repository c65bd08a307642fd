"""Burn's ONNX import in a scan: what each release's code generator makes of a Resize node, measured.

For a Burn backend and an ONNX model, :func:`node_findings` says what the chosen release's import
(:mod:`explorer.advisor.burn_import`: burn-import / onnx-ir / burn-onnx, read in source per release) generates
for the node, measures it against ONNX Runtime's result with the engine on the node's shapes, and does the same
for every other release; then the knowledge base's findings for the imported mode on the chosen backend.
"""

from __future__ import annotations

from .. import burn_import
from ..backend_calls import computation
from ..findings import SEVERITY_ORDER, Finding, Fix, check
from ..node_calls import PresetResize, problem
from ..onnx_resize import ResizeNode
from ..question import Question, Target
from ..scan import asked, lengths_text, measure, measured_away, node_lengths, options_text
from ..snippets import resize_code


def _arithmetic(target: Target) -> str:
    """The Burn arithmetic (the preset's ``backend`` option) the target's backend computes nearest with."""
    question = Question.of(mode="Nearest", backend=target.backend.id, version=target.requested_version)
    return computation(question).options["backend"]


def _burn_call(node: ResizeNode, call: PresetResize, outcome, arithmetic: str) -> PresetResize:
    options = {"backend": arithmetic}
    if outcome.mode != "Nearest":
        options["align_corners"] = True if outcome.align_corners is None else outcome.align_corners
    _, _, _, kept = problem(node.input_shape, node.output_shape,
                            [a for a, s in enumerate(node.scales or ()) if s != 1.0])
    size = burn_import.burn_size(node, kept)
    return PresetResize("burn", outcome.mode, options, call.shape, call.axes, **size)


def node_findings(node: ResizeNode, call: PresetResize, found, target: Target, training: bool,
                  path) -> tuple[list, list]:
    """(findings for the chosen Burn release, the outcome of every release) for one ONNX node."""
    backend, version = target.backend, target.version
    outcomes, releases = _burn_releases(node, call, path, _arithmetic(target))
    era = burn_import.era_for(version)
    outcome, burn, result = outcomes[era.id]
    later = [e for e in burn_import.eras() if e.versions.clauses and _after(e, era)]
    fixed_in = next((e for e in later if outcomes[e.id][2] is not None and outcomes[e.id][2].identical), None)
    burn_equivalent = next((c for c in found if c.library == "burn"), None)
    fixes = _burn_fixes(node, outcome, burn_equivalent, fixed_in, backend, training, version)
    finding = _burn_import_finding(node, call, era, (outcome, burn, result), fixes, backend, f"Burn {version}")
    if outcome.fails:
        return [finding], releases
    backend_findings = _burn_backend_findings(node, call, outcome, target, training)
    return [finding] + (measured_away(backend_findings) if result is not None else backend_findings), releases


def unscanned_findings(node: ResizeNode, target: Target, training: bool, path) -> list[Finding]:
    """What the chosen release's import says of a node whose shapes are not known: its refusals that need no
    shape (an opset, an operator version, an attribute it cannot express), which hold for every node."""
    era = burn_import.era_for(target.version)
    outcome = burn_import.import_node(node, era, path)
    if not outcome.fails:
        return []
    fixes = _burn_fixes(node, outcome, None, None, target.backend, training, target.version)
    return [_burn_import_finding(node, None, era, (outcome, None, None), fixes, target.backend,
                                 f"Burn {target.version}")]


def _burn_releases(node: ResizeNode, call: PresetResize, path, arithmetic) -> tuple[dict, list]:
    """Each Burn import era's outcome for the node: ({era id: (outcome, Burn's call, measurement)}, report rows)."""
    releases, outcomes = [], {}
    for era in burn_import.eras():
        outcome = burn_import.import_node(node, era, path)
        entry = outcome.to_dict()
        burn = result = None
        if not outcome.fails:
            burn = _burn_call(node, call, outcome, arithmetic)
            result = measure(call, burn, "Burn import against ONNX Runtime")
            entry["measurement"] = None if result is None else result.to_dict()
        outcomes[era.id] = (outcome, burn, result)
        releases.append(entry)
    return outcomes, releases


def _burn_import_finding(node, call, era, measured, fixes, backend, where) -> Finding:
    """What the chosen release's ONNX import makes of the node: a panic, the same numbers, or other numbers."""
    outcome, burn, result = measured
    if outcome.fails:
        return Finding(
            severity="error", backend=backend.id, operation="forward", status="fails", error_type="panic",
            error_text=outcome.error_text,
            message=f"{where}'s ONNX import ({era.importer}) stops at this node: it cannot express "
                    f"{_condition_text(outcome.condition, node)}.",
            source=era.source, evidence="source", fixes=fixes)
    ac = "" if outcome.mode == "Nearest" else (
        ", align_corners grid (Burn has no option)" if outcome.align_corners is None
        else f".with_align_corners({str(outcome.align_corners).lower()})")
    head = f"{where} imports this node as InterpolateMode::{outcome.mode}{ac}"
    if outcome.ignored:
        head += "; it ignores " + ", ".join(f"{a}={node.attributes.get(a)}" for a in outcome.ignored)
    if result is None:
        return Finding(
            severity="warning", backend=backend.id, operation="convention", status="unknown",
            message=f"{head}; not measured: one plane of this node exceeds the measuring limit.",
            source=era.source, evidence="source", fixes=fixes)
    lengths = lengths_text(*node_lengths(call))
    if result.identical:
        return Finding(
            severity="info", backend=backend.id, operation="convention", status="supported",
            message=f"{head}: same numbers as ONNX Runtime on {lengths} ({result}).",
            source=era.source, evidence="source")
    if call.scale_factor is not None:
        fixes.extend(_size_instead_of_scale(call, burn, backend))
    return Finding(
        severity="differs", backend=backend.id, operation="convention", status="differs",
        message=f"{head}: it computes other numbers than ONNX Runtime on {lengths} ({result}).",
        source=era.source, evidence="source", fixes=fixes)


def _burn_backend_findings(node, call, outcome, target: Target, training: bool) -> list[Finding]:
    """The knowledge base's findings for the imported Burn mode on the chosen backend, release and device."""
    n, m = node_lengths(call)
    return check(mode=outcome.mode, **asked(target, training), align_corners=outcome.align_corners,
                 spatial_dims=max(1, min(len(n), 4)), scale_factor=node.scales is not None, input_size=n,
                 output_size=m, reference=None)


def _size_instead_of_scale(call: PresetResize, burn: PresetResize, backend) -> list[Fix]:
    """The generated code steps by n/m: when the node with sizes instead of scales is what Burn computes,
    exporting the resize with an explicit size is the fix (measured)."""
    sized = PresetResize(call.library, call.mode, call.options, call.shape, call.axes, size=call.output_lengths())
    result = measure(sized, burn, "the node with sizes against the Burn import")
    if result is None or not result.identical:
        return []
    size = ", ".join(str(m) for m in call.output_lengths())
    return [Fix(description=f"resize by an explicit size in the model (F.interpolate(x, size=({size}), ...)) "
                            "and re-export: ONNX Runtime, PyTorch and the Burn import then all step by n/m "
                            f"({result}); the numbers change from the scale-factor version",
                kind="export", backend=backend.id, mode=call.mode, code=f"F.interpolate(x, size=({size}), ...)",
                language="python")]


def _after(era, current) -> bool:
    eras = burn_import.eras()
    return eras.index(era) > eras.index(current)


def _condition_text(condition: str, node: ResizeNode) -> str:
    a = node.attributes
    texts = {
        "model_opset": f"a model of opset {node.opset}",
        "resize": "Resize at all",
        "upsample": "Upsample (only Resize is imported)",
        "resize_opset": f"Resize-{node.op_version}",
        "antialias": f"antialias={a.get('antialias')}",
        "axes": f"axes={a.get('axes')}",
        "exclude_outside": f"exclude_outside={a.get('exclude_outside')}",
        "extrapolation_value": f"extrapolation_value={a.get('extrapolation_value')}",
        "keep_aspect_ratio_policy": f"keep_aspect_ratio_policy={a.get('keep_aspect_ratio_policy')}",
        "roi": f"a roi input {node.roi}",
        "mode_missing": "a node without a mode attribute",
        "mode_unknown": f"mode={a.get('mode')!r}",
        "no_scales_or_sizes": "a node with neither scales nor sizes",
        "runtime_sizes": "sizes computed at run time",
        "runtime_scales": "scales computed at run time",
        "rank": f"a rank-{node.rank} input (only 3 and 4)",
    }
    return texts.get(condition, condition)


def _burn_fixes(node, outcome, burn_equivalent, fixed_in, backend, training, version) -> list[Fix]:
    fixes = []
    if burn_equivalent is not None and (outcome.fails or outcome.mode != burn_equivalent.mode
                                        or outcome.align_corners != burn_equivalent.options.get("align_corners")):
        mode = burn_equivalent.mode
        try:
            setup = Question.of(mode=mode, backend=backend.id, version=version,
                                align_corners=burn_equivalent.options.get("align_corners"))
            language, code = resize_code(setup, burn_equivalent.output_lengths())
        except ValueError:
            language, code = "rust", ""
        caveat = ""
        try:
            problems = [f for f in check(mode=mode, backend=backend.id, training=training, version=version,
                                         align_corners=burn_equivalent.options.get("align_corners"),
                                         reference=None)
                        if f.severity in ("error", "differs") and f.operation != "double_backward"]
        except ValueError:
            problems = []
        problems.sort(key=lambda f: SEVERITY_ORDER[f.severity])
        if problems:
            caveat = f"; but on {backend.id} {version}: {problems[0].message}"
        options = {k: v for k, v in burn_equivalent.options.items() if k != "backend"}
        fixes.append(Fix(description=f"replace the generated call for this node by InterpolateMode::{mode}"
                                     f"{options_text(options)}: it computes this node's weights{caveat}",
                         kind="mode", backend=backend.id, mode=mode, code=code, language=language))
    if fixed_in is not None:
        fixes.append(Fix(description=f"upgrade Burn to {fixed_in.versions} ({fixed_in.importer}): its import "
                                     "computes this node as ONNX Runtime does", kind="version",
                         backend=backend.id, mode=outcome.mode or "", code="", language="toml"))
    if outcome.fails and outcome.condition in ("antialias", "exclude_outside", "axes", "keep_aspect_ratio_policy",
                                               "extrapolation_value", "roi"):
        fixes.append(Fix(description=f"export the model without {_condition_text(outcome.condition, node)} "
                                     "(e.g. antialias=False in F.interpolate) and re-scan: the numbers change, "
                                     "measure them with explorer.suggest_fixes", kind="export",
                         backend=backend.id, mode=node.mode, code="", language="python"))
    if outcome.fails and outcome.condition in ("model_opset", "resize_opset", "upsample"):
        fixes.append(Fix(description="re-export the model at opset 16 or later (torch.onnx.export(..., "
                                     "opset_version=18)) so the node is a Resize-13/18 node", kind="export",
                         backend=backend.id, mode=node.mode, code="", language="python"))
    return fixes
