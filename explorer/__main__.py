"""Command line: ``python -m explorer <command> ...`` (also installed as ``interpolation-explorer``).

Commands: ``check`` (findings for one configuration; exit status 1 when one is an error, for CI),
``diagnose`` (match a pasted error), ``lint`` (scan sources and configs), ``scan`` (every resize of an ONNX
model, its equivalents and findings), ``fixes`` (rank fixes on a seeded random tensor), ``smoke`` (the
combinations to test), ``backends``.  Usage errors (a bad argument, a file that cannot be read as given) exit
with status 2, and nothing else does: a failure of the tool itself prints "internal error" and exits with 3, so
that CI never takes a crash for a usage error or for an error finding (status 1).  Messages echo what they were
given escaped and shortened (:func:`explorer.reading.printable`).

A new command is one ``Command`` subclass appended to ``COMMANDS``: its ``add_arguments`` fills its parser and
``run`` returns the exit status.
"""

from __future__ import annotations

import argparse
import json
import math
import sys


#: Longest error message the command line prints (characters; the rest is summarised).
MESSAGE_CHARS = 2000


def _bool(text: str) -> bool:
    value = text.strip().lower()
    if value in ("true", "1", "yes"):
        return True
    if value in ("false", "0", "no"):
        return False
    raise argparse.ArgumentTypeError(f"expected true or false, got {text!r}")


def _json_default(value):
    if isinstance(value, float) and math.isinf(value):
        return "inf"
    if isinstance(value, (set, tuple)):
        return list(value)
    return str(value)


def _dump(data) -> str:
    def clean(v):
        if isinstance(v, float) and not math.isfinite(v):
            return "inf" if v > 0 else ("-inf" if v < 0 else "nan")
        if isinstance(v, dict):
            return {k: clean(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [clean(x) for x in v]
        return v
    return json.dumps(clean(data), indent=2, default=_json_default)


def _indent(text: str, prefix: str = "        ") -> str:
    return "\n".join(prefix + line for line in text.splitlines())


class Command:
    """One subcommand."""

    name = ""
    help = ""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        raise NotImplementedError

    def run(self, args: argparse.Namespace) -> int:
        raise NotImplementedError


def _setup_arguments(parser, mode_required=True):
    parser.add_argument("--backend", required=True, help="backend id, e.g. burn-tch, torch, onnxruntime "
                        "(see `python -m explorer backends`)")
    parser.add_argument("--mode", required=mode_required, help="mode in any library's spelling: nearest-exact, "
                        "NearestExact, INTER_NEAREST_EXACT ...")
    parser.add_argument("--train", action="store_true", help="the model is trained (gradients are needed)")
    parser.add_argument("--version", dest="backend_version", help="version of the backend's library")
    parser.add_argument("--device", help="cpu, cuda, mps, gpu ... (default: every device)")
    parser.add_argument("--align-corners", type=_bool, default=None, metavar="true|false")
    parser.add_argument("--antialias", action="store_true")
    parser.add_argument("--reference", default="torch", help="library whose numbers you expect (default torch; "
                        "'none' to compare with nothing)")


class CheckCommand(Command):
    name = "check"
    help = "what fails or differs for one configuration (exit status 1 on an error finding)"

    def add_arguments(self, parser):
        _setup_arguments(parser)
        parser.add_argument("--spatial-dims", type=int, default=2)
        parser.add_argument("--dtype", default="float32")
        parser.add_argument("--deterministic", action="store_true")
        parser.add_argument("--export", choices=["onnx", "onnx-dynamo", "onnx-torchscript", "coreml", "tflite"],
                            help="onnx = the release's default exporter")
        parser.add_argument("--opset", type=int)
        parser.add_argument("--converter-version", help="onnxscript (dynamo export) or coremltools release")
        parser.add_argument("--scale-factor", action="store_true", help="the call passes a scale factor")
        parser.add_argument("--input-size", type=int, nargs="+", metavar="N")
        parser.add_argument("--output-size", type=int, nargs="+", metavar="M")
        parser.add_argument("--min-severity", choices=["error", "differs", "warning", "info"], default="info")
        parser.add_argument("--json", action="store_true", help="machine-readable output")

    def run(self, args):
        from .advisor import check
        from .advisor.findings import SEVERITY_ORDER
        findings = check(mode=args.mode, backend=args.backend, training=args.train, version=args.backend_version,
                         device=args.device, align_corners=args.align_corners, antialias=args.antialias,
                         spatial_dims=args.spatial_dims, dtype=args.dtype, deterministic=args.deterministic,
                         export=args.export, opset=args.opset, scale_factor=args.scale_factor or None,
                         input_size=args.input_size, output_size=args.output_size,
                         reference=None if args.reference.lower() == "none" else args.reference,
                         converter_version=args.converter_version)
        shown = [f for f in findings if SEVERITY_ORDER[f.severity] <= SEVERITY_ORDER[args.min_severity]]
        if args.json:
            print(_dump([f.to_dict() for f in shown]))
        else:
            what = "training" if args.train else "inference"
            print(f"{args.backend} mode={args.mode} ({what}): {len(findings)} finding(s)")
            for f in shown:
                print(f"- {f}")
                _print_details(f)
        return 1 if any(f.severity == "error" for f in findings) else 0


def _print_details(finding) -> None:
    """A finding's releases, source, evidence and fixes (with their code), indented under its line."""
    if finding.versions:
        print(f"    releases: {finding.versions}")
    print(f"    source: {finding.source}")
    if finding.evidence:
        print(f"    evidence: {finding.evidence_text}")
    for fix in finding.fixes:
        print(f"    fix: {fix}")
        print(_indent(fix.code))


class DiagnoseCommand(Command):
    name = "diagnose"
    help = "match a pasted error message or panic ('-' reads standard input)"

    def add_arguments(self, parser):
        parser.add_argument("text", nargs="+", help="the message (quote it), or - to read standard input")
        parser.add_argument("--json", action="store_true")

    def run(self, args):
        from .advisor import diagnose
        from .limits import DIAGNOSE_MAX_CHARS
        from .reading import read_stream
        text = read_stream(sys.stdin, DIAGNOSE_MAX_CHARS, "standard input") if args.text == ["-"] \
            else " ".join(args.text)
        result = diagnose(text)
        if args.json:
            print(_dump(result.to_dict()))
        else:
            print(result.message)
            if result.inferred is not None:
                print(result.inferred.message)
            for f in result.findings:
                print(f"- [{f.record_id}: {f.backend}, mode {f.mode}, {f.operation}] {f}")
                _print_details(f)
        return 0 if result.matched else 1


class LintCommand(Command):
    name = "lint"
    help = "find every resize call in Python, Rust and config files and report the risky ones (for CI)"
    epilog = """exit status: 0 when no error finding remains (after inline suppressions and the baseline),
1 when at least one does, 2 on a usage error (unknown backend or option, missing path, unreadable baseline),
3 when the tool itself fails (internal error).
Files that cannot be read (broken links, links out of the tree, FIFOs, permissions, above the size limit) and
files the linter fails on are skipped with a warning naming them.
Suppress one finding with a comment on the call's line or the line above, with a reason:
  # explorer: ignore[RULE] why this is fine"""

    def add_arguments(self, parser):
        parser.formatter_class = argparse.RawDescriptionHelpFormatter
        parser.epilog = self.epilog
        parser.add_argument("path", help="a file or a directory")
        parser.add_argument("--backend", required=True, help="backend id, e.g. burn-tch, torch, coreml "
                            "(see `python -m explorer backends`)")
        train = parser.add_mutually_exclusive_group()
        train.add_argument("--train", dest="training", action="store_const", const=True,
                           help="the model is trained (the default, as in explorer.advisor.lint, unless --export)")
        train.add_argument("--inference", dest="training", action="store_const", const=False,
                           help="forward only")
        parser.set_defaults(training=None)
        parser.add_argument("--version", dest="backend_version", help="version of the backend's library")
        parser.add_argument("--device", help="cpu, cuda, mps, gpu ... (default: every device)")
        parser.add_argument("--export", choices=["onnx", "onnx-dynamo", "onnx-torchscript", "coreml", "tflite"],
                            help="the model is exported (implies --inference unless --train)")
        parser.add_argument("--opset", type=int)
        parser.add_argument("--converter-version", help="onnxscript (dynamo export) or coremltools release")
        parser.add_argument("--dtype", default="float32")
        parser.add_argument("--deterministic", action="store_true")
        parser.add_argument("--reference", default="torch", help="library whose numbers you expect (default torch; "
                            "'none' to compare with nothing)")
        parser.add_argument("--min-severity", choices=["error", "differs", "warning", "info"], default="warning")
        parser.add_argument("--include", action="append", default=[], metavar="GLOB",
                            help="lint only paths matching (repeatable): tests, *.py, src/models/*")
        parser.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                            help="skip paths matching (repeatable)")
        parser.add_argument("--baseline", metavar="FILE", help="findings listed in FILE do not fail the run")
        parser.add_argument("--write-baseline", metavar="FILE",
                            help="write today's findings to FILE (then pass it with --baseline)")
        parser.add_argument("--format", choices=["text", "json", "sarif", "github"], default="text")
        parser.add_argument("--json", action="store_const", dest="format", const="json",
                            help="same as --format json")

    def run(self, args):
        from .advisor.lint import lint
        from .advisor.lint import report as output
        from .advisor.lint.suppress import baseline_document
        result = lint(args.path, backend=args.backend, training=args.training, version=args.backend_version,
                      device=args.device, min_severity=args.min_severity, export=args.export, opset=args.opset,
                      dtype=args.dtype, deterministic=args.deterministic, converter_version=args.converter_version,
                      reference=None if args.reference.lower() == "none" else args.reference,
                      include=args.include, exclude=args.exclude, baseline=args.baseline)
        print(output.render(result, args.format, root_label=args.path, show_info=args.min_severity == "info"))
        for skipped in result.skipped if args.format != "text" else ():
            print(f"warning: {skipped}", file=sys.stderr)
        if args.write_baseline:
            with open(args.write_baseline, "w", encoding="utf-8") as fh:
                json.dump(baseline_document(result.fingerprints(), result.question.backend), fh, indent=2)
                fh.write("\n")
            print(f"wrote {len(result.fingerprints())} finding(s) to {args.write_baseline}", file=sys.stderr)
            return 0
        return result.exit_status


def _input_shape(text: str):
    """``NAME=1,3,64,64`` -> (NAME, (1, 3, 64, 64))."""
    name, sep, dims = text.partition("=")
    try:
        shape = tuple(int(d) for d in dims.replace("x", ",").split(",") if d.strip())
    except ValueError:
        shape = ()
    if not sep or not name or not shape:
        raise argparse.ArgumentTypeError(f"expected NAME=1,3,64,64 (a graph input and its shape), got {text!r}")
    return name, shape


class ScanCommand(Command):
    name = "scan"
    help = "every Resize/Upsample of an ONNX model: equivalents and findings (exit status 1 on an error)"

    def add_arguments(self, parser):
        parser.add_argument("model", help="an .onnx file")
        parser.add_argument("--backend", help="backend id (default onnxruntime; see `python -m explorer backends`)")
        parser.add_argument("--train", action="store_true", help="the model is trained (gradients are needed)")
        parser.add_argument("--version", dest="backend_version", help="version of the backend's library")
        parser.add_argument("--device", help="cpu, cuda, mps, gpu ...")
        parser.add_argument("--input-shape", type=_input_shape, action="append", metavar="NAME=N,C,H,W",
                            help="the shape of a graph input with dynamic axes (repeat for several inputs)")
        parser.add_argument("--json", action="store_true", help="machine-readable output")
        parser.add_argument("--summary", action="store_true",
                            help="one line for the model: nodes scanned and findings by severity")
        parser.add_argument("--allow-unscanned", action="store_true",
                            help="a node the scan cannot analyse (shapes or sizes not known) is a warning, not an "
                                 "error; by default it is an error under --backend (exit status 1), since nothing "
                                 "was checked for that backend")

    def run(self, args):
        from .advisor.scan import scan
        shapes = dict(args.input_shape) if args.input_shape else None
        unscanned = "warning" if args.allow_unscanned else None
        result = scan(args.model, example_inputs=shapes, backend=args.backend, training=args.train,
                      version=args.backend_version, device=args.device, unscanned=unscanned)
        if args.summary:
            print(_dump(result.summary_dict()) if args.json else result.summary())
        else:
            print(_dump(result.to_dicts()) if args.json else result)
        return result.exit_status


class FixesCommand(Command):
    name = "fixes"
    help = "rank candidate fixes by their measured effect on a seeded random tensor"

    def add_arguments(self, parser):
        _setup_arguments(parser)
        parser.add_argument("--input-size", type=int, nargs="+", default=[32, 32], metavar="N")
        group = parser.add_mutually_exclusive_group(required=True)
        group.add_argument("--size", type=int, nargs="+", metavar="M", help="output size")
        group.add_argument("--scale", type=float, help="scale factor")
        parser.add_argument("--channels", type=int, default=3)
        parser.set_defaults(reference="none")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--json", action="store_true")

    def run(self, args):
        import numpy as np

        from . import validate
        from .advisor import suggest_fixes
        from .engine.memory import require
        shape = (1, validate.length(args.channels, "--channels"), *validate.lengths(args.input_size, "--input-size"))
        require(math.prod(shape) * 4, f"the random input tensor of shape {shape}", hint="choose a smaller --input-size")
        x = np.random.default_rng(args.seed).random(shape, dtype=np.float32)
        fixes = suggest_fixes(x, mode=args.mode, backend=args.backend, size=args.size, scale_factor=args.scale,
                              training=args.train, version=args.backend_version, device=args.device,
                              align_corners=args.align_corners, antialias=args.antialias,
                              reference=None if args.reference.lower() == "none" else args.reference)
        if args.json:
            print(_dump([f.to_dict() for f in fixes]))
        else:
            print(f"{args.backend} {args.mode} on a random {shape} float32 tensor (seed {args.seed}):")
            for k, fix in enumerate(fixes, 1):
                print(f"{k}. {fix}")
                print(_indent(fix.code, "     "))
                for caveat in fix.caveats:
                    print(f"     caveat: {caveat}")
        return 0


class SmokeCommand(Command):
    name = "smoke"
    help = "the mode x option combinations to backprop through in your own tests"

    def add_arguments(self, parser):
        parser.add_argument("--backend", required=True)
        parser.add_argument("--version", dest="backend_version")
        parser.add_argument("--inference", action="store_true", help="forward only")
        parser.add_argument("--json", action="store_true")

    def run(self, args):
        from .advisor import smoke_matrix
        cases = smoke_matrix(args.backend, version=args.backend_version, training=not args.inference)
        if args.json:
            print(_dump([c.to_dict() for c in cases]))
        else:
            for case in cases:
                print(case)
        return 0


class BackendsCommand(Command):
    name = "backends"
    help = "list the backend ids, their devices and known versions"

    def add_arguments(self, parser):
        parser.add_argument("--json", action="store_true")

    def run(self, args):
        from .advisor import backends
        items = backends()
        if args.json:
            print(_dump([b.__dict__ for b in items]))
        else:
            for b in items:
                print(b)
        return 0


COMMANDS: list[Command] = [CheckCommand(), DiagnoseCommand(), LintCommand(), ScanCommand(), FixesCommand(),
                           SmokeCommand(), BackendsCommand()]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m explorer",
                                     description="Tensor resize/interpolation explorer and backend advisor.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for command in COMMANDS:
        p = sub.add_parser(command.name, help=command.help, description=command.help)
        command.add_arguments(p)
        p.set_defaults(handler=command)
    return parser


def _silence_stdout():
    """Point stdout at /dev/null, so that the interpreter's flush at exit finds no closed pipe."""
    import os
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # stdout without a file descriptor (captured in tests)
        pass


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_usage(sys.stderr)
        print(f"{parser.prog}: error: choose a command: {', '.join(c.name for c in COMMANDS)}", file=sys.stderr)
        return 2
    from .reading import printable
    try:
        status = handler.run(args)
        sys.stdout.flush()
        return status
    except BrokenPipeError:  # the reader stopped (| head): the rest is not wanted, and no traceback at exit
        _silence_stdout()
        return 141
    except (ValueError, TypeError, OSError) as exc:  # the project's error types subclass these
        print(f"{parser.prog} {handler.name}: error: {printable(exc, MESSAGE_CHARS)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # noqa: BLE001 - a failure of the tool, not of the input: said so, never status 2
        print(f"{parser.prog} {handler.name}: internal error: {type(exc).__name__}: {printable(exc, MESSAGE_CHARS)} "
              "(please report it with the command line)", file=sys.stderr)
        return 3


if __name__ == "__main__":
    raise SystemExit(main())
