"""Version bounds of the knowledge base pinned by the measured matrix: for each row, a committed cell of every
measured release of a runtime says whether the record's fact holds there (a call refused with its text, a
gradient that fails, a convention the output equals), and the record's range must contain exactly the releases
where it does.  The outcome is read from the measurement files (``python -m explorer.probe``), never from the
record, so moving a bound across a measured release, or a release that behaves otherwise, fails here."""

from __future__ import annotations

import pytest

from explorer.advisor import knowledge
from explorer.probe import matrix

KB = knowledge.load()
DATA = matrix.load()


def refused(text):
    """The call fails (convert, load or run) with ``text`` in its error."""
    return lambda cell, _: cell.status == "error" and text in cell.outcome.get("error", "")


def runs(cell, _):
    """The call runs and agrees with the explorer's computation of it."""
    return cell.status == "ok" and cell.outcome.get("verdict") in ("exact", "close")


def converts(cell, _):
    """A Core ML conversion succeeds (prediction does not run on Linux: the cell is skipped after it)."""
    return cell.status == "skipped" and cell.outcome.get("stage") == "run"


def gradient_fails(text):
    """The forward runs and its gradient (or second derivative) fails with ``text``."""
    return lambda cell, _: cell.status == "ok" and text in (cell.outcome.get("gradient_error") or {}).get("error", "")


def gradient_runs(cell, _):
    return cell.status == "ok" and not cell.outcome.get("gradient_error") and \
        cell.outcome.get("gradient_verdict") in ("exact", "close")


def equals(label, not_label):
    """The output equals the convention ``label`` and not ``not_label`` (the matrix's ``equals`` list)."""
    return lambda cell, data: cell.status == "ok" and label in data.equals(cell) and not_label not in data.equals(cell)


def clamps_uint8(cell, _):
    """A uint8 output within one step of the explorer's (which saturates to [0, 255])."""
    return cell.status == "ok" and cell.outcome.get("verdict") in ("exact", "close")


def float_result_of_uint8(cell, _):
    """A uint8 input comes back as float32 and not equal to the explorer's rounded, saturated uint8."""
    return cell.status == "ok" and cell.outcome.get("output_dtype") == "float32" and \
        cell.outcome.get("verdict") != "exact"


#: (record id, runtime, case id, the outcome that means the record holds, True: the record's converter range)
ROWS = [
    ("tf-bilinear-second-order-error", "tensorflow", "tensorflow/second-order/bilinear/default/float32/up-size",
     gradient_fails("gradient registry has no entry for: ResizeBilinearGrad"), False),
    ("tf-bilinear-second-order-none", "tensorflow", "tensorflow/second-order/bilinear/default/float32/up-size",
     gradient_fails("the second derivative is None"), False),
    ("tf-second-order-other-modes", "tensorflow", "tensorflow/second-order/nearest/default/float32/up-size",
     gradient_fails("gradient registry has no entry for: ResizeNearestNeighborGrad"), False),
    ("tf-second-order-other-modes", "tensorflow", "tensorflow/second-order/bicubic/default/float32/up-size",
     gradient_fails("gradient registry has no entry for: ResizeBicubicGrad"), False),
    ("tf-area-no-gradient", "tensorflow", "tensorflow/area/default/float32/up-size",
     gradient_fails("gradient registry has no entry for: ResizeArea"), False),
    ("tf-xla-bilinear-half-pixel-grad", "tensorflow", "tensorflow/xla/bilinear/default/float32/up-size",
     gradient_fails("ResizeBilinearGrad with align_corners=False or half_pixel_centers=True is not yet implemented"),
     False),
    ("tf-xla-bilinear-half-pixel-grad", "tensorflow",
     "tensorflow/xla/v1/bilinear/v1+half_pixel_centers/float32/down-size",
     gradient_fails("ResizeBilinearGrad with align_corners=False or half_pixel_centers=True is not yet implemented"),
     False),
    ("tf-xla-nearest-grad", "tensorflow", "tensorflow/xla/nearest/default/float32/up-size",
     gradient_fails("on XLA_CPU_JIT: ResizeNearestNeighborGrad"), False),
    ("tf-xla-unsupported-resize", "tensorflow", "tensorflow/xla/bicubic/default/float32/up-size",
     refused("on XLA_CPU_JIT: ResizeBicubic"), False),
    ("tf-xla-unsupported-resize", "tensorflow", "tensorflow/xla/area/default/float32/down-size",
     refused("on XLA_CPU_JIT: ResizeArea"), False),
    ("tf-xla-unsupported-resize", "tensorflow", "tensorflow/xla/lanczos3/default/float32/up-size",
     refused("on XLA_CPU_JIT: ScaleAndTranslate"), False),
    ("tf-xla-antialias", "tensorflow", "tensorflow/xla/bilinear/aa/float32/down-size",
     refused("on XLA_CPU_JIT: ScaleAndTranslate"), False),
    ("keras-tf-area-before-3.6", "keras-tensorflow", "keras-tensorflow/ops.image.resize/area/default/float32/up-size",
     refused("Invalid value for argument `interpolation`"), False),
    ("keras-area-tf", "keras-tensorflow", "keras-tensorflow/ops.image.resize/area/default/float32/down-size", runs,
     False),
    ("keras-tf-uint8-wraps-before-3.6", "keras-tensorflow",
     "keras-tensorflow/ops.image.resize/bicubic/default/uint8/up-size", lambda c, d: not clamps_uint8(c, d), False),
    ("keras-tf-uint8-wraps-before-3.6", "keras-tensorflow",
     "keras-tensorflow/ops.image.resize/lanczos3/default/uint8/up-size", lambda c, d: not clamps_uint8(c, d), False),
    ("keras-jax-uint8-float-result-before-3.6", "keras-jax",
     "keras-jax/ops.image.resize/bilinear/default/uint8/down-size", float_result_of_uint8, False),
    ("keras-jax-uint8-float-result-before-3.6", "keras-jax",
     "keras-jax/ops.image.resize/bicubic/default/uint8/up-size", float_result_of_uint8, False),
    ("keras-jax-uint8-float-result-before-3.6", "keras-jax",
     "keras-jax/ops.image.resize/lanczos3/default/uint8/down-size", float_result_of_uint8, False),
    ("keras-jax-uint8-float-result-before-3.6", "keras-jax",
     "keras-jax/ops.image.resize/lanczos5/default/uint8/up-size", float_result_of_uint8, False),
    ("keras-resizing-antialias-missing", "keras-tensorflow",
     "keras-tensorflow/layers.Resizing/bilinear/aa/float32/up-size",
     refused("Unrecognized keyword arguments passed to Resizing: {'antialias': True}"), False),
    ("keras-resizing-antialias-missing", "keras-jax", "keras-jax/layers.Resizing/bicubic/default/float32/down-size",
     refused("Unrecognized keyword arguments passed to Resizing: {'antialias': False}"), False),
    ("keras-area-tf-only", "keras-jax", "keras-jax/ops.image.resize/area/default/float32/up-size",
     refused("Invalid value for argument `interpolation`"), False),
    ("jax-cubic-pytorch-missing", "jax", "jax/cubic-pytorch/no-aa/float32/up-size",
     refused('Unknown resize method "cubic-pytorch"'), False),
    ("jax-cubic-pytorch-antialias", "jax", "jax/cubic-pytorch/default/float32/up-size",
     equals("jax:cubic", "torch:bicubic"), False),
    ("jax-area-missing", "jax", "jax/area/default/float32/up-size", refused('Unknown resize method "area"'), False),
    ("jax-area-convention", "jax", "jax/area/default/float32/down-size", runs, False),
    ("torch-coreml-bilinear-aa-before-8.1", "coremltools", "coreml/mlprogram/bilinear/aa/float32/down-size",
     refused("PyTorch convert function for op '_upsample_bilinear2d_aa' not implemented"), True),
    ("torch-coreml-bilinear-aa-dropped", "coremltools", "coreml/mlprogram/bilinear/aa/float32/down-size", converts,
     True),
    ("torch-coreml-bicubic", "coremltools", "coreml/mlprogram/bicubic/default/float32/down-size",
     refused("PyTorch convert function for op 'upsample_bicubic2d' not implemented"), True),
    ("torch-coreml-unregistered-modes", "coremltools", "coreml/mlprogram/nearest-exact/default/float32/down-size",
     refused("PyTorch convert function for op '_upsample_nearest_exact2d' not implemented"), True),
]


def _rows():
    for record_id, runtime, case_id, holds, converter in ROWS:
        for release in DATA.release_list(runtime):
            yield pytest.param(record_id, runtime, release, case_id, holds, converter,
                               id=f"{record_id}@{runtime}-{release}:{case_id.split('/', 1)[1]}")


@pytest.mark.parametrize("record_id, runtime, release, case_id, holds, converter", list(_rows()))
def test_the_record_holds_exactly_at_the_releases_where_it_is_measured(record_id, runtime, release, case_id, holds,
                                                                       converter):
    record = KB.record(record_id)
    cell = DATA.cell(runtime, release, case_id)
    assert cell is not None, f"{runtime} {release} has no cell {case_id}: measure it (python -m explorer.probe)"
    measured = bool(holds(cell, DATA))
    versions = record.converter_versions if converter else record.versions
    assert versions.contains(release) is measured, (
        f"{record_id} ({versions}) at {runtime} {release}: measured {'holds' if measured else 'does not hold'} "
        f"({cell.label}: {cell.outcome.get('error') or (cell.outcome.get('gradient_error') or {}).get('error', '')})")


#: records whose bound falls between two measured releases (the others' bounds lie outside the releases
#: measured, e.g. ``torch-coreml-bicubic <9.1`` with 9.0 the newest coremltools: pinned at their sources)
BOTH_SIDES = ("tf-bilinear-second-order-error", "tf-bilinear-second-order-none", "tf-xla-bilinear-half-pixel-grad",
              "keras-tf-area-before-3.6", "keras-area-tf", "keras-tf-uint8-wraps-before-3.6",
              "keras-jax-uint8-float-result-before-3.6", "keras-resizing-antialias-missing",
              "jax-cubic-pytorch-missing", "jax-cubic-pytorch-antialias", "jax-area-missing", "jax-area-convention",
              "torch-coreml-bilinear-aa-before-8.1", "torch-coreml-bilinear-aa-dropped")


@pytest.mark.parametrize("record_id", BOTH_SIDES)
def test_the_bound_is_measured_on_both_sides(record_id):
    """Some measured release lies inside the record's range and some outside: the rows above pin the bound."""
    rows = [(rt, converter) for rid, rt, _, _, converter in ROWS if rid == record_id]
    assert rows, f"{record_id} has no row"
    runtime, converter = rows[0]
    record = KB.record(record_id)
    versions = record.converter_versions if converter else record.versions
    inside = [r for r in DATA.release_list(runtime) if versions.contains(r)]
    assert inside and len(inside) < len(DATA.release_list(runtime)), (record_id, str(versions), inside)
