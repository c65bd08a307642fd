"""What Burn's ONNX import makes of a ``Resize``/``Upsample`` node, release by release.

The import generates Rust code: a ``burn::nn::interpolate::Interpolate{1,2}d`` field (constant ``scales`` or
``sizes``) or an inline ``burn::tensor::module::interpolate`` call (sizes or scales known only at run time).
Every ONNX ``nearest`` becomes ``InterpolateMode::Nearest`` (floor of ``i * n/m``), ``linear`` becomes
``Bilinear`` and ``cubic`` ``Bicubic``; ``nearest_mode`` and ``cubic_coeff_a`` are never read; until the
import follows ``coordinate_transformation_mode`` (burn-onnx PR #179, with Burn 0.21.0-pre.2's
``align_corners`` option) bilinear and bicubic always use the align-corners grid.  Attributes the import
cannot express stop it with a panic in ``build.rs``.  The releases, their texts and sources are data:
``explorer/advisor/data/burn_onnx_import.toml`` (read from source, not run).

>>> from explorer.advisor.onnx_resize import ResizeNode
>>> node = ResizeNode("up", "Resize", 17, 13, {"mode": "nearest", "coordinate_transformation_mode": "half_pixel",
...                   "nearest_mode": "round_prefer_ceil", "cubic_coeff_a": -0.75, "exclude_outside": 0,
...                   "extrapolation_value": 0.0}, ("mode", "coordinate_transformation_mode", "nearest_mode"),
...                   (1, 3, 10, 10), (1, 3, 3, 3), sizes=(1, 3, 3, 3), sources={"sizes": "constant"})
>>> outcome = import_node(node, era_for("0.20.1"))
>>> outcome.mode, outcome.align_corners, outcome.ignored
('Nearest', None, ())
>>> import_node(node, era_for("0.22.0-pre.2")).ignored
('nearest_mode',)
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass
from importlib import resources

import numpy as np

from ..errors import ArgumentValueError
from .onnx_resize import ResizeNode
from ..versions import VersionRange

_NON_CONSTANT = ("computed", "inferred", "runtime")


@dataclass(frozen=True)
class Era:
    """A stretch of Burn releases whose ONNX import treats Resize the same way (one ``[[era]]`` of the data)."""

    id: str
    versions: VersionRange
    importer: str
    source: str
    align_corners: str            # "fixed" or "from_ctm"
    runtime_sizes: bool
    runtime_scales: bool
    errors: dict
    ignored: tuple = ()
    min_model_opset: int | None = None
    resize_min_opset: int | None = None


@dataclass(frozen=True)
class ImportOutcome:
    """What one era's import does with one node: the error it stops with, or the Burn call it generates."""

    era: Era
    condition: str | None = None   # the condition that stops the import (None: it imports)
    error_text: str | None = None
    mode: str | None = None        # Burn's InterpolateMode (tensor op names: Nearest, Bilinear, Bicubic)
    align_corners: bool | None = None  # None: no option, the align-corners grid is fixed
    ignored: tuple = ()            # attributes set on the node that the import reads and drops

    @property
    def fails(self) -> bool:
        return self.condition is not None

    def to_dict(self) -> dict:
        return {"era": self.era.id, "versions": str(self.era.versions), "importer": self.era.importer,
                "source": self.era.source, "fails": self.fails, "condition": self.condition,
                "error_text": self.error_text, "mode": self.mode, "align_corners": self.align_corners,
                "ignored": list(self.ignored)}


@functools.lru_cache(maxsize=1)
def _data() -> dict:
    with resources.files(__package__).joinpath("data").joinpath("burn_onnx_import.toml").open("rb") as fh:
        return tomllib.load(fh)


def modes() -> dict:
    """ONNX mode -> Burn InterpolateMode the import generates."""
    return dict(_data()["mapping"]["modes"])


@functools.lru_cache(maxsize=1)
def eras() -> tuple[Era, ...]:
    """Every era, oldest first."""
    out = []
    for entry in _data()["era"]:
        out.append(Era(id=entry["id"], versions=VersionRange(entry["versions"]), importer=entry["importer"],
                       source=entry["source"], align_corners=entry["align_corners"],
                       runtime_sizes=entry["runtime_sizes"], runtime_scales=entry["runtime_scales"],
                       errors=dict(entry["errors"]), ignored=tuple(entry.get("ignored", ())),
                       min_model_opset=entry.get("min_model_opset"),
                       resize_min_opset=entry.get("resize_min_opset")))
    return tuple(out)


def era_for(version: str) -> Era:
    """The era of a Burn version ('0.20.1', '0.22.0-pre.2')."""
    for era in eras():
        if era.versions.contains(version):
            return era
    raise ArgumentValueError(f"version={version!r}: no Burn ONNX import era covers it")


# ------------------------------------------------------------------------------------------------ conditions
def _attribute(node, name, default):
    value = node.attributes.get(name)
    return default if value is None else value


def _given(node, name) -> bool:
    return name in node.given


# condition -> does it hold for (node, era); checked in this order, the first with a text in the era stops
CONDITIONS = (
    ("model_opset", lambda n, e: e.min_model_opset is not None and n.opset < e.min_model_opset),
    ("resize", lambda n, e: n.op_type == "Resize"),
    ("upsample", lambda n, e: n.op_type == "Upsample"),
    ("resize_opset", lambda n, e: n.op_version < (e.resize_min_opset or 11)),
    ("antialias", lambda n, e: int(_attribute(n, "antialias", 0)) != 0),
    ("axes", lambda n, e: _given(n, "axes")),
    ("exclude_outside", lambda n, e: int(_attribute(n, "exclude_outside", 0)) != 0),
    ("extrapolation_value", lambda n, e: float(_attribute(n, "extrapolation_value", 0.0)) != 0.0),
    ("keep_aspect_ratio_policy", lambda n, e: str(_attribute(n, "keep_aspect_ratio_policy", "stretch")).lower()
     != "stretch"),
    ("roi", lambda n, e: n.op_version >= 11 and bool(n.roi)),
    ("mode_missing", lambda n, e: not _given(n, "mode")),
    ("mode_unknown", lambda n, e: str(n.attributes.get("mode")).lower() not in modes()),
    ("no_scales_or_sizes", lambda n, e: "scales" not in n.sources and "sizes" not in n.sources),
    ("runtime_sizes", lambda n, e: "scales" not in n.sources and n.sources.get("sizes") in _NON_CONSTANT
     and not e.runtime_sizes),
    ("runtime_scales", lambda n, e: n.sources.get("scales") in _NON_CONSTANT and not e.runtime_scales),
    ("rank", lambda n, e: n.rank not in (3, 4)),
)
CONDITION_NAMES = tuple(name for name, _ in CONDITIONS)
# attributes whose value the import reads and drops, with the value that makes dropping it harmless
_DROPPED = {"coordinate_transformation_mode": None, "cubic_coeff_a": -0.75, "nearest_mode": None}


def import_node(node: ResizeNode, era: Era, path: str = "model.onnx") -> ImportOutcome:
    """What ``era``'s import does with ``node`` (``path`` fills the file name into the error texts)."""
    for name, holds in CONDITIONS:
        if name in era.errors and holds(node, era):
            text = era.errors[name].replace("{path}", path).replace("{opset}", str(node.opset)) \
                .replace("{mode}", str(node.attributes.get("mode")))
            return ImportOutcome(era, condition=name, error_text=text)
    mode = modes()[str(node.attributes.get("mode")).lower()]
    align_corners = None
    if era.align_corners == "from_ctm":
        align_corners = node.attributes.get("coordinate_transformation_mode") == "align_corners"
    ignored = []
    for name in era.ignored:
        if not _given(node, name):
            continue
        harmless = _DROPPED.get(name)
        if harmless is not None and node.attributes.get(name) == harmless:
            continue
        if name == "nearest_mode" and node.attributes.get("mode") != "nearest":
            continue
        if name == "cubic_coeff_a" and node.attributes.get("mode") != "cubic":
            continue
        ignored.append(name)
    return ImportOutcome(era, mode=mode, align_corners=align_corners, ignored=tuple(ignored))


def burn_size(node: ResizeNode, axes) -> dict:
    """The size argument the generated code passes for the node's resized ``axes``: ``output_size`` from
    sizes, else ``scale_factor`` (burn-nn truncates ``n * scale`` with the float32 scale read as f64)."""
    if node.scales is not None:
        return {"scale_factor": tuple(float(np.float32(node.scales[a])) for a in axes)}
    return {"size": tuple(int(node.output_shape[a]) for a in axes)}
