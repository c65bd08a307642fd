"""A source tree is untrusted input: lint reads nothing outside it, one bad file is skipped with a warning and the
run goes on, exit status 2 is kept for usage errors, output cannot be forged, and the work grows linearly."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys

import pytest

import explorer
from explorer.__main__ import main
from explorer.advisor.lint import lint
from explorer.advisor.lint import python as python_reader
from explorer.advisor.lint import rust as rust_reader

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(explorer.__file__)))  # the tree under test
FAILING_CALL = "import torch.nn.functional as F\ny = F.interpolate(x, scale_factor=2, mode='nearest-exact')\n"
BURN_CALL = "fn up() { let o = InterpolateOptions::new(InterpolateMode::NearestExact); }\n"


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def cli(*args, stdin=None, cwd=None, timeout=120):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "explorer", *args], capture_output=True, text=True, env=env,
                          stdin=stdin, cwd=cwd, timeout=timeout, check=False)


# ------------------------------------------------------------------------------------------------ one bad file
def test_a_nested_quote_template_is_blanked_with_its_outer_one_and_the_run_goes_on(capsys, tmp_path):
    (tmp_path / "gen.rs").write_text("fn f() { quote! { let a = quote! { b }; let c = InterpolateOptions::"
                                     "new(InterpolateMode::Bilinear); }; }\n" + BURN_CALL)
    code, out, err = run(capsys, "lint", str(tmp_path), "--backend", "burn-tch")
    assert code == 1, (out, err)  # the construction after the templates is a failing one
    assert "gen.rs:2:" in out and "gen.rs:1:" not in out  # the one inside the template is generated code
    source = "quote! { a quote! [ b ] c } d quote!(e)"
    code, _ = rust_reader.lex(source)
    assert code == "quote! {" + " " * (source.index("}") - 8) + "} d quote!( )"


def test_a_file_the_linter_fails_on_is_skipped_with_a_warning_and_the_others_are_linted(capsys, tmp_path,
                                                                                     monkeypatch):
    (tmp_path / "a_bad.rs").write_text(BURN_CALL)
    (tmp_path / "b_good.py").write_text(FAILING_CALL)
    real = rust_reader.read_rust

    def failing(text, path):
        raise KeyError(" ")

    lint_package = importlib.import_module("explorer.advisor.lint")
    monkeypatch.setitem(lint_package.READERS, "rust", failing)
    code, out, err = run(capsys, "lint", str(tmp_path), "--backend", "burn-tch")
    assert code == 1, err  # the good file's error finding, not a usage error
    assert any(line.startswith("warning: ") and "a_bad.rs" in line and "KeyError" in line
               for line in out.splitlines()), out
    assert "b_good.py:2:" in out
    assert real is rust_reader.read_rust


def test_a_python_file_with_a_byte_order_mark_is_linted(capsys, tmp_path):
    (tmp_path / "bom.py").write_bytes(b"\xef\xbb\xbf" + FAILING_CALL.encode())
    (tmp_path / "latin.py").write_bytes(b"# -*- coding: latin-1 -*-\n# caf\xe9\n" + FAILING_CALL.encode())
    code, out, _ = run(capsys, "lint", str(tmp_path), "--backend", "burn-tch")
    assert code == 1
    assert "bom.py:2:" in out and "latin.py:4:" in out
    assert "skipped" not in out


def test_an_empty_path_is_a_usage_error_not_the_working_directory(capsys, tmp_path, monkeypatch):
    (tmp_path / "x.py").write_text(FAILING_CALL)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "lint", "", "--backend", "burn-tch")
    assert code == 2 and "empty" in err and "x.py" not in out
    with pytest.raises(ValueError, match="empty"):
        lint("", backend="burn-tch")


# ------------------------------------------------------------------------------------------------ outside the tree
def test_symbolic_links_out_of_the_tree_are_skipped_and_their_lines_never_quoted(capsys, tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    secret = outside / "secret.py"
    secret.write_text("import torch.nn.functional as F\nTOKEN = F.interpolate(x, mode='nearest-exact')  # s3cr3t\n")
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "evil.py").symlink_to(secret)
    (tree / "environ.py").symlink_to("/proc/self/environ")
    (tree / "inside.py").symlink_to(tree / "real.py")
    (tree / "real.py").write_text(FAILING_CALL)
    for fmt in ("text", "json", "sarif", "github"):
        code, out, err = run(capsys, "lint", str(tree), "--backend", "burn-tch", "--format", fmt)
        assert "s3cr3t" not in out + err and "TOKEN" not in out + err
        assert code == 1  # real.py (and the link to it inside the tree) are linted
    report = lint(tree, backend="burn-tch")
    skipped = {s.path: s.reason for s in report.skipped}
    assert set(skipped) == {"evil.py", "environ.py"}, skipped
    assert all("outside" in reason for reason in skipped.values())
    assert {i.site.path for i in report} == {"inside.py", "real.py"}


# ------------------------------------------------------------------------------------------------ unreadable
@pytest.mark.parametrize("kind", ["dev-zero", "fifo", "nested", "huge-count"])
def test_a_baseline_that_is_not_one_is_refused_quickly_as_a_usage_error(tmp_path, kind):
    (tmp_path / "x.py").write_text(FAILING_CALL)
    baseline = tmp_path / "baseline.json"
    if kind == "dev-zero":
        baseline = "/dev/zero"
    elif kind == "fifo":
        os.mkfifo(baseline)
    elif kind == "nested":
        baseline.write_text("[" * 200_000)
    else:
        baseline.write_text(json.dumps({"version": 1, "findings": [{"path": "x.py", "rule": "r", "code": "c",
                                                                     "count": "1" * 100_000}]}))
    proc = cli("lint", str(tmp_path), "--backend", "burn-tch", "--baseline", str(baseline), timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert "baseline" in proc.stderr and "Traceback" not in proc.stderr
    assert len(proc.stderr) < 3000


def test_diagnose_reads_standard_input_up_to_its_limit():
    with open("/dev/zero", "rb") as zero:
        proc = cli("diagnose", "-", stdin=zero, timeout=120)
    assert proc.returncode == 2 and "standard input has more than the limit" in proc.stderr


# ------------------------------------------------------------------------------------------------ output
@pytest.mark.parametrize("name", ["evil\nmodel.py:1:1: error: forged [rule].py", "col\x1b[31mour.py",
                                  "bidi\u202egnp.py"])
def test_file_names_cannot_forge_a_line_of_the_text_report(capsys, tmp_path, name):
    (tmp_path / name).write_text(FAILING_CALL)
    for fmt in ("text", "github"):
        code, out, _ = run(capsys, "lint", str(tmp_path), "--backend", "burn-tch", "--format", fmt)
        assert code == 1
        for line in out.splitlines():
            assert not line.startswith("model.py"), line
            assert "\x1b" not in line and "\u202e" not in line
    code, out, _ = run(capsys, "lint", str(tmp_path), "--backend", "burn-tch", "--format", "json")
    assert json.loads(out)["issues"][0]["site"]["path"] == name  # JSON keeps the name, escaped by JSON


def test_snippets_are_bounded_in_every_format(capsys, tmp_path):
    line = "y = [" + ", ".join("F.interpolate(x, mode='nearest-exact')" for _ in range(3000)) + "]"
    (tmp_path / "long.py").write_text("import torch.nn.functional as F\n" + line + "\n")
    code, out, _ = run(capsys, "lint", str(tmp_path), "--backend", "burn-tch", "--format", "json")
    data = json.loads(out)
    assert code == 1 and len(data["issues"]) >= 3000
    assert max(len(i["site"]["snippet"]) for i in data["issues"]) <= 200
    code, out, _ = run(capsys, "lint", str(tmp_path), "--backend", "burn-tch", "--format", "sarif")
    assert max(len(r["partialFingerprints"]["lintSite/v1"]) for r in json.loads(out)["runs"][0]["results"]) < 400


# ------------------------------------------------------------------------------------------------ work
def test_calls_are_found_in_work_that_does_not_grow_with_the_module(monkeypatch):
    """Each call is located by bisecting the module's statements: the containment tests per call stay a few,
    not one per statement before it (12,000 calls once took 120 s)."""
    counts = {"n": 0}
    real = python_reader._contains

    def counting(node, target):
        counts["n"] += 1
        return real(node, target)

    monkeypatch.setattr(python_reader, "_contains", counting)
    n = 3000
    text = "import torch.nn.functional as F\n" + "".join(f"y{k} = F.interpolate(x, scale_factor=2)\n"
                                                         for k in range(n))
    sites = python_reader.read_python(text, "calls.py")
    assert len(sites) == n
    assert counts["n"] < 40 * n, counts  # a walk along the module would take about n * n / 2


def test_module_statements_are_queued_without_shifting_a_list(monkeypatch):
    """The module's assignments are collected with a deque (600,000 statements once took minutes: each
    ``pop(0)`` moved every statement left in the list)."""
    popped = []

    class Counting(python_reader.deque):
        def popleft(self):
            popped.append(1)
            return super().popleft()

    monkeypatch.setattr(python_reader, "deque", Counting)
    n = 20_000
    text = "import torch.nn.functional as F\n" + "x = 1\n" * n + "y = F.interpolate(x, scale_factor=2)\n"
    [site] = python_reader.read_python(text, "big.py")
    assert site.line == n + 2
    assert len(popped) >= n + 2  # every module statement went through the deque


def test_a_long_line_is_measured_in_bytes_once(monkeypatch):
    """Columns and snippets of the sites on one long line come from one table per line, not from the line's
    start each time."""
    built = []
    real = python_reader._Module.line_bytes

    def counting(self, line):
        if line not in self._line_bytes:
            built.append(line)
        return real(self, line)

    monkeypatch.setattr(python_reader._Module, "line_bytes", counting)
    n = 2000
    line = "y = [" + ", ".join("F.interpolate(é, scale_factor=2)" for _ in range(n)) + "]"
    sites = python_reader.read_python("import torch.nn.functional as F\n" + line + "\n", "line.py")
    assert len(sites) == n and built == [2]
    assert [s.column for s in sites[:2]] == [8, 8 + len("F.interpolate(é, scale_factor=2), ")]


def test_rust_templates_and_brackets_are_matched_in_one_pass(monkeypatch):
    calls = []
    real = rust_reader.bracket_ends
    monkeypatch.setattr(rust_reader, "bracket_ends", lambda code: calls.append(len(code)) or real(code))
    text = "use burn::tensor::ops::InterpolateOptions;\n" + "".join(
        f"fn t{k}() {{ let _ = quote! {{ let a = {k}; }}; }}\n" for k in range(500)) + BURN_CALL
    sites = rust_reader.read_rust(text, "gen.rs")
    assert [s.line for s in sites] == [502]
    assert len(calls) == 2  # once for the templates, once for the reader's brackets: not once per template
