"""SciPy, scikit-image and kornia records built from four public threads: version bounds pinned by facts found
outside the knowledge base, what diagnose makes of the texts the threads quote, and the installed libraries
re-run.

A row says whether a record must hold at one release, with the measurement that decides it (the failing call and
the working one run on neighbouring releases from PyPI: SciPy 1.9.3, 1.14.1, 1.15.0, 1.15.3, 1.16.3 on Python
3.11; kornia 0.6.4 ... 0.6.9 and 0.8.3 with torch 2.13.0+cpu) or the source quoted at a tag (``git show`` /
``git grep`` of the library's repository at that tag, where no wheel of the release installs on a current
Python).  The record's range is never read to write a row, so moving a bound breaks the test.
"""

from __future__ import annotations

import pytest

import explorer
from explorer.advisor import knowledge

KB = knowledge.load()

#: (record id, release, holds there, what decides it)
PINNED = [
    # scipy.misc.imresize -> toimage's shape check
    ("scipy-misc-imresize-array-shape", "0.9.0", False,
     "scipy/scipy scipy/misc/pilutil.py @ v0.9.0: assert valid, 'Not a suitable array shape for any mode.' (an "
     "AssertionError, not this text)"),
    ("scipy-misc-imresize-array-shape", "0.10.0", True,
     "scipy/scipy scipy/misc/pilutil.py @ v0.10.0: raise ValueError(\"'arr' does not have a suitable array shape "
     "for any mode.\")"),
    ("scipy-misc-imresize-array-shape", "1.2.3", True,
     "scipy/scipy scipy/misc/pilutil.py @ v1.2.3 line 327: the raise; line 555: imresize calls toimage(arr, "
     "mode=mode)"),
    ("scipy-misc-imresize-array-shape", "1.3.0", False, "scipy/scipy @ v1.3.0: no scipy/misc/pilutil.py"),
    # ndimage.zoom with a 0-d array factor
    ("scipy-zoom-0d-array-factor-before-1.15", "1.9.3", True,
     "measured: SciPy 1.9.3 (NumPy 1.25.2), zoom(np.ones((4, 4)), np.array(2.0)): TypeError: iteration over a "
     "0-d array"),
    ("scipy-zoom-0d-array-factor-before-1.15", "1.14.1", True,
     "measured: SciPy 1.14.1 (NumPy 2.2.6): the same TypeError, _interpolation.py line 813 -> _ni_support.py "
     "line 65 'normalized = list(input)' (the thread's traceback)"),
    ("scipy-zoom-0d-array-factor-before-1.15", "1.15.0", False,
     "measured: SciPy 1.15.0 (NumPy 2.2.6) returns an (8, 8) array; git tag --contains 336c31c50 (#21672, "
     "np.iterable) -> v1.15.0rc1 first"),
    ("scipy-zoom-0d-array-factor-before-1.15", "1.16.3", False, "measured: SciPy 1.16.3 returns an (8, 8) array"),
    ("scipy-zoom-0d-array-factor-before-1.15", "1.17.1", False, "measured: SciPy 1.17.1 returns an (8, 8) array"),
    # skimage.transform.resize(anti_aliasing=...)
    ("skimage-resize-no-anti-aliasing-before-0.14", "0.13.0", True,
     "scikit-image/scikit-image git grep anti_aliasing v0.13.0 -- skimage/transform/_warps.py: 0 hits "
     "(yuanqing811/ISIC2018#12 ran 0.13.0)"),
    ("skimage-resize-no-anti-aliasing-before-0.14", "0.13.1", True,
     "scikit-image/scikit-image _warps.py @ v0.13.1: def resize(image, output_shape, order=1, mode=None, cval=0, "
     "clip=True, preserve_range=False)"),
    ("skimage-resize-no-anti-aliasing-before-0.14", "0.14.0", False,
     "scikit-image/scikit-image _warps.py @ v0.14.0 line 35: preserve_range=False, anti_aliasing=None, "
     "anti_aliasing_sigma=None"),
    ("skimage-resize-no-anti-aliasing-before-0.14", "0.26.0", False,
     "measured: scikit-image 0.26.0 resize(x, (7,), anti_aliasing=False) runs"),
    # kornia.augmentation.Resize.inverse
    ("kornia-augmentation-resize-inverse-padding-mode", "0.6.4", False,
     "measured: kornia 0.6.4, Resize((4, 5)) then .inverse(out) returns (1, 1, 4, 6)"),
    ("kornia-augmentation-resize-inverse-padding-mode", "0.6.5", True,
     "measured: kornia 0.6.5, KeyError: 'padding_mode' (resize.py line 86, inverse_transform)"),
    ("kornia-augmentation-resize-inverse-padding-mode", "0.6.8", True,
     "measured: kornia 0.6.8, KeyError: 'padding_mode' (resize.py line 82); resize.py @ v0.6.8: "
     "flags['padding_mode'] read, never set"),
    ("kornia-augmentation-resize-inverse-padding-mode", "0.6.9", False,
     "measured: kornia 0.6.9 returns (1, 1, 4, 6); resize.py @ v0.6.9 line 88: flags['resample'].name.lower(), "
     "'zeros' (750b34b1c, #2054)"),
    ("kornia-augmentation-resize-inverse-padding-mode", "0.8.3", False,
     "measured: kornia 0.8.3 returns (1, 1, 4, 6)"),
]

#: texts quoted in the threads (paths shortened), and the record diagnose must name first
DIAGNOSED = [
    ('  File ".../scipy/misc/pilutil.py", line 411, in imresize\n    im = toimage(arr, mode=mode)\n'
     '  File ".../scipy/misc/pilutil.py", line 228, in toimage\n'
     '    raise ValueError("\'arr\' does not have a suitable array shape for any mode.")\n'
     "ValueError: 'arr' does not have a suitable array shape for any mode.", "scipy-misc-imresize-array-shape"),
    ("TypeError: resize() got an unexpected keyword argument 'anti_aliasing'",
     "skimage-resize-no-anti-aliasing-before-0.14"),
    ('  File ".../kornia/augmentation/_2d/geometric/resize.py", line 88, in inverse_transform\n'
     '    input, transform[:, :2, :], size, flags["resample"], flags["padding_mode"], flags["align_corners"]\n'
     "KeyError: 'padding_mode", "kornia-augmentation-resize-inverse-padding-mode"),
    ('  File ".../scipy/ndimage/_interpolation.py", line 813, in zoom\n'
     "    zoom = _ni_support._normalize_sequence(zoom, input.ndim)\n"
     '  File ".../scipy/ndimage/_ni_support.py", line 65, in _normalize_sequence\n'
     "    normalized = list(input)\nTypeError: iteration over a 0-d array", "scipy-zoom-0d-array-factor-before-1.15"),
    # the same texts without a resize beside them are not claimed: NumPy prints the first for any iteration of a
    # 0-d array, toimage the second for imsave / imshow / imrotate too, and a KeyError names any missing key
    ("TypeError: iteration over a 0-d array", None),
    ('  File ".../scipy/misc/pilutil.py", line 217, in imsave\n    im = toimage(arr, channel_axis=2)\n'
     "ValueError: 'arr' does not have a suitable array shape for any mode.", None),
    ("KeyError: 'padding_mode'", None),
]

NEW = {r for r, *_ in PINNED}


@pytest.mark.parametrize("record_id, release, holds, why", PINNED, ids=lambda x: x if isinstance(x, str) else None)
def test_bound_agrees_with_the_pinned_fact(record_id, release, holds, why):
    record = KB.record(record_id)
    assert record.versions.contains(release) is holds, f"{record_id} at {release}: {why}"


@pytest.mark.parametrize("text, expected", DIAGNOSED, ids=lambda x: None if x is None or "\n" in x or len(x) > 40
                         else x)
def test_diagnose(text, expected):
    answer = explorer.diagnose(text)
    found = [f.record_id for f in answer.findings] if answer.matched else []
    if expected is None:
        assert not NEW & set(found), (text, found)
    else:
        assert found and found[0] == expected, (text, found, answer.message)


def test_every_new_record_is_pinned_on_both_sides_of_each_bound():
    for record_id in NEW:
        holds = {h for r, _, h, _ in PINNED if r == record_id}
        assert holds == {True, False}, record_id


# ----------------------------------------------------------------------------------------------- the installed release
def test_the_installed_scipy_zooms_by_a_0d_array():
    """The live side of scipy-zoom-0d-array-factor-before-1.15's end: the installed release (1.15 or later) takes
    a 0-d array as the zoom factor; a Python float, the workaround, gives the same array."""
    scipy = pytest.importorskip("scipy")
    import numpy as np
    from scipy import ndimage

    from explorer.versions import parse_version

    x = np.arange(16, dtype=float).reshape(4, 4)
    y = ndimage.zoom(x, np.array(2.0), order=1)
    assert y.shape == (8, 8)
    np.testing.assert_array_equal(y, ndimage.zoom(x, 2.0, order=1))
    assert parse_version(scipy.__version__) >= parse_version("1.15")
    assert not KB.record("scipy-zoom-0d-array-factor-before-1.15").versions.contains(scipy.__version__)


def test_the_installed_scipy_has_no_imresize():
    """The live side of scipy-misc-imresize-array-shape's end: scipy.misc of the installed release (1.3 or later)
    has no imresize and no toimage."""
    import importlib
    import warnings

    scipy = pytest.importorskip("scipy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # scipy.misc itself is deprecated from 1.10
        try:
            misc = importlib.import_module("scipy.misc")
        except ImportError:  # and to be removed in 2.0
            misc = None
    assert not hasattr(misc, "imresize") and not hasattr(misc, "toimage")
    assert not KB.record("scipy-misc-imresize-array-shape").versions.contains(scipy.__version__)


def test_the_installed_skimage_takes_anti_aliasing():
    """The live side of skimage-resize-no-anti-aliasing-before-0.14's end: resize and rescale of the installed
    release take anti_aliasing and anti_aliasing_sigma."""
    skimage = pytest.importorskip("skimage")
    import numpy as np
    from skimage.transform import rescale, resize

    x = np.tile([1.0, 0.0], 200).reshape(20, 20)
    assert resize(x, (7, 7), anti_aliasing=True, anti_aliasing_sigma=0.5).shape == (7, 7)
    assert rescale(x, 0.5, anti_aliasing=False).shape == (10, 10)
    assert not KB.record("skimage-resize-no-anti-aliasing-before-0.14").versions.contains(skimage.__version__)


def test_the_installed_kornia_inverts_a_resize():
    """The live side of kornia-augmentation-resize-inverse-padding-mode: the installed release inverts a Resize
    augmentation exactly where the record says it does."""
    torch = pytest.importorskip("torch")
    kornia = pytest.importorskip("kornia")

    aug = kornia.augmentation.Resize((4, 5))
    out = aug(torch.rand(1, 1, 4, 6))
    record = KB.record("kornia-augmentation-resize-inverse-padding-mode")
    if record.versions.contains(kornia.__version__):
        with pytest.raises(KeyError, match="padding_mode"):
            aug.inverse(out)
    else:
        assert aug.inverse(out).shape == (1, 1, 4, 6)
