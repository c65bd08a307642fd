"""``lint``: find every resize call in a codebase and report the ones that fail or differ on a backend.

Python is parsed (``python.py``), Rust lexed (``rust.py``), configuration files tokenised (``config.py``); each
site is judged by its own library's rules through :func:`~explorer.advisor.check` (``judge.py``).  Findings
that depend on what the code does not say are conditions, summarised once per run.  Inline suppressions and
a baseline file (``suppress.py``) keep CI green on accepted findings; ``report.py`` writes text, JSON, SARIF or
GitHub annotations.

>>> import pathlib, tempfile
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> _ = (root / "model.rs").write_text("let o = InterpolateOptions::new(InterpolateMode::NearestExact);\\n")
>>> _ = (root / "notes.py").write_text("# InterpolateOptions::new(InterpolateMode::NearestExact)\\n")
>>> report = lint(root, backend="burn-tch")
>>> sorted(i.rule for i in report if i.severity == "error")
['burn-tch-nearest-exact-backward', 'burn-tch-nearest-exact-forward']
>>> {(i.site.path, i.site.line) for i in report}
{('model.rs', 1)}
>>> report.exit_status
1
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from ... import reading, validate
from ...errors import choice_error
from ...limits import MAX_MODEL_BYTES
from ..findings import SEVERITY_ORDER
from ..scan import scan
from . import files, overrides, rust, suppress
from .config import read_config
from .judge import Condition, Issue, Judge, Question
from .python import (
    calls_any,
    imported_modules,
    model_callers,
    module_name,
    project_reexports,
    read_python,
    wrapper_of,
)
from .rust import lex, read_rust
from .sites import Arg, Site, snippet_of

LintIssue = Issue
READERS = {"python": read_python, "rust": read_rust, "config": read_config}
#: What a finding's severity means for the run: error findings fail it (exit status 1).
FAILING = ("error",)


@dataclass
class Suppressed:
    issue: Issue
    reason: str
    line: int


class LintReport(list):
    """The issues of a run (a list, most severe first per file), and what else the run saw.

    ``conditions``: findings that depend on what the code does not say, with their sites; ``skipped``: files
    that could not be read; ``suppressed`` / ``baselined``: findings accepted inline or by the baseline;
    ``hidden``: issues below ``min_severity``; ``not_judged``: sites of a library other than the backend's
    that cannot be ported (Burn code linted for ``torch``).
    """

    def __init__(self, issues=(), **kwargs):
        super().__init__(issues)
        self.question: Question | None = kwargs.get("question")
        self.root: str = kwargs.get("root", "")
        self.files: int = 0
        self.sites: list[Site] = []
        self.conditions: list[Condition] = []
        self.skipped: list[files.Skipped] = []
        self.suppressed: list[Suppressed] = []
        self.baselined: list[Issue] = []
        self.hidden: list[Issue] = []
        self.unsuppressable: list[Issue] = []
        self.not_judged: list[Site] = []

    @property
    def errors(self) -> list[Issue]:
        return [i for i in self if i.severity in FAILING]

    @property
    def exit_status(self) -> int:
        """0: no error finding; 1: at least one (usage errors are 2, raised before a report exists)."""
        return 1 if self.errors else 0

    def fingerprints(self) -> list[tuple]:
        """Baseline entries for the findings shown (and the ones already in the baseline)."""
        return [suppress.fingerprint(i.site.path, i.rule, i.site.snippet) for i in [*self, *self.baselined]
                if SEVERITY_ORDER[i.severity] <= SEVERITY_ORDER["warning"]]


def lint(path, backend: str, training: bool | None = None, version=None, device=None,
         min_severity: str = "warning", reference: str | None = "torch", *, export=None, opset=None,
         dtype="float32", deterministic: bool = False, converter_version=None, include=(), exclude=(),
         baseline=None) -> LintReport:
    """Every risky resize call under ``path`` (a file or a directory) for ``backend``.

    ``training`` defaults to True, or False when ``export`` is given (an exported model runs inference).
    ``version``, ``device``, ``export``, ``opset``, ``dtype``, ``deterministic``, ``converter_version`` and
    ``reference`` are :func:`~explorer.advisor.check`'s options.  ``include``/``exclude`` are globs on paths relative to
    ``path`` (``tests``, ``*.json``, ``src/gen/*``).  ``baseline`` is a file written by ``lint --write-baseline``:
    the findings it lists do not fail the run.  Paths in the report are relative to ``path``.
    """
    if not isinstance(min_severity, str) or min_severity not in SEVERITY_ORDER:
        raise choice_error("min_severity", min_severity, SEVERITY_ORDER)
    training = validate.strict_bool(training, "training", allow_none=True)
    question = Question.of(backend, training=training, version=version, device=device, export=export,
                           opset=opset, dtype=dtype, deterministic=deterministic, reference=reference,
                           converter_version=converter_version)  # a clear error before anything is read
    judge = Judge(question)
    known = suppress.read_baseline(baseline) if baseline is not None else None
    root = Path(path) if not isinstance(path, str) or path.strip() else path
    report = LintReport(question=question, root=str(root))
    limit = SEVERITY_ORDER[min_severity]
    conditions: dict = {}
    tree = root if files.is_directory(root) else None  # reads stay inside a linted directory
    texts = []  # (relative, reader, text) of every source, parsed once all are read
    for file, relative, reader in files.walk(root, include, exclude, report.skipped):
        report.files += 1
        try:
            if reader == "onnx":
                _scan_model(file, relative, judge, report, conditions, limit, known, tree)
                continue
            text = _read_text(file, relative, reader, report, tree)
        except Exception as exc:  # noqa: BLE001 - one file never aborts the run: it is skipped, with the reason
            _skip(report, relative, exc)
            continue
        if text is not None:
            texts.append((relative, reader, text))
    reexports = project_reexports([(r, t) for r, kind, t in texts if kind == "python"])
    read = []   # (relative, reader, text, sites) of every source, judged once all are read
    for relative, reader, text in texts:
        try:
            sites = _parse_sites(text, relative, reader, report, reexports)
        except Exception as exc:  # noqa: BLE001 - as above
            _skip(report, relative, exc)
            continue
        read.append((relative, reader, text, sites))
    read = _follow_wrappers(read, reexports)
    read = _follow_rust_wrappers(read)
    read = _follow_model_callers(read, reexports)
    _mark_uncalled(read)
    found = overrides.overridden([s for *_, sites in read for s in sites],
                                 [(r, kind, t) for r, kind, t, _ in read if kind in ("python", "config")])
    for relative, reader, text, sites in read:
        try:
            _judge_file(reader, text, overrides.apply(found, sites), judge, report, conditions, limit, known)
        except Exception as exc:  # noqa: BLE001 - as above
            _skip(report, relative, exc)
    report.conditions = list(conditions.values())
    report.sort(key=lambda i: (i.site.path, i.site.line, SEVERITY_ORDER[i.severity], i.rule))
    return report


def _skip(report: LintReport, relative: str, exc: Exception) -> None:
    report.skipped.append(files.Skipped(relative, f"the linter failed on it ({type(exc).__name__}: "
                                                  f"{reading.printable(exc)})"))


def _judge_file(reader: str, text: str, sites: list, judge: Judge, report: LintReport, conditions: dict,
                limit: int, known) -> None:
    """One file's sites, judged and filed into the report (every site is judged before anything is filed, so a
    file the linter fails on halfway leaves the report as it was: the caller reports it as skipped)."""
    if not sites:
        return
    comments = _comments(reader, text)
    verdicts = [(site, judge.judge(site)) for site in sites]
    for site, verdict in verdicts:
        site.extra.pop("wrapper", None)
        site.extra.pop("mode_map", None)
        site.extra.pop("named_context", None)
        report.sites.append(site)
        if not verdict.judged:
            report.not_judged.append(site)
            continue
        _add_conditions(conditions, verdict, site)
        for issue in verdict.issues:
            _file_issue(report, issue, site, comments, limit, known)


def _read_text(file, relative: str, reader: str, report: LintReport, tree=None) -> str | None:
    """The text of one source file; a file that cannot be read is reported as skipped (None)."""
    try:
        return files.read_text(file, root=tree, python=reader == "python")
    except OSError as exc:
        report.skipped.append(files.Skipped(relative, str(exc)))
        return None


def _parse_sites(text: str, relative: str, reader: str, report: LintReport, reexports=None) -> list:
    """The resize sites of one source; a file that cannot be parsed is reported as skipped."""
    try:
        if reader == "python":
            return read_python(text, relative, reexports=reexports)
        return READERS[reader](text, relative)
    except SyntaxError as exc:
        report.skipped.append(files.Skipped(relative, f"Python cannot parse it (line {exc.lineno}: "
                                                      f"{reading.printable(exc.msg)})"))
    except (RecursionError, MemoryError, ValueError) as exc:
        report.skipped.append(files.Skipped(relative, f"cannot be read as {reader} ({type(exc).__name__})"))
    return []


#: How many levels of project wrappers are followed (a block that passes its mode to a wrapper is one more).
WRAPPER_LEVELS = 4


def _follow_wrappers(read: list, reexports=None) -> list:
    """Python sources read again with the project's wrappers of a known call: a function whose parameter is
    the mode of a resize call it makes is an API of its own, and its calls are sites; a function that passes
    its parameter on to a wrapper is one too (up to :data:`WRAPPER_LEVELS` levels: keras-unet-collection's
    ``unet_2d -> unet_2d_base -> UNET_right -> decode_layer -> UpSampling2D``)."""
    wrappers: dict = {}
    for _ in range(WRAPPER_LEVELS):
        found_now = {}
        for relative, reader, _, sites in read:
            for site in sites:
                found = wrapper_of(site) if reader == "python" else None
                if found:
                    found_now.setdefault((found[0], module_name(relative)), found[1])
        new = {name for (name, module), api in found_now.items()
               if (module, api.name) not in {(m, a.name) for m, a in wrappers.get(name, ())}}
        if not new:
            break
        wrappers = {}
        for (name, module), api in found_now.items():
            wrappers.setdefault(name, []).append((module, api))
        out = []
        for relative, reader, text, sites in read:
            if reader == "python" and calls_any(text, new):  # read again with every wrapper known so far
                try:
                    sites = read_python(text, relative, wrappers, reexports)
                except (SyntaxError, RecursionError, MemoryError, ValueError):
                    pass  # reported as skipped when it was first read
            out.append((relative, reader, text, sites))
        read = out
    return read


def _follow_rust_wrappers(read: list) -> list:
    """Rust sources read again with the project's wrappers of a Burn construction (one level): a function whose
    parameter is the mode of an ``InterpolateOptions`` or ``Interpolate2dConfig`` it builds; its calls are
    sites with the mode they pass."""
    wrappers: dict = {}
    for _, reader, _, sites in read:
        for site in sites:
            found = rust.wrapper_of(site) if reader == "rust" else None
            if found:
                wrappers.setdefault(found[0], []).append(found[1])
    if not wrappers:
        return read
    out = []
    for relative, reader, text, sites in read:
        if reader == "rust" and rust.calls_any(text, wrappers):
            try:
                sites = read_rust(text, relative, wrappers)
            except (RecursionError, MemoryError, ValueError):
                pass  # reported as skipped when it was first read
        out.append((relative, reader, text, sites))
    for _, _, _, sites in out:
        for site in sites:
            site.extra.pop("rust_wrapper", None)
    return out


def _mark_uncalled(read: list) -> None:
    """Sites in a module-level function that no file of the tree names but its definition (pythonlessons'
    ``Create_Yolov3`` in an older ``yolov3.py`` whose module the rest imports ``bbox_iou`` from): the call runs
    only if code outside the tree calls the function, a condition.  Only in a module the tree imports (a file
    linted alone, or a library's public module, is not judged so); a function of a module another file
    star-imports, or a decorated one (a registry entry), counts as named."""
    wanted: dict = {}
    for relative, reader, _, sites in read:
        for site in sites:
            name = site.top_function if reader == "python" else None
            if name and not name.startswith("test"):
                wanted.setdefault(name, []).append((module_name(relative), site))
    if not wanted:
        return
    imported, starred = set(), set()
    named: Counter = Counter()  # how often each wanted name stands as a word anywhere, in one pass a file
    word = re.compile(r"\b(" + "|".join(sorted(map(re.escape, wanted), key=len, reverse=True)) + r")\b")
    for _, reader, text, _ in read:
        if reader == "python":
            modules, stars = imported_modules(text)
            imported |= modules
            starred |= stars
        if reader in ("python", "config"):
            named.update(word.findall(text))

    def among(module: str, names: set) -> bool:
        return any(module == n or module.endswith("." + n) for n in names)

    for name, places in wanted.items():
        if named[name] > 1:
            continue
        for module, site in places:
            # the module is imported for something else, and nothing exports it wholesale
            if among(module, imported) and not among(module, starred):
                site.extra["uncalled"] = name


def _follow_model_callers(read: list, reexports=None) -> list:
    """Sites in a module-level function that the code does not show is model code, marked as model code when
    another module of the project calls the function from its model code (a model class, a Keras model
    builder, a Haiku-transformed function) or from differentiated code (``jax.grad``'s function, a
    ``tf.GradientTape`` block): one level, matched by name and module as project wrappers are."""
    candidates: dict = {}
    for relative, reader, _, sites in read:
        for site in sites:
            name = site.function if reader == "python" else None
            if name:
                candidates.setdefault(name, []).append((module_name(relative), site))
    if not candidates:
        return read
    for relative, reader, text, _ in read:
        if reader != "python" or not calls_any(text, candidates):
            continue
        here = module_name(relative)
        try:
            calls = model_callers(text, relative, candidates, reexports)
        except (SyntaxError, RecursionError, MemoryError, ValueError):
            continue  # reported as skipped when it was first read
        for qualified, name, kind in calls:
            head = qualified.rpartition(".")[0]
            for module, site in candidates[name]:
                if module == here or not (head == module or head.split(".")[0] == module.split(".")[0]):
                    continue  # its own module shows it (read_python); another package's function of that name
                site.in_model = True
                if "named_context" in site.extra:  # a `preprocess` function model code calls is model code
                    site.context = "model"
                    site.training, site.exported = site.extra.pop("named_context")
                site.differentiated = site.differentiated or kind == "grad"
                site.extra["called_from"] = f"{relative} ({'differentiated' if kind == 'grad' else 'model'} code)"
                site.function = None
    return read


def _add_conditions(conditions: dict, verdict, site) -> None:
    """Findings that depend on what the code does not say: one Condition per (rule, condition, message)."""
    for rule, condition, message, finding in verdict.conditions:
        key = (rule, condition, message)
        if key not in conditions:
            conditions[key] = Condition(rule, message, condition, finding)
        conditions[key].sites.append(site)


def _file_issue(report: LintReport, issue, site, comments, limit: int, known) -> None:
    """Put one issue where it belongs: suppressed (with its reason), hidden (below ``min_severity``), in the
    baseline, or reported.  A configuration value whose reader is unknown is at most a warning."""
    if site.kind == "config" and issue.severity in ("error", "differs"):
        issue.severity = "warning"
        issue.message = f"A configuration value (the call that reads it is not known): {issue.message}"
    found = suppress.suppression_for(site.lines, issue.rule, comments)
    if found is not None:
        applies, reason, line = found
        if applies:
            report.suppressed.append(Suppressed(issue, reason, line))
            return
        report.unsuppressable.append(issue)
    if SEVERITY_ORDER[issue.severity] > limit:
        report.hidden.append(issue)
        return
    if known is not None:
        key = suppress.fingerprint(site.path, issue.rule, site.snippet)
        if known[key] > 0:
            known[key] -= 1
            report.baselined.append(issue)
            return
    report.append(issue)


def _scan_model(file, relative: str, judge: Judge, report: LintReport, conditions: dict, limit: int,
                known=None, tree=None) -> None:
    """An ``.onnx`` file, through :func:`explorer.advisor.scan`: one site per Resize/Upsample node, on the line
    of its position in the graph (nodes of subgraphs counted depth-first)."""
    from ..onnx_resize import load_model

    q = judge.question
    try:
        data = files.read_bytes(file, MAX_MODEL_BYTES, tree)
    except OSError as exc:
        report.skipped.append(files.Skipped(relative, str(exc)))
        return
    try:
        proto = load_model(data)
        nodes = scan(proto, backend=judge.backend.id, training=q.trains, version=q.version, device=q.device)
        positions = _node_positions(proto)
    except (ImportError, ValueError, TypeError) as exc:
        report.skipped.append(files.Skipped(relative, f"cannot be read as an ONNX model ({exc})"))
        return
    if len(positions) != len(nodes):
        positions = list(range(1, len(nodes) + 1))
    for node, position in zip(nodes, positions):
        site = Site(path=relative, line=position, column=1, library="onnx", api=f"onnx:{node.op_type}",
                    mode=Arg.known(node.attributes.get("mode", "nearest")), kind="node",
                    snippet=snippet_of(f"node {position} {reading.printable(node.node, 80)!r} ({node.op_type}, "
                                       f"{reading.printable(node.attributes.get('mode'), 40)})"))
        report.sites.append(site)
        for f in node.findings:
            if f.status == "supported" and f.severity == "info":
                continue
            rule = f.record_id or f"scan-{f.operation}-{f.status}"  # the scan's own measured findings
            if f.unsettled or (f.record_id is None and f.status == "unknown"):  # shapes the file does not fix
                key = (rule, "", f.message)
                conditions.setdefault(key, Condition(rule, f.message, "", f)).sites.append(site)
                continue
            issue = Issue(site, f.severity, f.message, rule, f)
            if q.export and issue.severity in ("error", "differs"):  # a model file is not what gets exported
                issue.severity, issue.condition = "warning", "if this ONNX file is run on the backend"
                issue.message = f"If this ONNX file is run on {judge.backend.id}: {f.message}"
            _file_issue(report, issue, site, {}, limit, known)  # a model file has no comments to suppress with


def _node_positions(model) -> list[int]:
    """1-based positions of the Resize/Upsample nodes among all nodes, subgraphs depth-first (an explicit stack:
    no recursion however deep the subgraphs nest)."""
    positions, counter = [], 0
    stack = [iter(model.graph.node)]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            continue
        counter += 1
        if node.op_type in ("Resize", "Upsample") and node.domain in ("", "ai.onnx"):
            positions.append(counter)
        subs = []
        for attribute in node.attribute:
            subs += ([attribute.g] if attribute.HasField("g") else []) + list(attribute.graphs)
        for sub in reversed(subs):
            stack.append(iter(sub.node))
    return positions


def _comments(reader: str, text: str) -> dict[int, str]:
    if reader == "python":
        return suppress.python_comments(text)
    if reader == "rust":
        return lex(text)[1]
    return suppress.hash_comments(text)


__all__ = ["Arg", "Condition", "Issue", "LintIssue", "LintReport", "Question", "Site", "lint"]
