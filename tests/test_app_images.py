"""Built-in test images and the validation of the user's images (arrays, files, bytes)."""

import io

import numpy as np
import pytest

from explorer import images
from explorer.images import ImageError, as_image, fit_image, load_image, test_image


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
