"""Built-in test images and the validation of the user's images (arrays, files, bytes)."""

import io
import os
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest

from explorer import images
from explorer.images import (
    ImageError,
    as_image,
    fit_image,
    load_image,
    read_image,
    test_image,
)


def png_bytes(array, mode=None):
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(array, mode=mode).save(buf, format="PNG")
    return buf.getvalue()


@pytest.mark.parametrize("name", sorted(images.TEST_IMAGES))
def test_builtin_images_are_float32_hwc_in_the_unit_range(name):
    img = test_image(name)
    assert img.dtype == np.float32 and img.ndim == 3 and img.shape[2] in (1, 3)
    assert 0.0 <= img.min() and img.max() <= 1.0 and img.max() > img.min()
    assert not img.flags.writeable


def test_specific_builtin_images():
    assert test_image("photo").shape == (256, 256, 3)
    assert test_image("circle").shape == (128, 128, 1)  # the Clean-FID demonstration, 128 -> 16
    assert images.TEST_IMAGES["circle"].suggested_scale == 16 / 128
    impulse = test_image("impulse")[..., 0]
    assert impulse.sum() == 1 and impulse[16, 16] == 1
    text = test_image("text")[..., 0]
    assert (text < 0.5).mean() > 0.02  # dark strokes on white
    nu = images.zone_plate_frequency(256)
    assert nu.max() == pytest.approx(0.5, abs=0.01) and nu.min() < 0.01
    with pytest.raises(ValueError, match="image='zebra' is not valid"):
        test_image("zebra")


def test_as_image_converts_and_validates():
    assert as_image(np.full((3, 4), 255, np.uint8)).max() == 1.0
    assert as_image(np.full((3, 4), 65535, np.uint16)).max() == 1.0
    assert as_image(np.ones((3, 4), bool)).dtype == np.float32
    rgba = as_image(np.zeros((3, 4, 4), np.uint8))
    assert rgba.shape == (3, 4, 3)
    scaled = as_image(np.array([[-2.0, 0.0], [2.0, 2.0]]))
    assert scaled.min() == 0 and scaled.max() == 1 and scaled[0, 1, 0] == pytest.approx(0.5)
    for bad, match in [(np.zeros((3, 4, 5, 6)), "shape \\(H, W\\) or \\(H, W, C\\)"),
                       (np.zeros((3, 40, 50)), "looks channels-first"),
                       (np.zeros((4, 5, 2)), "2 channels"),
                       (np.zeros((1, 5)), "at least 2 pixels"),
                       (np.array([[np.nan, 0], [0, 0]]), "NaN or infinity"),
                       (np.array([["a", "b"]]), "numeric array"),
                       (b"bytes", "use load_image")]:
        with pytest.raises(ImageError, match=match):
            as_image(bad)


def test_load_image_reads_files_and_bytes(tmp_path):
    rgb = (np.random.default_rng(0).random((20, 30, 3)) * 255).astype(np.uint8)
    data = png_bytes(rgb)
    img = load_image(data)
    np.testing.assert_allclose(img, rgb / 255.0, atol=1e-6)
    path = tmp_path / "x.png"
    path.write_bytes(data)
    np.testing.assert_array_equal(load_image(path), img)
    with open(path, "rb") as fh:
        np.testing.assert_array_equal(load_image(fh), img)
    grey16 = png_bytes(np.full((5, 6), 30000, np.uint16))
    assert load_image(grey16).shape == (5, 6, 1)


def test_bad_files_get_a_clear_message(tmp_path, monkeypatch):
    with pytest.raises(ImageError, match="not an image this explorer can read"):
        load_image(b"GIF89a but not really")
    with pytest.raises(ImageError, match="empty"):
        load_image(b"")
    data = png_bytes(np.zeros((64, 64), np.uint8) + np.arange(64, dtype=np.uint8))
    with pytest.raises(ImageError, match="damaged or truncated"):
        load_image(data[: len(data) // 2])
    with pytest.raises(ImageError, match="cannot read"):
        load_image(tmp_path / "missing.png")
    with pytest.raises(ImageError, match="must be bytes, a path or a binary file object"):
        load_image(12)
    monkeypatch.setattr(images, "MAX_FILE_BYTES", 10)
    with pytest.raises(ImageError, match="more than the limit of 10"):
        load_image(data)


def test_the_decompression_bomb_guard_reads_the_header_first(monkeypatch):
    data = png_bytes(np.zeros((100, 100), np.uint8))
    monkeypatch.setattr(images, "MAX_PIXELS", 5000)
    with pytest.raises(ImageError, match="100x100 = 10000 pixels, more than the limit of 5000"):
        load_image(data)


def test_pillows_own_bomb_warning_is_an_error(monkeypatch):
    from PIL import Image

    data = png_bytes(np.zeros((60, 60), np.uint8))
    monkeypatch.setattr(Image, "MAX_IMAGE_PIXELS", 1000)
    with pytest.raises(ImageError, match="decompression bomb"):
        load_image(data)


def test_fit_image_reduces_large_images_with_a_note():
    img = np.random.default_rng(1).random((600, 300, 3)).astype(np.float32)
    out, note = fit_image(img, 512)
    assert out.shape == (512, 256, 3) and "600x300 to 512x256" in note
    same, note = fit_image(img, 600)
    assert same is img and note == ""


# ------------------------------------------------------------------------------------------------ issue 14
def _encoded(image, fmt, **save):
    buf = io.BytesIO()
    image.save(buf, format=fmt, **save)
    return buf.getvalue()


def test_16_bit_png_values_are_divided_by_65535_not_stretched():
    grey = np.array([[1000, 2000], [3000, 4000]], np.uint16)
    image, notes = read_image(png_bytes(grey))
    np.testing.assert_allclose(image[..., 0], grey / 65535.0, rtol=1e-6)
    assert "16 bits per channel (divided by 65535)" in notes[0]


def test_big_endian_16_bit_tiff_is_one_grey_channel_of_its_values():
    from PIL import Image

    values = np.array([[0, 5000, 10000], [20000, 40000, 65535]], np.uint16)
    tiff = _encoded(Image.frombytes("I;16B", (3, 2), values.astype(">u2").tobytes()), "TIFF")
    image, notes = read_image(tiff)
    assert image.shape == (2, 3, 1)
    np.testing.assert_allclose(image[..., 0], values / 65535.0, rtol=1e-6)
    assert "TIFF" in notes[0] and "I;16B" in notes[0]


def test_32_bit_integer_tiffs_are_read_by_their_range():
    from PIL import Image

    small = np.array([[0, 300], [65535, 7]], np.int32)
    image, notes = read_image(_encoded(Image.fromarray(small), "TIFF"))
    np.testing.assert_allclose(image[..., 0], small / 65535.0, rtol=1e-6)
    assert any("fit 16 bits" in n for n in notes)
    large = np.array([[0, 10**6], [2 * 10**6, 4 * 10**6]], np.int32)
    image, notes = read_image(_encoded(Image.fromarray(large), "TIFF"))
    np.testing.assert_allclose(image[..., 0], large / 4e6, rtol=1e-6)
    assert any("rescaled from their minimum and maximum" in n for n in notes)


@pytest.mark.parametrize("orientation,expected", [
    (1, [[1, 0, 0], [0, 0, 0]]),
    (3, [[0, 0, 0], [0, 0, 1]]),
    (6, [[0, 1], [0, 0], [0, 0]]),   # rotated 90 degrees clockwise to be upright
    (8, [[0, 0], [0, 0], [1, 0]]),
    (2, [[0, 0, 1], [0, 0, 0]]),
])
def test_exif_orientation_is_applied(orientation, expected):
    from PIL import Image

    stored = np.zeros((2, 3, 3), np.uint8)
    stored[0, 0] = 255
    im = Image.fromarray(stored)
    exif = im.getexif()
    exif[0x0112] = orientation
    image, notes = read_image(_encoded(im, "PNG", exif=exif.tobytes()))
    np.testing.assert_array_equal(image[..., 0].round(), expected)
    assert any(f"EXIF orientation {orientation} applied" in n for n in notes) == (orientation != 1)


def test_the_notes_say_what_was_done():
    from PIL import Image

    _, notes = read_image(png_bytes(np.zeros((4, 5, 4), np.uint8)))
    assert notes == ("a PNG image, 5x4 pixels, RGBA, 8 bits per channel (divided by 255)",
                     "the alpha channel was dropped")
    frames = [Image.new("L", (4, 4), 80 * k) for k in range(3)]
    gif = io.BytesIO()
    frames[0].save(gif, format="GIF", save_all=True, append_images=frames[1:])
    _, notes = read_image(gif.getvalue())
    assert "the first of its 3 frames is shown" in notes
    cmyk = _encoded(Image.new("CMYK", (4, 4)), "JPEG")
    image, notes = read_image(cmyk)
    assert image.shape == (4, 4, 3) and "CMYK was converted to RGB" in notes


def test_special_files_are_refused_before_they_are_opened(tmp_path):
    """A named pipe would block the reader and /dev/zero never ends; both are refused at once (in a subprocess,
    so a regression hangs one child, not the test run)."""
    fifo = tmp_path / "upload.png"
    os.mkfifo(fifo)
    code = ("import sys\nfrom explorer.images import load_image, ImageError\n"
            "for path in sys.argv[1:]:\n"
            "    try:\n        load_image(path)\n    except ImageError as exc:\n        print(exc)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(fifo), "/dev/zero", str(tmp_path)], capture_output=True,
                          text=True, timeout=60, check=False)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "is a named pipe (FIFO), not a regular file" in lines[0]
    assert "'/dev/zero' is a character device" in lines[1]
    assert "is a directory" in lines[2]


def test_reads_are_bounded_whatever_size_the_source_reports(tmp_path, monkeypatch):
    monkeypatch.setattr(images, "MAX_FILE_BYTES", 1000)

    class Endless(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, buffer):
            buffer[:] = b"\0" * len(buffer)
            return len(buffer)

    with pytest.raises(ImageError, match="more bytes than the limit of 1000"):
        load_image(io.BufferedReader(Endless()))
    big = tmp_path / "big.png"
    big.write_bytes(b"\0" * 2000)
    with pytest.raises(ImageError, match="more than the limit of 1000"):
        load_image(big)
    with pytest.raises(ImageError, match="2000 bytes, more than the limit of 1000"):
        load_image(bytearray(2000))


def test_the_decoding_budget_is_checked_on_the_header(monkeypatch):
    data = png_bytes(np.zeros((300, 200, 3), np.uint8))
    monkeypatch.setattr(images, "MAX_DECODE_BYTES", 2**20)
    with pytest.raises(ImageError, match="decoding this 200x300 RGB image would take about 1 MiB, more than the "
                                         "limit of 1 MiB"):
        load_image(data)


def test_loading_a_large_image_costs_its_pixels_and_float32_result_only():
    """A flat 3000x3000 RGB PNG is a small file: decoding it holds the 27 MB of pixels and the 108 MB float32
    result (float64 copies used to double that twice)."""
    from PIL import Image

    data = _encoded(Image.new("RGB", (3000, 3000), (10, 200, 30)), "PNG")
    tracemalloc.start()
    image = load_image(data)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert image.shape == (3000, 3000, 3) and image.dtype == np.float32
    assert peak < 3000 * 3000 * (3 * 3 + 12) * 1.1
