"""Precision and recall of ``python -m explorer lint`` on hand-classified public repositories.

    python benchmarks/lint_eval.py DATASET [--markdown] [--repo NAME] [--target NAME] [--misses]

DATASET is a directory holding ``labels.jsonl`` (one row per candidate line: repository, commit, path, line,
kind, resolved arguments, and for risky calls ``risk[target] = error | warning | differs``) and ``src/<owner>+<repo>/``,
the working trees of those commits.  For each repository and target the linter runs over the whole tree and its
findings (warning and above) are matched to the rows by path and line:

* error precision: of the sites lint reports as errors, the share labelled error for that target;
* precision: of all the sites lint reports, the share labelled risky (any severity);
* recall: of the risky rows, the share lint reports at some severity (error recall: labelled errors found as
  errors).

Only the files that were labelled count (a sampled repository's other files are left out).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from explorer.advisor.lint import lint

TARGETS = {
    "burn-tch-train": {"backend": "burn-tch", "training": True},
    "mps-train": {"backend": "torch", "device": "mps", "version": "2.5.1", "training": True},
    "mps-train@2.13": {"backend": "torch", "device": "mps", "training": True},
    "coreml-export": {"backend": "coreml", "export": "coreml"},
}
COMMANDS = {
    "burn-tch-train": "--backend burn-tch --train",
    "mps-train": "--backend torch --device mps --version 2.5.1 --train",
    "mps-train@2.13": "--backend torch --device mps --train",
    "coreml-export": "--backend coreml --export coreml",
}
SITE_KINDS = ("call", "test")


def load(dataset: Path):
    rows = [json.loads(line) for line in (dataset / "labels.jsonl").read_text().splitlines() if line.strip()]
    by_repo = defaultdict(list)
    for row in rows:
        by_repo[row["repo"]].append(row)
    return by_repo


def evaluate(tree: Path, rows: list[dict], target: str):
    started = time.perf_counter()
    report = lint(tree, **TARGETS[target])
    seconds = time.perf_counter() - started
    labelled_files = {r["path"] for r in rows}
    random_files = {r["path"] for r in rows if r.get("sample") in ("all", "random")}
    index = defaultdict(list)
    for row in rows:
        for line in {row["line"], *(row.get("match_lines") or [])}:
            index[(row["path"], line)].append(row)
    shown = {}
    for issue in report:
        site = issue.site
        if site.path not in labelled_files:
            continue
        key = (site.path, site.line)
        worst = shown.get(key)
        order = {"error": 0, "differs": 1, "warning": 2, "info": 3}
        if worst is None or order[issue.severity] < order[worst[0]]:
            shown[key] = (issue.severity, issue.rule)

    def risk(row):
        return (row.get("risk") or {}).get(target)

    def matched(key):
        return [r for r in index.get(key, []) if r["kind"] in SITE_KINDS] or index.get(key, [])

    stats = defaultdict(int)
    wrong = []
    for key, (severity, rule) in shown.items():
        rows_here = matched(key)
        precision_pool = rows_here and rows_here[0]["path"] in random_files
        if not precision_pool:
            continue
        labelled = [risk(r) for r in rows_here]
        stats["shown"] += 1
        if any(labelled):
            stats["shown_right"] += 1
        if severity == "error":
            stats["errors"] += 1
            if "error" in labelled:
                stats["errors_right"] += 1
            else:
                kind = rows_here[0]["kind"] if rows_here else "unlabelled line"
                wrong.append((key, severity, rule, kind, rows_here[0]["snippet"][:90] if rows_here else ""))
        elif not any(labelled):
            kind = rows_here[0]["kind"] if rows_here else "unlabelled line"
            wrong.append((key, severity, rule, kind, rows_here[0]["snippet"][:90] if rows_here else ""))
    misses = []
    for row in rows:
        level = risk(row)
        if not level:
            continue
        stats["risky"] += 1
        keys = [(row["path"], line) for line in {row["line"], *(row.get("match_lines") or [])}]
        found = [shown[k][0] for k in keys if k in shown]
        if found:
            stats["found"] += 1
        else:
            misses.append((row["path"], row["line"], level, row["snippet"][:90]))
        if level == "error":
            stats["risky_errors"] += 1
            if "error" in found:
                stats["found_errors"] += 1
    stats["seconds"] = seconds
    stats["files"] = report.files
    return stats, wrong, misses


def ratio(a, b):
    return "—" if not b else f"{100 * a / b:.0f}% ({a}/{b})"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("dataset", type=Path)
    parser.add_argument("--repo", action="append", help="only these repositories (owner+name or name)")
    parser.add_argument("--target", action="append", choices=sorted(TARGETS))
    parser.add_argument("--misses", action="store_true", help="list wrong findings and missed rows")
    parser.add_argument("--wide", action="store_true", help="one row per repository, one column pair per target")
    args = parser.parse_args(argv)
    by_repo = load(args.dataset)
    targets = args.target or list(TARGETS)
    lines = ["| repository | target | error precision | precision | recall | error recall | files | s |",
             "|---|---|---|---|---|---|---|---|"]
    wide = ["| repository | files | " + " | ".join(f"`{COMMANDS[t]}`: errors right | risky found" for t in targets)
            + " |", "|---|---|" + "---|---|" * len(targets)]
    totals = defaultdict(lambda: defaultdict(int))
    for repo, rows in by_repo.items():
        if args.repo and not any(r == repo or repo.endswith("+" + r) for r in args.repo):
            continue
        tree = args.dataset / "src" / repo
        row = []
        for target in targets:
            stats, wrong, misses = evaluate(tree, rows, target)
            for k, v in stats.items():
                totals[target][k] += v
            lines.append(f"| {repo.replace('+', '/')} | {COMMANDS[target]} | "
                         f"{ratio(stats['errors_right'], stats['errors'])} | "
                         f"{ratio(stats['shown_right'], stats['shown'])} | {ratio(stats['found'], stats['risky'])} | "
                         f"{ratio(stats['found_errors'], stats['risky_errors'])} | {stats['files']} | "
                         f"{stats['seconds']:.1f} |")
            row.append(f"{ratio(stats['errors_right'], stats['errors'])} | {ratio(stats['found'], stats['risky'])}")
            if args.misses:
                for item in wrong:
                    print(f"  WRONG {repo} {target}: {item}", file=sys.stderr)
                for item in misses:
                    print(f"  MISS  {repo} {target}: {item}", file=sys.stderr)
        wide.append(f"| {repo.replace('+', '/')} | {stats['files']} | " + " | ".join(row) + " |")
    wide.append("| **all** | | " + " | ".join(
        f"{ratio(totals[t]['errors_right'], totals[t]['errors'])} | {ratio(totals[t]['found'], totals[t]['risky'])}"
        for t in targets) + " |")
    for target in targets:
        s = totals[target]
        lines.append(f"| **all** | {COMMANDS[target]} | {ratio(s['errors_right'], s['errors'])} | "
                     f"{ratio(s['shown_right'], s['shown'])} | {ratio(s['found'], s['risky'])} | "
                     f"{ratio(s['found_errors'], s['risky_errors'])} | {s['files']} | {s['seconds']:.1f} |")
    print("\n".join(wide if args.wide else lines))


if __name__ == "__main__":
    main()
