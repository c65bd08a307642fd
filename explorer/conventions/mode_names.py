"""Mode names in every library's own spelling, and the mode families they name.

Each library declares its native mode names with the *family* each computes (``Library.mode_names``): the
kind of computation, named in PyTorch's vocabulary where PyTorch has it.  The same word can mean different families in different
libraries: TensorFlow's and JAX's "nearest" round half-pixel coordinates (family ``nearest-exact``), while
PyTorch's, OpenCV's INTER_NEAREST and Burn's ``Nearest`` floor asymmetric ones (family ``nearest``).

>>> library_mode("burn", "nearest-exact"), library_mode("opencv", "NearestExact")
('NearestExact', 'INTER_NEAREST_EXACT')
>>> library_mode("tensorflow", "nearest-exact"), mode_family("tensorflow", "nearest")
('nearest', 'nearest-exact')
"""

from __future__ import annotations

import re

from ..errors import ArgumentTypeError, choice_error

FAMILIES = {
    "nearest": "nearest neighbour, floor of the asymmetric coordinate i*n/m",
    "nearest-exact": "nearest neighbour of the half-pixel coordinate (i+0.5)*n/m",
    "linear": "linear interpolation (bilinear, trilinear)",
    "cubic": "Keys cubic convolution (bicubic)",
    "lanczos3": "Lanczos windowed sinc, radius 3",
    "lanczos4": "Lanczos windowed sinc, radius 4 (OpenCV)",
    "lanczos5": "Lanczos windowed sinc, radius 5",
    "area": "area averaging",
    "box": "box filter (Pillow BOX)",
    "hamming": "Hamming windowed sinc (Pillow)",
    "mitchellcubic": "Mitchell-Netravali cubic (TensorFlow)",
    "gaussian": "Gaussian (TensorFlow)",
    "bspline": "B-spline interpolation of order 2, 4 or 5 (scipy.ndimage, scikit-image)",
}

# spelling key (see spelling_key) -> family, for names that do not belong to one library
_GENERIC = {
    "nearest": "nearest", "nearestexact": "nearest-exact", "nearestneighbor": "nearest",
    "linear": "linear", "bilinear": "linear", "trilinear": "linear", "triangle": "linear",
    "cubic": "cubic", "bicubic": "cubic", "tricubic": "cubic", "cubicpytorch": "cubic", "bicubicpytorch": "cubic",
    "lanczos": "lanczos3", "lanczos3": "lanczos3", "lanczos4": "lanczos4", "lanczos5": "lanczos5",
    "area": "area", "box": "box", "hamming": "hamming", "mitchellcubic": "mitchellcubic", "mitchell": "mitchellcubic",
    "gaussian": "gaussian", "linearexact": "linear",
}


def generic_family(name: str) -> str | None:
    """The family a generic mode spelling names ('bilinear', 'nearest_exact', 'lanczos'; library prefixes such
    as ``INTER_`` are ignored), or None for a name that is only one library's.

    >>> generic_family("Nearest-Exact"), generic_family("INTER_CUBIC"), generic_family("INTER_NEAREST_EXACT")
    ('nearest-exact', 'cubic', 'nearest-exact')
    >>> generic_family("NEAREST"), generic_family("cubic-pytorch"), generic_family("BILINEAR_AA") is None
    ('nearest', 'cubic', True)
    """
    return _GENERIC.get(spelling_key(name))


def spelling_key(name: str) -> str:
    """Case, separators and library prefixes removed: 'INTER_NEAREST_EXACT' and 'NearestExact' agree.

    >>> spelling_key("INTER_NEAREST_EXACT"), spelling_key("nearest-exact"), spelling_key("Image.BICUBIC")
    ('nearestexact', 'nearestexact', 'bicubic')
    """
    if not isinstance(name, str):
        raise ArgumentTypeError(f"a mode name must be a string, got {name!r}")
    key = name.strip().lower()
    key = re.sub(r"^(cv2\.|image\.|resampling\.|pil\.|interpolatemode::|resizemethod\.|tf\.image\.)+", "", key)
    key = re.sub(r"^inter_", "", key)
    return re.sub(r"[\s_\-.:]", "", key)


def library_id(name: str) -> str:
    """Canonical library id: 'PyTorch' -> 'torch', 'cv2' -> 'opencv'."""
    from .registry import library_id as registry_id

    return registry_id(name)


def libraries() -> tuple[str, ...]:
    """Every library id, in listing order."""
    from .registry import library_ids

    return library_ids()


def library_modes(library: str) -> dict[str, str]:
    """A library's native mode names -> their families."""
    from .registry import library as library_rules

    return dict(library_rules(library).mode_names)


def native_spellings() -> dict[str, str]:
    """Every library's native mode names by spelling key -> family (the first library listing one wins)."""
    from .registry import all_libraries

    out = {}
    for lib in all_libraries():
        for native, family in lib.mode_names.items():
            out.setdefault(spelling_key(native), family)
    return out


def library_mode(library: str, name: str) -> str:
    """The library's own name for a mode given in any spelling (its own or another library's)."""
    library = library_id(library)
    modes = library_modes(library)
    key = spelling_key(name)
    for native in modes:
        if spelling_key(native) == key:
            return native
    family = generic_family(name)
    if family is not None:
        matches = [native for native, fam in modes.items() if fam == family]
        if matches:
            return matches[0]
    raise choice_error("mode", name, modes, context=f"for {library}")


def mode_family(library: str | None, name: str) -> str:
    """The family of a mode: what it computes, whatever the library calls it."""
    if library is not None:
        return library_modes(library)[library_mode(library, name)]
    family = generic_family(name)
    if family is not None:
        return family
    raise choice_error("mode", name, sorted(FAMILIES))
