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

from . import reading
from .errors import UnreadableError, choice_error
from .limits import MAX_DECODE_BYTES, MAX_FILE_BYTES, MAX_PIXELS, MIN_SIDE

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
    return np.ascontiguousarray(_unit_range(a, name), dtype=np.float32)


def _unit_range(a: np.ndarray, name: str) -> np.ndarray:
    """``a`` as float32 in [0, 1], computed in float32 (one output-sized array): integers divided by their
    dtype's maximum, floats outside [0, 1] rescaled."""
    if a.dtype.kind == "b":
        return a.astype(np.float32)
    out = a.astype(np.float32)  # a copy: the caller's array is never changed
    if a.dtype.kind in "iu":
        if a.dtype.kind == "i":
            np.maximum(out, 0, out=out)
        out /= np.float32(np.iinfo(a.dtype).max)
        return out
    if not np.isfinite(out).all():
        raise ImageError(f"{name} contains NaN or infinity (or values beyond float32); replace them "
                         "(np.nan_to_num) first")
    lo, hi = float(out.min()), float(out.max())
    if lo < 0.0 or hi > 1.0:
        if hi > lo:
            out -= np.float32(lo)
            out /= np.float32(hi - lo)
        else:
            out[...] = 0
    return out


def load_image(source) -> np.ndarray:
    """Decode an image file (bytes, a path, or a file object) into a float32 (H, W, C) array in [0, 1].

    See :func:`read_image`, which also says what was done to the file.

    >>> load_image(b"not an image")
    Traceback (most recent call last):
    ...
    explorer.images.ImageError: this file is not an image this explorer can read (PNG, JPEG, ...): cannot identify ...
    """
    return read_image(source)[0]


def read_image(source) -> tuple[np.ndarray, tuple[str, ...]]:
    """``(image, notes)``: the decoded float32 (H, W, C) image in [0, 1], and short sentences saying what was
    done to the file (format and size, bit depth kept, EXIF rotation applied, alpha dropped, ...).

    At most :data:`MAX_FILE_BYTES` bytes are read, and only from a regular file (a pipe or a device is
    refused before it is opened).  The header is checked before any pixel is decoded: one of
    :data:`FORMATS`, at most :data:`MAX_PIXELS` pixels, and at most :data:`MAX_DECODE_BYTES` bytes for the
    decoded pixels and the result (Pillow's decompression-bomb warnings become errors too).  8-bit values are
    divided by 255 and 16-bit values by 65535; the EXIF orientation is applied (Pillow's
    ``ImageOps.exif_transpose``), so the image is upright as a viewer shows it.

    >>> import io
    >>> from PIL import Image
    >>> buf = io.BytesIO()
    >>> Image.new("RGBA", (3, 2)).save(buf, format="PNG")
    >>> image, notes = read_image(buf.getvalue())
    >>> image.shape, notes
    ((2, 3, 3), ('a PNG image, 3x2 pixels, RGBA, 8 bits per channel (divided by 255)', 'the alpha channel was dropped'))
    """
    try:
        from PIL import Image
    except ImportError:  # pragma: no cover - Pillow ships with matplotlib
        raise ImageError("reading image files needs Pillow: pip install pillow") from None
    data = _read_bytes(source)
    if len(data) == 0:
        raise ImageError("the file is empty")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data), formats=FORMATS) as im:
                _check_decode_budget(im)
                notes = [_describe(im, data)]
                frames = getattr(im, "n_frames", 1)
                if frames > 1:
                    im.seek(0)
                    notes.append(f"the first of its {frames} frames is shown")
                im.load()
                oriented = _upright(im, notes)
                arr = _pixels(oriented, notes)
    except ImageError:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ImageError(f"refused to decode a possible decompression bomb: {exc}") from None
    except Image.UnidentifiedImageError:
        raise ImageError("this file is not an image this explorer can read (" + ", ".join(FORMATS)
                         + "): cannot identify image file") from None
    except (OSError, ValueError, SyntaxError, EOFError) as exc:
        raise ImageError(f"the image file is damaged or truncated: {exc}") from None
    except Exception as exc:  # noqa: BLE001 - the boundary with Pillow: a malformed file is refused, whatever breaks
        raise ImageError(f"the image file cannot be decoded ({type(exc).__name__}: {exc})") from None
    return as_image(arr, name="the image"), tuple(notes)


#: Bytes per band of each Pillow mode's pixels (8 bits unless listed).
_BAND_BYTES = {"I;16": 2, "I;16L": 2, "I;16B": 2, "I;16N": 2, "I": 4, "F": 4}
_ORIENTATION = {2: "mirrored left to right", 3: "rotated by 180 degrees", 4: "mirrored top to bottom",
                5: "mirrored along its main diagonal", 6: "rotated 90 degrees clockwise",
                7: "mirrored along its other diagonal", 8: "rotated 90 degrees counter-clockwise"}


def _check_decode_budget(im):
    """Refuse, from the header alone, an image too large to decode: :data:`MAX_PIXELS` and
    :data:`MAX_DECODE_BYTES` (the decoded pixels, a converted or rotated copy, and the float32 result)."""
    w, h = im.size
    if min(w, h) < MIN_SIDE:
        raise ImageError(f"the image is {w}x{h}; each side needs at least {MIN_SIDE} pixels")
    if w * h > MAX_PIXELS:
        raise ImageError(f"the image is {w}x{h} = {w * h} pixels, more than the limit of {MAX_PIXELS} "
                         "(a decompression bomb or simply too large); reduce it first")
    grey = im.mode in ("1", "L", "LA", "I", "F") or im.mode.startswith("I;16")
    channels = 1 if grey else 3
    decoded = len(im.getbands()) * _BAND_BYTES.get(im.mode, 1)
    need = w * h * (3 * max(decoded, channels) + 4 * channels)
    if need > MAX_DECODE_BYTES:
        raise ImageError(f"decoding this {w}x{h} {im.mode} image would take about {need / 2**20:.0f} MiB, more "
                         f"than the limit of {MAX_DECODE_BYTES / 2**20:.0f} MiB; reduce it first")


def _describe(im, data: bytes) -> str:
    bits = 16 if im.mode.startswith("I;16") else {"I": 32, "F": 32, "1": 1}.get(im.mode, 8)
    kind = {16: "16 bits per channel (divided by 65535)", 32: f"32-bit {'floats' if im.mode == 'F' else 'integers'}",
            1: "1 bit per pixel", 8: "8 bits per channel (divided by 255)"}[bits]
    text = f"a {im.format} image, {im.size[0]}x{im.size[1]} pixels, {im.mode}, {kind}"
    if im.format == "PNG" and len(data) > 25 and data[24] == 16 and im.mode in ("RGB", "RGBA"):
        text += " (the file has 16 bits per channel; Pillow decodes colour PNGs to 8)"
    return text


def _upright(im, notes):
    """The image as a viewer shows it: its EXIF orientation applied (Pillow's ``ImageOps.exif_transpose``)."""
    from PIL import ImageOps

    try:
        orientation = im.getexif().get(0x0112, 1)
    except (OSError, ValueError, SyntaxError):
        return im
    if orientation not in _ORIENTATION:
        return im
    notes.append(f"EXIF orientation {orientation} applied: {_ORIENTATION[orientation]} to show it upright")
    return ImageOps.exif_transpose(im)


def _pixels(im, notes) -> np.ndarray:
    """The pixels as a numpy array as_image accepts: 8- and 16-bit values as unsigned integers, alpha dropped,
    other colour modes converted to RGB."""
    mode = im.mode
    if mode.startswith("I;16") or mode in ("L", "RGB", "F"):
        return np.asarray(im)
    if mode == "I":
        arr = np.asarray(im)
        if arr.size and 0 <= int(arr.min()) and int(arr.max()) <= 65535:
            notes.append("its 32-bit integers all fit 16 bits: read as 16-bit values (divided by 65535)")
            return arr.astype(np.uint16)
        notes.append("its 32-bit integers exceed 16 bits: rescaled from their minimum and maximum to [0, 1]")
        return arr.astype(np.float32)
    if mode in ("RGBA", "LA"):
        notes.append("the alpha channel was dropped")
        return np.asarray(im)[:, :, :-1]
    if mode in ("P", "PA") and ("transparency" in im.info or mode == "PA"):
        notes.append("the palette colours were expanded to RGB and the transparency dropped")
        return np.asarray(im.convert("RGBA"))[:, :, :3]
    target = "L" if mode == "1" else "RGB"
    notes.append("the palette colours were expanded to RGB" if mode == "P" else f"{mode} was converted to {target}")
    return np.asarray(im.convert(target))


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
    out = resize(np.asarray(image, dtype=np.float32), size, Spec("area"), axes=(0, 1))
    note = (f"the image was reduced from {h}x{w} to {size[0]}x{size[1]} pixels to keep the explorer "
            "interactive")
    return np.clip(out, 0, 1).astype(np.float32), note


def _read_bytes(source) -> bytes:
    """At most :data:`MAX_FILE_BYTES` bytes of ``source`` (bytes, a path or a binary file object); a path must
    name a regular file."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        size = source.nbytes if isinstance(source, memoryview) else len(source)
        if size > MAX_FILE_BYTES:
            raise ImageError(f"the file has {size} bytes, more than the limit of {MAX_FILE_BYTES}")
        return bytes(source)
    if isinstance(source, (str, os.PathLike)):
        return _read_path(os.fspath(source))
    if hasattr(source, "read"):
        data = source.read(MAX_FILE_BYTES + 1)
        if not isinstance(data, (bytes, bytearray)):
            raise ImageError("the file object must be opened in binary mode ('rb')")
        if len(data) > MAX_FILE_BYTES:
            raise ImageError(f"the file has more bytes than the limit of {MAX_FILE_BYTES}")
        return bytes(data)
    raise ImageError(f"an image file must be bytes, a path or a binary file object, got {type(source).__name__}")


def _read_path(path: str) -> bytes:
    """The bytes of the regular file ``path`` (:func:`explorer.reading.read_file`): a pipe or device is refused
    before it is opened (a pipe would block, /dev/zero never ends), and at most MAX_FILE_BYTES + 1 bytes are read
    whatever size it reports."""
    try:
        return reading.read_file(path, MAX_FILE_BYTES, what="image file")
    except UnreadableError as exc:
        raise ImageError(f"{exc}; give the path of a regular image file") from None


def _radius2(n):
    c = (n - 1) / 2.0
    i = np.arange(n) - c
    return i[:, None] ** 2 + i[None, :] ** 2


def _grey(a):
    return np.ascontiguousarray(a[:, :, None], dtype=np.float32)
