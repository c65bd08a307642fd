"""A lint report as text, JSON, SARIF 2.1.0 or GitHub Actions annotations.

Text is written for a terminal and a CI log: every line is escaped (:func:`explorer.reading.printable`), so a
file name, a node name or a message holding a newline or an ANSI escape cannot forge a finding or colour
the log.  Text has one line per site: its most severe finding, how many more there are, and the top fix; then the
conditions (with ``--min-severity info``), the skipped files and a count.  JSON has everything; SARIF is what
code-scanning services read; ``github`` prints workflow commands that annotate the pull request.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict

from ...reading import printable
from ..findings import SEVERITY_ORDER
from . import LintReport

FORMATS = ("text", "json", "sarif", "github")
SARIF_LEVEL = {"error": "error", "differs": "warning", "warning": "warning", "info": "note"}
GITHUB_LEVEL = {"error": "error", "differs": "warning", "warning": "warning", "info": "notice"}
TOOL = "interpolation-explorer lint"


def render(report: LintReport, fmt: str = "text", root_label: str | None = None, show_info: bool = False) -> str:
    if fmt == "json":
        return json.dumps(to_dict(report), indent=2, default=str)
    if fmt == "sarif":
        return json.dumps(sarif(report), indent=2, default=str)
    if fmt == "github":
        return github(report)
    return text(report, root_label, show_info)


def _display(report: LintReport, relative: str, root_label: str | None) -> str:
    root = root_label if root_label is not None else report.root
    if os.path.isfile(root):
        return root
    return os.path.join(root, relative) if root else relative


def by_site(report: LintReport):
    """[(site, [issues, most severe first])] in report order."""
    groups: dict = defaultdict(list)
    order = []
    for issue in report:
        key = id(issue.site)
        if key not in groups:
            order.append(issue.site)
        groups[key].append(issue)
    return [(site, sorted(groups[id(site)], key=_importance)) for site in order]


#: Among findings of one severity, what happens first comes first: a forward failure before a backward one.
OPERATION_ORDER = {"forward": 0, "export_onnx": 1, "export_coreml": 1, "backward": 2, "double_backward": 3,
                   "convention": 4}


def _importance(issue) -> tuple:
    operation = issue.finding.operation if issue.finding else None
    return SEVERITY_ORDER[issue.severity], OPERATION_ORDER.get(operation, 5), issue.rule


def text(report: LintReport, root_label: str | None = None, show_info: bool = False) -> str:
    out = []
    for site, issues in by_site(report):
        top = issues[0]
        line = f"{_display(report, site.path, root_label)}:{site.line}:{site.column}: {top.severity}: {top.message} " \
               f"[{top.rule}]"
        if len(issues) > 1:
            line += f" (+{len(issues) - 1} more: {', '.join(i.rule for i in issues[1:])})"
        fix = next((f for i in issues for f in i.fixes), None)
        if fix is not None:
            line += f" fix: {fix.description}"
        out.append(printable(line, None))
    if show_info and report.conditions:
        out.append("")
        out.append("Conditions (findings that depend on what the code does not say):")
        for c in report.conditions:
            where = ", ".join(f"{s.path}:{s.line}" for s in c.sites[:3])
            more = f" +{len(c.sites) - 3} more" if len(c.sites) > 3 else ""
            what = f"{c.condition[0].upper()}{c.condition[1:]}: {c.message}" if c.condition else c.message
            out.append(printable(f"info: {len(c.sites)} site(s): {what} [{c.rule}] ({where}{more})", None))
    for s in report.skipped:
        out.append(printable(f"warning: {s}", None))
    for issue in report.unsuppressable:
        out.append(printable(f"warning: {issue.site.path}:{issue.site.line}: a suppression comment needs a reason "
                             f"(`explorer: ignore[{issue.rule}] <why>`); the finding stays", None))
    errors = len(report.errors)
    flagged = len({id(i.site) for i in report})
    summary = (f"{len(report)} finding(s) at {flagged} site(s), {errors} error(s); {len(report.sites)} resize "
               f"site(s) in {report.files} file(s)")
    extras = []
    if report.suppressed:
        extras.append(f"{len(report.suppressed)} suppressed inline")
    if report.baselined:
        extras.append(f"{len(report.baselined)} in the baseline")
    if report.hidden:
        extras.append(f"{len(report.hidden)} below the minimum severity")
    if report.conditions and not show_info:
        extras.append(f"{len(report.conditions)} condition(s) on what the code does not say "
                      "(--min-severity info lists them)")
    if report.not_judged:
        libraries = sorted({s.library for s in report.not_judged})
        extras.append(f"{len(report.not_judged)} {'/'.join(libraries)} site(s) not judged for this backend")
    if report.skipped:
        extras.append(f"{len(report.skipped)} file(s) skipped")
    if extras:
        summary += "; " + "; ".join(extras)
    out.append(summary + ".")
    q = report.question
    if q is not None and q.backend.startswith("burn") and q.trains and report.sites:
        out.append(f"Validate at startup: smoke-test every layer/mode combination you ship "
                   f"(python -m explorer smoke --backend {q.backend}).")
    return "\n".join(out)


def to_dict(report: LintReport) -> dict:
    q = report.question
    return {
        "tool": TOOL,
        "question": q.to_dict() if q else None,
        "exit_status": report.exit_status,
        "counts": {"issues": len(report), "errors": len(report.errors), "files": report.files,
                   "sites": len(report.sites), "suppressed": len(report.suppressed),
                   "baselined": len(report.baselined), "hidden": len(report.hidden),
                   "conditions": len(report.conditions), "skipped": len(report.skipped),
                   "not_judged": len(report.not_judged)},
        "issues": [i.to_dict() for i in report],
        "conditions": [{"rule": c.rule, "condition": c.condition, "message": c.message,
                        "sites": [{"path": s.path, "line": s.line} for s in c.sites]} for c in report.conditions],
        "suppressed": [dict(s.issue.to_dict(), reason=s.reason, comment_line=s.line) for s in report.suppressed],
        "baselined": [i.to_dict() for i in report.baselined],
        "skipped": [{"path": s.path, "reason": s.reason} for s in report.skipped],
    }


def sarif(report: LintReport) -> dict:
    rules, index = [], {}
    results = []
    for issue in report:
        if issue.rule not in index:
            index[issue.rule] = len(rules)
            finding = issue.finding
            rule = {"id": issue.rule, "shortDescription": {"text": (finding.message if finding else issue.message)[:200]}}
            if finding is not None and finding.source:
                rule["properties"] = {"source": finding.source}
            rules.append(rule)
        site = issue.site
        message = issue.message
        if issue.fixes:
            message += f" Fix: {issue.fixes[0].description}."
        results.append({
            "ruleId": issue.rule, "ruleIndex": index[issue.rule], "level": SARIF_LEVEL[issue.severity],
            "message": {"text": message},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": site.path.replace(os.sep, "/"), "uriBaseId": "SRCROOT"},
                "region": {"startLine": site.line, "startColumn": site.column,
                           **({"endLine": site.end_line} if site.end_line else {})}}}],
            "partialFingerprints": {"lintSite/v1": "|".join((site.path, issue.rule, " ".join(site.snippet.split())))},
        })
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": TOOL, "rules": rules}},
                  "originalUriBaseIds": {"SRCROOT": {"uri": _file_uri(report.root)}},
                  "results": results}],
    }


def _file_uri(root: str) -> str:
    path = os.path.abspath(root)
    if os.path.isfile(path):
        path = os.path.dirname(path)
    return "file://" + path.replace(os.sep, "/").rstrip("/") + "/"


def _escape_data(text: str) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return printable(text, None)  # other control characters (ANSI escapes) written as escapes


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def github(report: LintReport) -> str:
    """GitHub Actions workflow commands: one annotation per site (paths as given, relative to the checkout)."""
    out = []
    for site, issues in by_site(report):
        top = issues[0]
        path = _display(report, site.path, None)
        message = top.message + (f" Fix: {top.fixes[0].description}." if top.fixes else "")
        if len(issues) > 1:
            message += f" (+{len(issues) - 1} more: {', '.join(i.rule for i in issues[1:])})"
        out.append(f"::{GITHUB_LEVEL[top.severity]} file={_escape_property(path)},line={site.line},"
                   f"col={site.column},title={_escape_property(top.rule)}::{_escape_data(message)}")
    for s in report.skipped:
        out.append(f"::warning title=lint skipped a file::{_escape_data(str(s))}")
    out.append(f"{len(report)} finding(s), {len(report.errors)} error(s) in {report.files} file(s).")
    return "\n".join(out)
