"""Core ML conversion (coremltools) records: version bounds pinned by facts found outside the knowledge base, the
wording each release prints, what diagnose makes of the texts users paste, and the installed coremltools re-run.

A row says whether a record must hold at one coremltools release (records of ``coreml.toml``: their versions are
coremltools releases) or at one converter release (the TensorFlow frontend's records of ``tensorflow.toml``,
``converter = "coremltools"``), with the quoted source at a tag (``git grep`` of apple/coremltools at that tag)
or the measurement that decides it.  The record's range is never read to write a row.  The measured rows were run
with torch 2.13.0 (and tensorflow 2.21.0) and the coremltools 7.2, 8.3.0 and 9.0 wheels; the live tests below
re-run the installed release.
"""

from __future__ import annotations

import logging
import re
import traceback
import warnings

import pytest

import explorer
from explorer.advisor import knowledge

KB = knowledge.load()

#: (record id, coremltools release, holds there, what decides it)
PINNED = [
    ("coreml-fixed-size-flexible-input", "4.1", False,
     "apple/coremltools frontend/torch/ops.py @ 4.1 line 1540: '(output_size[0] + 1e-4) / float(input_shape[-2])' "
     "raises a TypeError before any const is added"),
    ("coreml-fixed-size-flexible-input", "5.0", True,
     "ops.py @ 5.0 line 2208: 'Hout / Hin if Hout % Hin == 0 else (Hout + 1e-4) / Hin'; builder.py @ 5.0 line 75: "
     "raise ValueError('Cannot add const {}'.format(val))"),
    ("coreml-fixed-size-flexible-input", "7.2", True, "measured: 'Cannot add const 40.0001/is2' (builder.py:85)"),
    ("coreml-fixed-size-flexible-input", "8.3.0", True, "measured: the two-line text (builder.py:122)"),
    ("coreml-fixed-size-flexible-input", "9.0", True, "measured: the two-line text (builder.py:122)"),
    ("coreml-fixed-size-flexible-input", "7.2", True,
     "measured: the torch bilinear (align_corners=False) prints 'Cannot add const 40.0001/is0' (builder.py:85)"),
    ("coreml-fixed-size-flexible-input", "9.0", True,
     "measured: tf.image.resize(x, [40, 40]) on [1, None, None, 3] with tensorflow 2.21.0: "
     "'Cannot add const 40.0001/is18'"),
    ("coreml-fixed-size-flexible-input-bilinear-typeerror", "7.2", False, "measured: 'Cannot add const' instead"),
    ("coreml-fixed-size-flexible-input-bilinear-typeerror", "8.0", False,
     "ops.py @ 8.0: the float check on one branch"),
    ("coreml-fixed-size-flexible-input-bilinear-typeerror", "8.1", True,
     "ops.py @ 8.1: the float check on every branch"),
    ("coreml-fixed-size-flexible-input-bilinear-typeerror", "8.3.0", True,
     "measured: TypeError 'Cannot convert expression to float' (sympy 1.14.0)"),
    ("coreml-fixed-size-flexible-input-bilinear-typeerror", "9.0", True,
     "measured: ops.py line 4137 upsample_bilinear2d -> line 3941 _is_float_value"),
    ("coreml-fixed-size-flexible-input-4.x", "4.0", True, "ops.py @ 4.0 line 1336: '/ float(input_shape[-2])'"),
    ("coreml-fixed-size-flexible-input-4.x", "4.1", True, "ops.py @ 4.1 line 1540: '/ float(input_shape[-2])'"),
    ("coreml-fixed-size-flexible-input-4.x", "5.0", False, "git grep 'float(input_shape' @ 5.0b1 ... 9.0: 0 hits"),
    ("coreml-mil-upsample-symbolic-shape-4.x", "4.0", True,
     "mil/ops/defs/image_resizing.py @ 4.0 line 149: 'ret_shape[-1] = np.floor(self.scale_factor_width.val * "
     "ret_shape[-1])' (apple/coremltools#1104 quotes this line)"),
    ("coreml-mil-upsample-symbolic-shape-4.x", "4.1", True,
     "image_resizing.py @ 4.1 lines 61 and 167, no symbol check"),
    ("coreml-mil-upsample-symbolic-shape-4.x", "5.0", False,
     "image_resizing.py @ 5.0 line 193: '... if not is_symbolic(ret_shape[-1]) else get_new_symbol()'"),
    ("coreml-mil-upsample-symbolic-shape-4.x", "9.0", False,
     "measured: a constant scale_factor converts with ct.RangeDim inputs on 7.2, 8.3.0 and 9.0"),
    ("coreml-torch-size-int8-wrap-4.0-beta", "4.0b3", True,
     "apple/coremltools#951: 'Incompatible dim 2 in shapes (1, 16, -112, 112) vs. (1, 16, 144, 112)' on 4.0b3"),
    ("coreml-torch-size-int8-wrap-4.0-beta", "4.0", False,
     "apple/coremltools#951: the model converts on the top of tree of 2020-10-01 (4.0b4), before 4.0"),
    ("coreml-nn-nearest-fallback-needs-ios14", "6.2", False,
     "op_mapping.py @ 6.2 add_upsample_nn raises 'Unsupported float type' (no bilinear fallback before 9065fdc0)"),
    ("coreml-nn-nearest-fallback-needs-ios14", "6.3", True,
     "op_mapping.py @ 6.3 add_upsample_nn: mode='BILINEAR', linear_upsample_mode='ALIGN_CORNERS_TRUE'"),
    ("coreml-nn-nearest-fallback-needs-ios14", "7.2", True, "measured: the iOS13 align-corners message"),
    ("coreml-nn-nearest-fallback-needs-ios14", "8.3.0", True, "measured: the iOS13 align-corners message"),
    ("coreml-nn-nearest-fallback-needs-ios14", "9.0", True, "measured: the iOS13 align-corners message"),
    ("coreml-torch-dynamic-size-not-a-factor", "4.1", False,
     "apple/coremltools @ 4.1: no frontend/torch/ssa_passes/torch_upsample_to_core_upsample.py"),
    ("coreml-torch-dynamic-size-not-a-factor", "5.0", True,
     "torch_upsample_to_core_upsample.py @ 5.0 line 35: raise ValueError('Unable to map {} to core upsample' ...)"),
    ("coreml-torch-dynamic-size-not-a-factor", "7.2", True, "measured: size=y.shape[2:] with flexible x and y"),
    ("coreml-torch-dynamic-size-not-a-factor", "8.3.0", True, "measured: size=y.shape[2:] with flexible x and y"),
    ("coreml-torch-dynamic-size-not-a-factor", "9.0", True, "measured: also with minimum_deployment_target=iOS17"),
    ("coreml-align-corners-needs-ios14", "4.0", True,
     "apple/coremltools#774 (4.0b); _deployment_compatibility.py @ 4.0"),
    ("coreml-align-corners-needs-ios14", "9.0", True, "measured on 7.2, 8.3.0 and 9.0"),
]

#: (record id, coremltools release, holds there, what decides it): the TF frontend's records (tensorflow.toml)
CONVERTER_PINNED = [
    ("coreml-tf-nearest-dynamic-size", "6.3", False,
     "git grep 'Cannot determine the scale factor for the resize layer' @ 6.3 and 7.0b1: 0 hits"),
    ("coreml-tf-nearest-dynamic-size", "7.0", True, "frontend/tensorflow/ops.py @ 7.0 line 2674 (#1913)"),
    ("coreml-tf-nearest-dynamic-size", "9.0", True, "measured with tensorflow 2.21.0"),
    ("coreml-tf-bilinear-dynamic-size", "4.0", True,
     "ops.py @ 4.0 line 2166: '\"ResizeBilinear\" op: the second input, which is the output size, must be known "
     "statically'"),
    ("coreml-tf-bilinear-dynamic-size", "9.0", True, "measured with tensorflow 2.21.0 (the iOS17 hint)"),
    ("coreml-tf-nearest-fixed-size-flexible-input", "4.1", False,
     "ops.py @ 4.1: no 'scaling_factor_h < 1' (4.x compares 'Hout < Hin')"),
    ("coreml-tf-nearest-fixed-size-flexible-input", "5.0", True, "ops.py @ 5.0 line 2264: 'scaling_factor_h < 1'"),
    ("coreml-tf-nearest-fixed-size-flexible-input", "9.0", True,
     "measured: 'cannot determine truth value of Relational: 40.0001/is32 < 1'"),
    ("coreml-tf-crop-and-resize-nearest", "4.0", True,
     "ops.py @ 4.0 line 2532: 'CropResize op: Unsupported method {}. Supports {}' with method_map {'bilinear': ...}"),
    ("coreml-tf-crop-and-resize-nearest", "9.0", True, "measured with tensorflow 2.21.0"),
    ("coreml-tf-crop-and-resize-extrapolation", "5.2", False,
     "git grep 'only extrapolation_value=0.0 is supported' @ 5.2: 0 hits"),
    ("coreml-tf-crop-and-resize-extrapolation", "6.0", True, "frontend/tensorflow/ops.py @ 6.0: present"),
    ("coreml-tf-crop-and-resize-extrapolation", "9.0", True, "measured: '... Got 1.0' with target iOS15"),
    ("coreml-tf-bicubic", "4.0", True, "git grep ResizeBicubic in frontend/tensorflow*/ops.py @ 4.0: 0 hits"),
    ("coreml-tf-bicubic", "9.0", True, "measured: \"Conversion for TF op 'ResizeBicubic' not implemented.\""),
    ("coreml-tf-antialias-scale-and-translate", "9.0", True,
     "measured: \"Conversion for TF op 'ScaleAndTranslate' not implemented.\" for antialias=True"),
]

#: (record id, coremltools release, the wording it prints)
WORDINGS = [
    ("coreml-fixed-size-flexible-input", "7.2", "Cannot add const {scale}"),
    ("coreml-fixed-size-flexible-input", "8.0",
     "Cannot add const {scale}\nPython native vals (list, tuple), np.array that areoperation inputs cannot have "
     "symbolic values. Consider feedingsymbolic shape in through placeholder and use mb.shape() operator. Input "
     "{name}_scale_factor_height: {scale}"),
    ("coreml-fixed-size-flexible-input", "8.3.0",
     "Cannot add const {scale}\nPython native vals (list, tuple), np.array that are operation inputs cannot have "
     "symbolic values. Consider feeding symbolic shape in through placeholder and use mb.shape() operator. Input "
     "{name}_scale_factor_height: {scale}"),
    ("coreml-align-corners-needs-ios14", "4.1",
     "Provided minimum deployment target requires model to be of version 4 but converted model uses following "
     "features which are available from version 5 onwards. 1. Upsample operation with Align Corners mode"),
    ("coreml-align-corners-needs-ios14", "5.0",
     "Provided minimum deployment target requires model to be of version 4 but converted model uses following "
     "features which are available from version 5 onwards. Please use a higher minimum deployment target to "
     "convert. \n    1. Upsample operation with Align Corners mode"),
]

_FLOOR_LINE = ('File ".../coremltools/converters/mil/mil/ops/defs/image_resizing.py", line 149, in type_inference\n'
               '    ret_shape[-1] = np.floor(self.scale_factor_width.val * ret_shape[-1])\n'
               '  File ".../sympy/core/expr.py", line 350, in __float__\n'
               '    raise TypeError("can\'t convert expression to float")')

#: (pasted text, the record diagnose must answer with, or None when no record may claim it)
DIAGNOSED = [
    (_FLOOR_LINE, "coreml-mil-upsample-symbolic-shape-4.x"),
    ('File ".../coremltools/converters/mil/mil/builder.py", line 75, in _add_const\n'
     '    raise ValueError("Cannot add const {}".format(val))\nValueError: Cannot add const 5.0001/is57',
     "coreml-fixed-size-flexible-input"),
    ("RuntimeError: PyTorch convert function for op upsample_nearest2d not implemented",
     "torch-coreml-nearest-4.0-beta"),
    ("x = F.interpolate(x, scale_factor=2)\nValueError: Incompatible dim 2 in shapes (1, 16, -112, 112) vs. "
     "(1, 16, 144, 112)", "coreml-torch-size-int8-wrap-4.0-beta"),
    ('File ".../coremltools/converters/mil/frontend/torch/ops.py", line 1597, in upsample_nearest2d\n'
     '    scales = _get_scales_from_output_size(output_size, _input.shape)\n'
     'File ".../coremltools/converters/mil/frontend/torch/ops.py", line 1540, in _get_scales_from_output_size\n'
     '    scales_h = (output_size[0] + 1e-4) / float(input_shape[-2])\nTypeError: can\'t convert expression to float',
     "coreml-fixed-size-flexible-input-4.x"),
    ('File ".../coremltools/converters/mil/frontend/torch/ops.py", line 4137, in upsample_bilinear2d\n'
     '    is_h_float = _is_float_value(scales_h)\nTypeError: Cannot convert expression to float',
     "coreml-fixed-size-flexible-input-bilinear-typeerror"),
    ("ValueError: Provided minimum deployment target requires model to be of version 4 but converted model uses "
     "following features which are available from version 5 onwards. Please use a higher minimum deployment target "
     "to convert. \n    1. Upsample operation with Align Corners mode", "coreml-align-corners-needs-ios14"),
    ('  return F.interpolate(x, scale_factor=1.5, mode="nearest")\nValueError: Provided minimum deployment target '
     "requires model to be of version 4 but converted model uses following features which are available from "
     "version 5 onwards. Please use a higher minimum deployment target to convert. \n    1. Upsample operation with "
     "Align Corners mode", "coreml-nn-nearest-fallback-needs-ios14"),
    ("ValueError: Cannot determine the scale factor for the resize layer. Please make sure the target size is known "
     "statically, or use mul op to get the target size. If the target size has to be dynamic, pleaseset "
     "minimum_deployment_target to iOS17 during conversion.", "coreml-tf-nearest-dynamic-size"),
    ("NotImplementedError: Cannot determine the scale factor for the bilinear resize layer.",
     "coreml-tf-bilinear-dynamic-size"),
    ("ValueError: CropResize op: Unsupported method nearest. Supports dict_keys(['bilinear'])",
     "coreml-tf-crop-and-resize-nearest"),
    ("ValueError: Unable to map torch_upsample_bilinear to core upsample", "coreml-torch-dynamic-size-not-a-factor"),
    ("NotImplementedError: Conversion for TF op 'ResizeArea' not implemented.", "coreml-tf-area"),
    ("NotImplementedError: Conversion for TF op 'ResizeBicubic' not implemented.", "coreml-tf-bicubic"),
    # a length against its int8 wrap (144 / -112, 128 / -128) is the signature of the 4.0 betas' interpolate size
    ("ValueError: Incompatible dim 2 in shapes (1, 16, -112, 112) vs. (1, 16, 144, 112)",
     "coreml-torch-size-int8-wrap-4.0-beta"),
    ('ValueError: Dimension mismatch in concat ("input.64"): shapes [1, 128, 128, 128] vs. (1, 128, -128, -128)',
     "coreml-torch-size-int8-wrap-4.0-beta"),
    # the same texts from ops that are no resizes are not claimed
    ("ValueError: Incompatible dim 1 in shapes (1, -1, 32) vs. (1, 255, 32)", None),
    ('ValueError: Dimension mismatch in concat ("x"): shapes [1, 12, 8] vs. (1, 13, 8)', None),
    ("ValueError: Incompatible dim 1 in shapes (is14, 18, 32, 512) vs. (is14, 17, 31, 512)", None),
    ('File ".../coremltools/converters/mil/mil/builder.py", line 75, in _add_const\nValueError: Cannot add const '
     "[1, is0, 64]", None),
    ("[TypeInference] Error fetching padding values: can't convert expression to float (coremltools)", None),
    ("NotImplementedError: Conversion for TF op 'Conv2DBackpropFilter' not implemented.", None),
]


@pytest.mark.parametrize("record_id, release, holds, why", PINNED, ids=lambda x: x if isinstance(x, str) else None)
def test_bound_agrees_with_the_pinned_fact(record_id, release, holds, why):
    record = KB.record(record_id)
    assert record.library == "coreml"
    assert record.versions.contains(release) is holds, f"{record_id} at coremltools {release}: {why}"


@pytest.mark.parametrize("record_id, release, holds, why", CONVERTER_PINNED,
                         ids=lambda x: x if isinstance(x, str) else None)
def test_converter_bound_agrees_with_the_pinned_fact(record_id, release, holds, why):
    record = KB.record(record_id)
    assert record.converter == "coremltools"
    assert record.converter_versions.contains(release) is holds, f"{record_id} at coremltools {release}: {why}"


@pytest.mark.parametrize("record_id, release, text", WORDINGS, ids=lambda x: x if x in {r for r, *_ in WORDINGS}
                         else None)
def test_each_release_prints_its_wording(record_id, release, text):
    assert KB.record(record_id).text_at(release) == text


@pytest.mark.parametrize("text, expected", DIAGNOSED, ids=lambda x: None if x is None or "\n" in x or len(x) > 40
                         else x)
def test_diagnose(text, expected):
    answer = explorer.diagnose(text)
    found = [f.record_id for f in answer.findings] if answer.matched else []
    if expected is None:
        assert not [r for r in found if KB.record(r).operation == "export_coreml"], (text, found)
    else:
        assert found and found[0] == expected, (text, found, answer.message)
        assert KB.record(expected).operation == "export_coreml"


# ----------------------------------------------------------------------------------------------- the installed release
def _convert_torch(call_kwargs: dict, shape=(1, 3, 20, 20), flexible=True, **convert_kw) -> str:
    """Convert a traced F.interpolate with the installed coremltools; the traceback and message ('' when it
    converts)."""
    torch = pytest.importorskip("torch")
    ct = pytest.importorskip("coremltools")

    class Interpolate(torch.nn.Module):
        def forward(self, x):
            kwargs = {k: (v(x) if callable(v) else v) for k, v in call_kwargs.items()}
            return torch.nn.functional.interpolate(x, **kwargs)

    if flexible:
        flexible_shape = (1, shape[1], ct.RangeDim(8, 64, default=shape[2]), ct.RangeDim(8, 64, default=shape[3]))
    target = convert_kw.pop("convert_to", "mlprogram")
    if target == "mlprogram":
        convert_kw["skip_model_load"] = True
    logging.disable(logging.WARNING)
    # torch.jit.trace is deprecated in torch 2.13 and coremltools warns about the torch release: not under test
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        try:
            traced = torch.jit.trace(Interpolate().eval(), torch.rand(*shape))
            ct.convert(traced, inputs=[ct.TensorType(name="x", shape=flexible_shape if flexible else shape)],
                       convert_to=target, **convert_kw)
            return ""
        except Exception as exc:  # the converter's error under test
            return "".join(traceback.format_exception(exc))
        finally:
            logging.disable(logging.NOTSET)


def _coremltools_version() -> str:
    ct = pytest.importorskip("coremltools")
    return re.match(r"[\d.]+", ct.__version__).group(0).rstrip(".")


def _pattern(template: str) -> str:
    parts = re.split(r"\{[^{}]*\}", template)
    return r".*?".join(r"\s+".join(map(re.escape, p.split())) for p in parts)


def _check_live(record_id: str, seen: str):
    record = KB.record(record_id)
    version = _coremltools_version()
    assert record.versions.contains(version), f"{record_id} does not hold for the installed coremltools {version}"
    texts = [record.text_at(version), *record.also_seen]
    assert any(re.search(_pattern(t), seen, re.S) for t in texts), (record_id, seen[-1500:])
    answer = explorer.diagnose(seen)
    assert answer.matched and answer.findings[0].record_id == record_id, (record_id, answer.message)


def test_fixed_size_nearest_on_a_flexible_input_with_the_installed_coremltools():
    seen = _convert_torch({"size": (40, 40), "mode": "nearest"})
    assert re.search(r"\d\.0001/is\d+", seen), seen[-800:]
    _check_live("coreml-fixed-size-flexible-input", seen)


def test_fixed_size_bilinear_on_a_flexible_input_with_the_installed_coremltools():
    seen = _convert_torch({"size": (40, 40), "mode": "bilinear", "align_corners": False})
    version = _coremltools_version()
    typeerror = KB.record("coreml-fixed-size-flexible-input-bilinear-typeerror")
    record_id = typeerror.id if typeerror.versions.contains(version) else "coreml-fixed-size-flexible-input"
    _check_live(record_id, seen)


def test_fixed_size_tf_resize_on_a_flexible_input_with_the_installed_coremltools():
    """tf.image.resize (half-pixel ResizeBilinear) to a constant size: the TF frontend's scale is symbolic too."""
    tf = pytest.importorskip("tensorflow")
    ct = pytest.importorskip("coremltools")
    fn = tf.function(lambda x: tf.image.resize(x, [40, 40]), input_signature=[tf.TensorSpec([1, None, None, 3])])
    logging.disable(logging.WARNING)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        try:
            ct.convert([fn.get_concrete_function()], source="tensorflow", convert_to="mlprogram",
                       skip_model_load=True)
            seen = ""
        except Exception as exc:  # the converter's error under test
            seen = "".join(traceback.format_exception(exc))
        finally:
            logging.disable(logging.NOTSET)
    _check_live("coreml-fixed-size-flexible-input", seen)


@pytest.mark.parametrize("mode", ["nearest", "bilinear"])
def test_the_fixes_convert_with_a_flexible_input(mode):
    """What the records advise: a size computed from the input's shape, or a constant scale factor."""
    from_shape = {"size": lambda x: (x.shape[-2] * 2, x.shape[-1] * 2), "mode": mode}
    assert _convert_torch(from_shape) == ""
    assert _convert_torch({"scale_factor": 2.0, "mode": mode}) == ""
    assert not KB.record("coreml-mil-upsample-symbolic-shape-4.x").versions.contains(_coremltools_version())


@pytest.mark.parametrize("mode", ["nearest", "bilinear"])
def test_a_size_read_from_another_tensor_is_not_a_factor(mode):
    """F.interpolate(x, size=y.shape[2:]) with both inputs flexible: no constant factor for the core upsample."""
    torch = pytest.importorskip("torch")
    ct = pytest.importorskip("coremltools")

    class Skip(torch.nn.Module):
        def forward(self, x, y):
            return torch.nn.functional.interpolate(x, size=y.shape[2:], mode=mode) + y

    logging.disable(logging.WARNING)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        try:
            traced = torch.jit.trace(Skip().eval(), (torch.rand(1, 3, 10, 10), torch.rand(1, 3, 20, 20)))
            dims = {"x": 10, "y": 20}
            inputs = [ct.TensorType(name=k, shape=(1, 3, ct.RangeDim(4, 64, default=n), ct.RangeDim(4, 64, default=n)))
                      for k, n in dims.items()]
            ct.convert(traced, inputs=inputs, convert_to="mlprogram", skip_model_load=True)
            seen = ""
        except Exception as exc:  # the converter's error under test
            seen = "".join(traceback.format_exception(exc))
        finally:
            logging.disable(logging.NOTSET)
    assert f"torch_upsample_{'nearest_neighbor' if mode == 'nearest' else 'bilinear'}" in seen, seen[-800:]
    _check_live("coreml-torch-dynamic-size-not-a-factor", seen)


def test_fractional_nearest_for_ios13_fails_with_the_align_corners_message():
    ct = pytest.importorskip("coremltools")
    seen = _convert_torch({"scale_factor": 1.5, "mode": "nearest"}, shape=(1, 3, 8, 8), flexible=False,
                          convert_to="neuralnetwork", minimum_deployment_target=ct.target.iOS13)
    assert "Upsample operation with Align Corners mode" in seen, seen[-800:]
    record = KB.record("coreml-nn-nearest-fallback-needs-ios14")
    assert record.versions.contains(_coremltools_version())
    assert re.search(_pattern(record.error_text), seen, re.S)
    # the same conversion for iOS14 succeeds: the fallback layer only needs spec 5
    assert _convert_torch({"scale_factor": 1.5, "mode": "nearest"}, shape=(1, 3, 8, 8), flexible=False,
                          convert_to="neuralnetwork", minimum_deployment_target=ct.target.iOS14) == ""


def test_align_corners_for_ios13_prints_the_current_wording():
    ct = pytest.importorskip("coremltools")
    seen = _convert_torch({"scale_factor": 2.0, "mode": "bilinear", "align_corners": True}, shape=(1, 3, 8, 8),
                          flexible=False, convert_to="neuralnetwork", minimum_deployment_target=ct.target.iOS13)
    _check_live("coreml-align-corners-needs-ios14", seen)
