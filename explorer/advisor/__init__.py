"""Backend compatibility: what fails or differs on which backend, version and device, and measured fixes.

The knowledge base is data (``explorer/advisor/data/*.toml``, one record per capability, each with its source);
the functions below read it.

>>> import explorer
>>> [b.id for b in explorer.backends()][:3]
['burn-ndarray', 'burn-tch', 'burn-flex']
>>> errors = [f for f in explorer.check(mode="NearestExact", backend="burn-tch", training=True) if f.severity == "error"]
>>> errors[-1].error_text
'nearest exact interpolation backward is not supported by PyTorch/tch backend'
>>> explorer.diagnose("nearest exact interpolation backward is not supported by PyTorch/tch backend").matched
True
"""

from __future__ import annotations

from dataclasses import dataclass

from .compare import ConventionTable, compare_conventions
from .diagnose import Diagnosis, diagnose
from .findings import Finding, Fix, check
from .fixes import Suggestions, suggest_fixes
from .knowledge import load, validate
from .lint import LintIssue, lint
from .scan import Scan, ScannedNode, scan
from .smoke import SmokeCase, smoke_matrix


@dataclass(frozen=True)
class BackendInfo:
    """A backend id, its library, devices, known versions, aliases and native mode names."""

    id: str
    library: str
    description: str
    devices: tuple
    versions: tuple
    aliases: tuple
    modes: tuple
    available: str

    def __str__(self):
        versions = ", ".join(self.versions) if self.versions else "no version-specific facts"
        return (f"{self.id:<17} {self.description}; devices {'/'.join(self.devices)}; versions: {versions}; "
                f"modes: {', '.join(self.modes)}")


def backends() -> list[BackendInfo]:
    """Every backend id the advisor knows, with its devices and known versions."""
    kb = load()
    out = []
    for b in kb.backends.values():
        versions = tuple(v for v in kb.versions(b.library) if b.available.contains(v))
        out.append(BackendInfo(b.id, b.library, b.description, b.devices, versions, b.aliases,
                               tuple(b.mode_table()), str(b.available)))
    return out


__all__ = ["backends", "check", "suggest_fixes", "compare_conventions", "diagnose", "smoke_matrix", "lint",
           "scan", "Scan", "ScannedNode", "validate", "BackendInfo", "Finding", "Fix", "Suggestions",
           "ConventionTable", "Diagnosis",
           "SmokeCase", "LintIssue"]
