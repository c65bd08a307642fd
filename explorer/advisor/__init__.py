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
from .knowledge import load
from .knowledge_checks import validate
from .lint import LintIssue, LintReport, lint
from .node_calls import run_resize_node
from .scan import Scan, ScannedNode, scan
from .smoke import SmokeCase, smoke_matrix
from ..versions import era_label, parse_version, scope_text


@dataclass(frozen=True)
class BackendInfo:
    """A backend id, its library, devices, the releases where its answers change, opsets, aliases, modes.

    ``versions`` come from the records' ranges: each is the first release of an era in which every answer
    stays the same (``eras`` gives each one's last release too); ``opsets`` likewise for ONNX opsets.
    """

    id: str
    library: str
    description: str
    devices: tuple
    versions: tuple
    aliases: tuple
    modes: tuple
    available: str
    scope: str = "*"
    newest: str = ""
    opsets: tuple = ()

    def __str__(self):
        opsets = f"; opsets {', '.join(map(str, self.opsets))}" if self.opsets else ""
        return (f"{self.id:<17} {self.description}; devices {'/'.join(self.devices)}; "
                f"{self.library} {', '.join(self.versions)} (checked {self.scope}){opsets}; "
                f"modes: {', '.join(self.modes)}")

    @property
    def eras(self) -> list[tuple[str, str | None]]:
        """(first release, next era's first release or None) for each version choice."""
        return list(zip(self.versions, list(self.versions[1:]) + [None]))

    @property
    def version_choices(self) -> list[tuple[str, str]]:
        """(label, version) for each era: ``("2.6 – 2.7.x", "2.6")``."""
        return [(era_label(start, stop, self.newest), start) for start, stop in self.eras]

    def era_of(self, version: str) -> str | None:
        """The first release of the era ``version`` belongs to (None outside the releases checked)."""
        key = parse_version(version)
        if not load().runtimes[self.library].in_scope(version):
            return None
        for start, stop in self.eras:
            if parse_version(start) <= key and (stop is None or key < parse_version(stop)):
                return start
        return None


def backends() -> list[BackendInfo]:
    """Every backend id the advisor knows, with its devices, version and opset choices.

    >>> torch = next(b for b in backends() if b.id == "torch")
    >>> torch.versions[:3], torch.newest, torch.opsets[:3]
    (('2.0', '2.1', '2.2'), '2.13.0', (7, 10, 11))
    """
    kb = load()
    out = []
    for b in kb.backends.values():
        lib = kb.runtimes[b.library]
        versions = tuple(v for v in kb.versions(b.library) if b.available.contains(v))
        out.append(BackendInfo(b.id, b.library, b.description, b.devices, versions, b.aliases,
                               tuple(b.mode_table()), str(b.available), scope=scope_text(lib.scope),
                               newest=lib.newest, opsets=tuple(kb.opsets(b.id))))
    return out


__all__ = [
    "BackendInfo",
    "ConventionTable",
    "Diagnosis",
    "Finding",
    "Fix",
    "LintIssue",
    "LintReport",
    "Scan",
    "ScannedNode",
    "SmokeCase",
    "Suggestions",
    "backends",
    "check",
    "compare_conventions",
    "diagnose",
    "lint",
    "run_resize_node",
    "scan",
    "smoke_matrix",
    "suggest_fixes",
    "validate",
]
