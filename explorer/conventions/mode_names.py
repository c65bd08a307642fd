"""Library ids and mode names in every library's own spelling.

One table per library maps its native mode names to a *family*: the kind of computation, named in
PyTorch's vocabulary where PyTorch has it.  The same word can mean different families in different
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

LIBRARIES = ("torch", "tensorflow", "jax", "onnx", "opencv", "pillow", "burn")

LIBRARY_ALIASES = {
    "torch": "torch", "pytorch": "torch", "libtorch": "torch",
    "tensorflow": "tensorflow", "tf": "tensorflow", "tf2": "tensorflow", "keras": "tensorflow",
    "jax": "jax",
    "onnx": "onnx", "onnxruntime": "onnx", "ort": "onnx",
    "opencv": "opencv", "cv2": "opencv",
    "pillow": "pillow", "pil": "pillow",
    "burn": "burn",
}

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
}

# library -> native mode name -> family
LIBRARY_MODES: dict[str, dict[str, str]] = {
    "torch": {"nearest": "nearest", "nearest-exact": "nearest-exact", "linear": "linear",
              "bilinear": "linear", "bicubic": "cubic", "trilinear": "linear", "area": "area",
              "lanczos": "lanczos3"},
    "tensorflow": {"nearest": "nearest-exact", "bilinear": "linear", "bicubic": "cubic", "area": "area",
                   "lanczos3": "lanczos3", "lanczos5": "lanczos5", "mitchellcubic": "mitchellcubic",
                   "gaussian": "gaussian"},
    "jax": {"nearest": "nearest-exact", "linear": "linear", "cubic": "cubic", "cubic-pytorch": "cubic",
            "lanczos3": "lanczos3", "lanczos5": "lanczos5", "area": "area"},
    "onnx": {"nearest": "nearest-exact", "linear": "linear", "cubic": "cubic"},
    "opencv": {"INTER_NEAREST": "nearest", "INTER_NEAREST_EXACT": "nearest-exact", "INTER_LINEAR": "linear",
               "INTER_LINEAR_EXACT": "linear", "INTER_CUBIC": "cubic", "INTER_AREA": "area",
               "INTER_LANCZOS4": "lanczos4"},
    "pillow": {"NEAREST": "nearest-exact", "BOX": "box", "BILINEAR": "linear", "HAMMING": "hamming",
               "BICUBIC": "cubic", "LANCZOS": "lanczos3"},
    "burn": {"Nearest": "nearest", "NearestExact": "nearest-exact", "Bilinear": "linear", "Bicubic": "cubic",
             "Lanczos3": "lanczos3"},
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
    if not isinstance(name, str):
        raise ArgumentTypeError(f"library must be a string, got {name!r}")
    key = name.strip().lower().replace("-", "").replace("_", "").replace(" ", "")
    if key in LIBRARY_ALIASES:
        return LIBRARY_ALIASES[key]
    raise choice_error("library", name, LIBRARIES)


def library_mode(library: str, name: str) -> str:
    """The library's own name for a mode given in any spelling (its own or another library's)."""
    library = library_id(library)
    modes = LIBRARY_MODES[library]
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
        return LIBRARY_MODES[library_id(library)][library_mode(library, name)]
    family = generic_family(name)
    if family is not None:
        return family
    raise choice_error("mode", name, sorted(FAMILIES))
