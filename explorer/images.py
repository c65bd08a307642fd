"""Built-in test images (computed, never downloaded) and validation of the user's own images.

Every image is a float32 array of shape (H, W, C) with C = 1 (grey) or 3 (RGB) and values in [0, 1].

>>> img = test_image("zone_plate")
>>> img.shape, img.dtype, float(img.min()) >= 0, float(img.max()) <= 1
((256, 256, 1), dtype('float32'), True, True)
>>> sorted(TEST_IMAGES)
['checkerboard', 'circle', 'impulse', 'photo', 'text', 'zone_plate']
>>> as_image(np.zeros((4, 5), np.uint8)).shape
(4, 5, 1)
>>> as_image(np.zeros((4, 5, 2)))
Traceback (most recent call last):
...
explorer.images.ImageError: image has 2 channels; give 1 (grey), 3 (RGB) or 4 (RGBA) channels

``text`` and ``photo`` need matplotlib (and Pillow for the photo); the others are pure numpy.
"""

from __future__ import annotations

import io
import os
import warnings
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

import numpy as np

from .errors import choice_error
from .limits import MAX_FILE_BYTES, MAX_PIXELS, MIN_SIDE

#: File formats accepted by :func:`load_image`.
FORMATS = ("PNG", "JPEG", "GIF", "BMP", "TIFF", "WEBP")


class ImageError(ValueError):
    """A user image that cannot be used, with the reason and what to do."""


# ---------------------------------------------------------------------------------------------- builders
def zone_plate(n: int = 256) -> np.ndarray:
    """A circular zone plate ``0.5 + 0.5 cos(pi r^2 / (n sqrt 2))``: the local frequency grows from 0 at the
    centre to the Nyquist limit 0.5 cycles per pixel in the corners, so every frequency a downsampler must
    remove is present, at a known radius (:func:`zone_plate_frequency`), and the input itself is not aliased.

    >>> zone_plate(9)[4, 4, 0], round(float(zone_plate_frequency(256)[0, 0]), 3)
    (np.float32(1.0), 0.498)
    """
    return _grey(0.5 + 0.5 * np.cos(np.pi * _radius2(n) / (n * np.sqrt(2.0))))


def zone_plate_frequency(n: int = 256) -> np.ndarray:
    """The local frequency (cycles per input pixel) of :func:`zone_plate` at every pixel: ``r / (n sqrt 2)``."""
    return np.sqrt(_radius2(n)) / (n * np.sqrt(2.0))


def checkerboard(n: int = 256, cell: int = 8) -> np.ndarray:
    """Black and white squares of ``cell`` pixels: sharp edges for ringing, a period for moire.

    >>> checkerboard(4, 2)[..., 0].astype(int).tolist()
    [[0, 0, 1, 1], [0, 0, 1, 1], [1, 1, 0, 0], [1, 1, 0, 0]]
    """
    i = np.arange(n) // cell
    return _grey(((i[:, None] + i[None, :]) % 2).astype(np.float64))


def thin_circle(n: int = 128, radius: float | None = None) -> np.ndarray:
    """A one-pixel-wide antialiased circle: the Clean-FID demonstration (128 -> 16 keeps a faint ring only
    with an antialiased filter; fixed-tap kernels turn it into scattered dots).

    >>> c = thin_circle()
    >>> c.shape, float(c.max()) > 0.95
    ((128, 128, 1), True)
    """
    radius = 0.4 * n if radius is None else float(radius)
    r = np.sqrt(_radius2(n))
    return _grey(np.clip(1.0 - np.abs(r - radius), 0.0, 1.0))


def impulse(n: int = 33) -> np.ndarray:
    """One white pixel in the middle: the output is the 2-D impulse response of the resize.

    >>> int(impulse(5)[..., 0].argmax())
    12
    """
    x = np.zeros((n, n))
    x[n // 2, n // 2] = 1.0
    return _grey(x)


def text_image(n: int = 256, text: str = "Resize\nAa 0123") -> np.ndarray:
    """Dark text on white, rendered by matplotlib's Agg into an array (thin strokes, serif details)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(n / 100, n / 100), dpi=100, facecolor="white")
    canvas = FigureCanvasAgg(fig)
    fig.text(0.5, 0.5, text, ha="center", va="center", fontsize=n / 9, family="DejaVu Serif",
             linespacing=1.3)
    canvas.draw()
    rgba = np.asarray(canvas.buffer_rgba(), dtype=np.float64)[:n, :n, :3] / 255.0
    return _grey(rgba.mean(axis=2))


#: matplotlib sample files tried in order for the natural photo.
PHOTO_FILES = ("grace_hopper.jpg", "Minduka_Present_Blue_Pack.png")


def photo(n: int = 256) -> np.ndarray:
    """A natural RGB photo from matplotlib's bundled sample data (Grace Hopper), centre-cropped to a square
    and reduced to ``n`` x ``n`` with an antialiased Keys cubic (this package's own resize)."""
    from matplotlib import cbook

    from .engine.resize import resize
    from .engine.spec import Spec

    last = None
    for name in PHOTO_FILES:
        try:
            with cbook.get_sample_data(name, asfileobj=True) as fh:
                data = fh.read()
        except (OSError, ValueError) as exc:
            last = exc
            continue
        img = load_image(data)
        h, w = img.shape[:2]
        side = min(h, w)
        top, left = (h - side) // 2, (w - side) // 2
        img = img[top:top + side, left:left + side]
        spec = Spec("cubic", cubic_coeff_a=-0.5, antialias=True, exclude_outside=True)
        out = resize(np.ascontiguousarray(img, dtype=np.float64), (n, n), spec, axes=(0, 1))
        return np.clip(out, 0.0, 1.0).astype(np.float32)
    raise ImageError(f"none of matplotlib's sample images {PHOTO_FILES} could be read ({last}); "
                     "reinstall matplotlib or choose another test image")


@dataclass(frozen=True)
class TestImage:
    """A built-in image: how to build it, what it shows, and the scale that shows it best."""

    name: str
    build: Callable[[], np.ndarray]
    shows: str
    suggested_scale: float

    __test__ = False  # not a pytest class


TEST_IMAGES: dict[str, TestImage] = {
    t.name: t
    for t in [
        TestImage("zone_plate", zone_plate, "aliasing: every frequency up to Nyquist, once", 0.25),
        TestImage("checkerboard", checkerboard, "edges and a period: ringing and moire", 0.37),
        TestImage("circle", thin_circle, "the Clean-FID thin circle: 128 -> 16 needs antialias", 0.125),
        TestImage("text", text_image, "thin strokes: sharpness and ringing", 0.5),
        TestImage("impulse", impulse, "one pixel: the 2-D impulse response of each mode", 3.0),
        TestImage("photo", photo, "a natural photo (matplotlib sample data)", 0.5),
    ]
}


def test_image(name: str) -> np.ndarray:
    """The built-in image ``name`` (read-only; cached)."""
    if name not in TEST_IMAGES:
        raise choice_error("image", name, TEST_IMAGES)
    return _built(name)


test_image.__test__ = False  # not a pytest test


@lru_cache(maxsize=None)
def _built(name):
    img = TEST_IMAGES[name].build()
    img.setflags(write=False)
    return img


# ---------------------------------------------------------------------------------------------- validation
def as_image(array, *, name: str = "image") -> np.ndarray:
    """Validate an array and return it as float32 (H, W, C) in [0, 1] (C = 1 or 3).

    Integers are divided by their dtype's maximum (uint8 by 255), booleans become 0/1, alpha is dropped,
    and floats outside [0, 1] are rescaled to [0, 1] (their range is kept in proportion).
    """
    if isinstance(array, (bytes, bytearray, str, os.PathLike)):
        raise ImageError(f"{name} must be an array here; use load_image() for files and bytes")
    try:
        a = np.asarray(array)
    except Exception as exc:  # noqa: BLE001 - report what was given
        raise ImageError(f"{name} must be an array, got {type(array).__name__}: {exc}") from None
    if a.dtype == object or a.dtype.kind not in "biuf":
        raise ImageError(f"{name} must be a numeric array, got dtype {a.dtype}")
    if a.ndim == 3 and a.shape[0] in (1, 3, 4) and a.shape[2] > 4:
        raise ImageError(f"{name} has shape {a.shape}, which looks channels-first; give (H, W, C), "
                         "e.g. array.transpose(1, 2, 0)")
    if a.ndim == 2:
        a = a[:, :, None]
    if a.ndim != 3:
        raise ImageError(f"{name} must have shape (H, W) or (H, W, C), got shape {a.shape}")
    h, w, c = a.shape
    if c not in (1, 3, 4):
        raise ImageError(f"{name} has {c} channels; give 1 (grey), 3 (RGB) or 4 (RGBA) channels")
    if min(h, w) < MIN_SIDE:
        raise ImageError(f"{name} is {h}x{w}; each side needs at least {MIN_SIDE} pixels")
    if h * w > MAX_PIXELS:
        raise ImageError(f"{name} is {h}x{w} = {h * w} pixels, more than the limit of {MAX_PIXELS}; "
                         "crop or reduce it first")
    if c == 4:
        a = a[:, :, :3]
    if a.dtype.kind == "b":
        a = a.astype(np.float32)
    elif a.dtype.kind in "iu":
        info = np.iinfo(a.dtype)
        a = np.clip(a.astype(np.float64), 0, None) / float(info.max)
    else:
        a = a.astype(np.float64)
        if not np.isfinite(a).all():
            raise ImageError(f"{name} contains NaN or infinity; replace them (np.nan_to_num) first")
        lo, hi = float(a.min()), float(a.max())
        if lo < 0.0 or hi > 1.0:
            a = (a - lo) / (hi - lo) if hi > lo else np.zeros_like(a)
    return np.ascontiguousarray(a, dtype=np.float32)


def load_image(source) -> np.ndarray:
    """Decode an image file (bytes, a path, or a file object) into a float32 (H, W, C) array in [0, 1].

    The header is checked before decoding: at most :data:`MAX_FILE_BYTES` bytes, one of :data:`FORMATS`,
    and at most :data:`MAX_PIXELS` pixels (Pillow's decompression-bomb warnings become errors too).

    >>> load_image(b"not an image")
    Traceback (most recent call last):
    ...
    explorer.images.ImageError: this file is not an image this explorer can read (PNG, JPEG, ...): cannot identify ...
    """
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - Pillow ships with matplotlib
        raise ImageError("reading image files needs Pillow: pip install pillow") from None
    data = _read_bytes(source)
    if len(data) == 0:
        raise ImageError("the file is empty")
    if len(data) > MAX_FILE_BYTES:
        raise ImageError(f"the file has {len(data)} bytes, more than the limit of {MAX_FILE_BYTES}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=FORMATS) as im:
                w, h = im.size
                if w * h > MAX_PIXELS:
                    raise ImageError(f"the image is {w}x{h} = {w * h} pixels, more than the limit of "
                                     f"{MAX_PIXELS} (a decompression bomb or simply too large); reduce it first")
                im.seek(0)  # first frame of an animation
                mode = "RGB" if im.mode not in ("L", "I;16", "I", "F", "1", "LA") else "L"
                if im.mode in ("I;16", "I", "F"):
                    arr = np.asarray(im, dtype=np.float64)
                else:
                    arr = np.asarray(im.convert(mode))
    except ImageError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ImageError(f"refused to decode a possible decompression bomb: {exc}") from None
    except Image.UnidentifiedImageError:
        raise ImageError("this file is not an image this explorer can read (" + ", ".join(FORMATS)
                         + "): cannot identify image file") from None
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise ImageError(f"the image file is damaged or truncated: {exc}") from None
    return as_image(arr, name="the image")


def fit_image(image: np.ndarray, max_side: int) -> tuple[np.ndarray, str]:
    """Reduce ``image`` so its longer side is at most ``max_side`` (antialiased area average); returns the
    image and a sentence saying what was done ('' when nothing was).

    >>> img, note = fit_image(np.zeros((10, 40, 1), np.float32), 20)
    >>> img.shape, note
    ((5, 20, 1), 'the image was reduced from 10x40 to 5x20 pixels to keep the explorer interactive')
    """
    h, w = image.shape[:2]
    if max(h, w) <= max_side:
        return image, ""
    from .engine.resize import resize
    from .engine.spec import Spec

    f = max_side / max(h, w)
    size = (max(1, round(h * f)), max(1, round(w * f)))
    out = resize(image.astype(np.float64), size, Spec("area"), axes=(0, 1))
    note = (f"the image was reduced from {h}x{w} to {size[0]}x{size[1]} pixels to keep the explorer "
            "interactive")
    return np.clip(out, 0, 1).astype(np.float32), note


def _read_bytes(source) -> bytes:
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        path = os.fspath(source)
        try:
            size = os.path.getsize(path)
        except OSError as exc:
            raise ImageError(f"cannot read {path!r}: {exc.strerror or exc}") from None
        if size > MAX_FILE_BYTES:
            raise ImageError(f"{path!r} has {size} bytes, more than the limit of {MAX_FILE_BYTES}")
        with open(path, "rb") as fh:
            return fh.read()
    if hasattr(source, "read"):
        data = source.read(MAX_FILE_BYTES + 1)
        if not isinstance(data, (bytes, bytearray)):
            raise ImageError("the file object must be opened in binary mode ('rb')")
        return bytes(data)
    raise ImageError(f"an image file must be bytes, a path or a binary file object, got {type(source).__name__}")


def _radius2(n):
    c = (n - 1) / 2.0
    i = np.arange(n) - c
    return i[:, None] ** 2 + i[None, :] ** 2


def _grey(a):
    return np.ascontiguousarray(a[:, :, None], dtype=np.float32)
