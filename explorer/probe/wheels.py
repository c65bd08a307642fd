"""Facts read from a library's release wheels: which texts and kernels each release ships.

A knowledge-base record says a text is printed, or a kernel is missing, in a range of releases.  Where a release
cannot be run here (PyTorch's MPS kernels, releases older than the installed one), the release's own files can
still be read: the wheel on PyPI holds the Python sources that raise a text and the compiled library that
registers each kernel.  This module downloads one wheel per release (``pip download``, never installed), looks
for every literal text the records of the library state and for the kernel markers below, and writes what it
found per release to ``explorer/advisor/data/sources/<library>-wheels.json``::

    python -m explorer.probe.wheels torch                   # every release in TORCH.releases
    python -m explorer.probe.wheels torch --wheels DIR      # where the wheels are kept (reused when present)

Every release is read each time (the wheels are kept), so a text added to a record is looked for everywhere.

``tests/advisor/test_advisor_wheel_sources.py`` compares each record's version range with those findings, so a
bound is decided by what the release ships, not by what the record says.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import fnmatch
import hashlib
import json
import os
import re
import string
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "advisor" / "data" / "sources"

#: a literal piece shorter than this says too little to be looked for on its own
MIN_PIECE = 12


@dataclass(frozen=True)
class Marker:
    """A record decided by the kernels a release registers: the record holds in a release where every ``present``
    string is in ``file`` and no ``absent`` string is."""

    record: str
    present: tuple[str, ...] = ()
    absent: tuple[str, ...] = ()


@dataclass(frozen=True)
class WheelSource:
    library: str                 # the knowledge base's runtime id
    package: str                 # the PyPI distribution
    releases: tuple[str, ...]
    #: release prefix -> (the Python version, the pip --platform tags) whose wheel is taken; the first prefix a
    #: release starts with decides ("" matches every release)
    targets: dict
    files: tuple[str, ...]       # globs of the files read inside each wheel
    markers: tuple[Marker, ...] = ()
    note: str = ""


def _mps(op: str) -> str:
    return f"{op}_out_mps"


_MAC_ARM = ("macosx_14_0_arm64", "macosx_12_0_arm64", "macosx_11_0_arm64")

# The macOS wheels: the same Python sources as every platform, and libtorch_cpu.dylib holds the CPU and (arm64,
# from 1.12) the MPS kernels (the symbol of each registered ``*_out_mps`` kernel).  CUDA kernels are not in them.
# Before 1.12 there is no MPS backend and no arm64 wheel: the x86_64 wheels are read.
TORCH = WheelSource(
    library="torch", package="torch",
    releases=("1.4.0", "1.5.0", "1.6.0", "1.7.1", "1.8.1", "1.9.1", "1.10.2", "1.11.0", "1.12.1", "1.13.1",
              "2.0.1", "2.1.2", "2.2.2", "2.3.1", "2.4.1", "2.5.1", "2.6.0", "2.7.1", "2.8.0", "2.9.1", "2.10.0",
              "2.11.0", "2.12.1", "2.13.0"),
    targets={"1.12": ("3.10", _MAC_ARM), "1.13": ("3.10", _MAC_ARM), "1.": ("3.8", ("macosx_10_9_x86_64",)),
             "": ("3.11", _MAC_ARM)},
    files=("torch/nn/functional.py", "torch/nn/modules/upsampling.py", "torch/onnx/*.py", "torch/onnx/**/*.py",
           "torch/_decomp/*.py", "torch/_refs/*.py", "torch/_meta_registrations.py", "torch/lib/libtorch_cpu.dylib",
           "torch/lib/libc10.dylib"),
    markers=(
        Marker("torch-mps-nearest-1d-missing-1x", absent=(_mps("upsample_nearest1d"),)),
        Marker("torch-mps-linear1d-missing", absent=(_mps("upsample_linear1d"),)),
        Marker("torch-mps-bicubic-missing", absent=(_mps("upsample_bicubic2d"),)),
        Marker("torch-mps-bilinear-aa-forward-missing", absent=(_mps("_upsample_bilinear2d_aa"),)),
        Marker("torch-mps-bicubic-aa-forward-missing", absent=(_mps("_upsample_bicubic2d_aa"),)),
        Marker("torch-mps-bilinear-aa-backward", present=(_mps("_upsample_bilinear2d_aa"),),
               absent=(_mps("_upsample_bilinear2d_aa_backward"),)),
        Marker("torch-mps-bicubic-aa-backward", present=(_mps("_upsample_bicubic2d_aa"),),
               absent=(_mps("_upsample_bicubic2d_aa_backward"),)),
        Marker("torch-mps-trilinear-missing", absent=(_mps("upsample_trilinear3d"),)),
        Marker("torch-mps-nearest-exact-3d-missing", absent=(_mps("upsample_nearest_exact3d"),)),
        Marker("torch-mps-nearest-3d-cpu-fallback", absent=(_mps("upsample_nearest3d"),)),
        Marker("torch-mps-area-3d-missing", absent=("adaptive_avg_pool3d_out_mps",)),
        Marker("torch-mps-lanczos-missing", present=("_upsample_lanczos2d_aa",),
               absent=(_mps("_upsample_lanczos2d_aa"),)),
    ),
    note="macOS arm64 wheels from PyPI: Python sources and libtorch_cpu.dylib (CPU and MPS kernels); CUDA and XPU "
         "kernels are not in them",
)

_PURE = {"": ("3.11", ("manylinux2014_x86_64",))}  # a py3-none-any wheel matches any platform

KERAS = WheelSource(
    library="keras", package="keras",
    releases=("3.0.5", "3.1.1", "3.2.1", "3.3.3", "3.4.1", "3.5.0", "3.6.0", "3.7.0", "3.8.0", "3.9.2", "3.10.0",
              "3.11.3", "3.12.4", "3.13.2", "3.14.1", "3.15.1"),
    targets=_PURE, files=("keras/*.py",),
    note="pure-Python wheels from PyPI: every keras/**/*.py")

KORNIA = WheelSource(
    library="kornia", package="kornia",
    releases=("0.6.0", "0.6.3", "0.6.4", "0.6.5", "0.6.8", "0.6.9", "0.6.12", "0.7.0", "0.7.4", "0.8.0", "0.8.3"),
    targets=_PURE, files=("kornia/*.py",),
    note="pure-Python wheels from PyPI: every kornia/**/*.py")

COREMLTOOLS = WheelSource(
    library="coreml", package="coremltools",
    releases=("4.1", "5.2.0", "6.3.0", "7.2", "8.0", "8.1", "8.3.0", "9.0"),
    targets={prefix: (python, ("manylinux2014_x86_64", "manylinux_2_17_x86_64", "manylinux1_x86_64"))
             for prefix, python in (("4.", "3.8"), ("5.", "3.8"), ("6.", "3.10"), ("", "3.11"))},
    files=("coremltools/converters/*.py",),
    note="Linux wheels from PyPI: the converters' Python sources (coremltools/converters/**/*.py)")

SOURCES = {s.library: s for s in (TORCH, KERAS, KORNIA, COREMLTOOLS)}


def literal_pieces(text: str) -> tuple[str, ...]:
    """The parts of a record text the library writes literally: the text split at its ``{placeholders}``.

    >>> literal_pieces("Got {rank}D input, but linear mode needs 3D input")
    ('D input, but linear mode needs 3D input',)
    >>> literal_pieces("passed to Resizing: {{'antialias': {value}}}")
    ("passed to Resizing: {'antialias': ",)
    """
    try:  # a format string: "{{" and "}}" are literal braces
        pieces, run = [], ""
        for literal, field, *_ in string.Formatter().parse(text):
            run += literal
            if field is not None:
                pieces, run = [*pieces, run], ""
        pieces.append(run)
    except ValueError:  # unbalanced braces: split at anything that looks like a placeholder
        pieces = re.split(r"\{[^{}]*\}", text)
    return tuple(p for p in pieces if len(p.strip()) >= MIN_PIECE)


def record_texts(library: str) -> list[str]:
    """Every literal piece of every text of the library's records (what the wheels are searched for)."""
    from explorer.advisor import knowledge
    pieces: set[str] = set()
    for record in knowledge.load().records:
        if record.library == library:
            for text in record.texts:
                pieces.update(literal_pieces(text))
    return sorted(pieces)


def marker_strings(source: WheelSource) -> list[str]:
    return sorted({s for m in source.markers for s in (*m.present, *m.absent)})


def target_for(source: WheelSource, release: str) -> tuple[str, tuple[str, ...]]:
    """The Python version and platform tags of the wheel read for ``release``."""
    for prefix, target in source.targets.items():
        if release.startswith(prefix):
            return target
    raise ValueError(f"no wheel target declared for {source.package} {release}")


def download(source: WheelSource, release: str, folder: Path) -> Path:
    """The release's wheel in ``folder`` (downloaded with pip when it is not there yet)."""
    folder.mkdir(parents=True, exist_ok=True)
    found = sorted(folder.glob(f"{source.package}-{release}-*.whl"))
    if not found:
        python, platforms = target_for(source, release)
        command = [sys.executable, "-m", "pip", "download", f"{source.package}=={release}", "--no-deps",
                   "--only-binary=:all:", "--python-version", python, "-d", str(folder)]
        for platform in platforms:
            command += ["--platform", platform]
        # the machine's pip constraints (a cap on torch) are about installing, not about reading a wheel
        env = dict(os.environ, PIP_CONFIG_FILE=os.devnull)
        done = subprocess.run(command, capture_output=True, text=True, env=env)
        if done.returncode:
            raise RuntimeError(f"pip download {source.package}=={release} failed: {done.stderr.strip()[-400:]}")
        found = sorted(folder.glob(f"{source.package}-{release}-*.whl"))
    return found[0]


_ADJACENT = re.compile(rb"""(?<=[^\\])["']\s*(?:\\\s*)?\n\s*[rbfu]{0,2}["']""")


def join_string_literals(source: bytes) -> bytes:
    """Python source with adjacent string literals on consecutive lines joined, so that a message the code
    writes over several lines is found as the one text it prints.

    >>> join_string_literals(b'warn("The default " \\n     "changed in 1.6.0")')
    b'warn("The default changed in 1.6.0")'
    """
    return _ADJACENT.sub(b"", source)


def _member_matches(name: str, patterns: tuple[str, ...]) -> bool:
    return any(fnmatch.fnmatch(name, p) for p in patterns)


def read_release(source: WheelSource, wheel: Path, wanted: list[str]) -> dict:
    """Which of ``wanted`` are in the files of one wheel (text files and compiled libraries alike)."""
    encoded = {w: w.encode() for w in wanted}
    present = dict.fromkeys(wanted, False)
    files = []
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if not _member_matches(name, source.files):
                continue
            files.append(name)
            data = archive.read(name)
            if name.endswith(".py"):
                data = join_string_literals(data)
            for text, raw in encoded.items():
                if not present[text] and raw in data:
                    present[text] = True
    return {"wheel": wheel.name, "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest(),
            "files_read": len(files), "present": sorted(t for t, hit in present.items() if hit)}


def measure(source: WheelSource, folder: Path) -> dict:
    wanted = sorted(set(record_texts(source.library)) | set(marker_strings(source)))
    result = {"format": 1, "library": source.library, "package": source.package, "note": source.note,
              "provenance": {"command": f"python -m explorer.probe.wheels {source.library}",
                             "date": _dt.date.today().isoformat()},
              "searched": wanted, "releases": {}}
    for release in source.releases:
        wheel = download(source, release, folder)
        result["releases"][release] = read_release(source, wheel, wanted)
        print(f"{source.package} {release}: {len(result['releases'][release]['present'])} of {len(wanted)} found",
              file=sys.stderr)
    return result


def load(library: str) -> dict:
    """The committed findings for ``library``."""
    return json.loads((OUT / f"{library}-wheels.json").read_text())


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m explorer.probe.wheels",
                                description="Read the texts and kernels each release wheel ships.")
    p.add_argument("library", help=f"one of: {', '.join(SOURCES)}")
    p.add_argument("--wheels", default=str(Path.home() / ".cache" / "interpolation-explorer" / "wheels"),
                   help="where the downloaded wheels are kept (default: the user's cache folder)")
    p.add_argument("--out", default=str(OUT), help="the folder to write <library>-wheels.json to")
    args = p.parse_args(argv)
    if args.library not in SOURCES:
        p.error(f"library {args.library!r} has no wheel source; choose one of: {', '.join(SOURCES)}")
    source = SOURCES[args.library]
    result = measure(source, Path(args.wheels) / source.package)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    path = out / f"{source.library}-wheels.json"
    path.write_text(json.dumps(result, indent=1, sort_keys=True) + "\n")
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
