"""The same nominal mode in every library, as a table: what each library's default computes.

>>> print(conventions_table().splitlines()[0])
| family | torch | torchvision | tensorflow | jax | keras | onnx | openvino | opencv | litert | pillow | burn | scipy | skimage | mlx |
>>> describe(preset_spec("pillow", "BICUBIC"))
'cubic a=-0.5, antialias, renormalised border'
"""

from __future__ import annotations

from ..engine.spec import Spec
from .mode_names import FAMILIES
from .registry import all_libraries, library

_TRANSFORM = {"half_pixel": "", "pytorch_half_pixel": "pytorch half-pixel", "align_corners": "align-corners",
              "asymmetric": "asymmetric", "tf_half_pixel_for_nn": "", "half_pixel_symmetric": "symmetric half-pixel",
              "tf_crop_and_resize": "crop", "pytorch_antialias_align_corners": "align-corners",
              "mlx_centred": "centred"}

_NEAREST = {
    ("asymmetric", "floor"): "floor(i·n/m)",
    ("tf_half_pixel_for_nn", "floor"): "floor((i+½)·n/m)",
    ("half_pixel", "round_prefer_ceil"): "floor((i+½)·n/m)",
    ("half_pixel", "round_prefer_floor"): "half-pixel, ties down",
    ("asymmetric", "simple"): "asymmetric, ceil when shrinking",
    ("align_corners", "round_half_away"): "align-corners, round",
    ("align_corners", "round_prefer_ceil"): "align-corners, ties up",
    ("half_pixel", "round_half_even"): "half-pixel, ties to even",
}

_AREA = {"area": "exact overlap", "adaptive_area": "adaptive pooling bins", "opencv_area_upscale": "exact overlap"}


def describe(spec: Spec) -> str:
    """A few words for what a Spec computes (the table's cells)."""
    if spec.kernel == "nearest":
        rule = _NEAREST.get((spec.coordinate_transformation_mode, spec.nearest_mode),
                            f"{spec.coordinate_transformation_mode}, {spec.nearest_mode}")
        if spec.index_arithmetic in ("incremental",):
            rule += ", accumulated"
        if spec.boundary is not None:
            rule += f", {spec.boundary} border"
        return rule
    if spec.kernel in _AREA:
        return _AREA[spec.kernel]
    if spec.kernel == "keys_cubic_table1024":
        words = [f"cubic a={spec.cubic_coeff_a:g} (1/1024 table)"]
    else:
        words = [spec.kernel + (f" a={spec.cubic_coeff_a:g}" if spec.kernel == "cubic" else "")]
    transform = _TRANSFORM.get(spec.coordinate_transformation_mode, spec.coordinate_transformation_mode)
    if transform:
        words.append(transform)
    if spec.prefilter:
        words.append("prefiltered")
    if spec.antialias:
        words.append("Gaussian antialias" if spec.index_arithmetic == "ndimage" else "antialias")
    if spec.boundary is not None:
        words.append(f"{spec.boundary} border")
    else:
        words.append("renormalised border" if spec.exclude_outside else "clamped border")
    return ", ".join(words)


def preset_spec(lib: str, mode: str) -> Spec:
    rules = library(lib)
    native = rules.mode(mode)
    return rules.spec(native, rules.resolve_options(native, {}))


def conventions_table(families=None) -> str:
    """A markdown table: for each mode family, each library's native name and what its default computes.

    A mode whose defaults a library rejects (Burn's NearestExact exists on cubecl backends only) is shown
    with the first options :func:`explorer.conventions` lists for it.
    """
    families = list(FAMILIES) if families is None else list(families)
    first_rows = {}
    for lib in all_libraries():
        for mode, options, _ in lib.rows():
            first_rows.setdefault((lib.id, mode), options)
    libs = all_libraries()
    lines = ["| family | " + " | ".join(lib.id for lib in libs) + " |", "|---|" + "---|" * len(libs)]
    for family in families:
        cells = []
        for rules in libs:
            lib_id = rules.id
            natives = [m for m, fam in rules.mode_names.items() if fam == family]
            parts = []
            for native in natives:
                try:
                    resolved = rules.resolve_options(native, {})
                except ValueError:
                    resolved = rules.resolve_options(native, dict(first_rows.get((lib_id, native), {})))
                spec = rules.spec(native, resolved)
                parts.append(f"`{native}`: {describe(spec)}")
            cells.append("<br>".join(parts) or "—")
        lines.append(f"| {family} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
