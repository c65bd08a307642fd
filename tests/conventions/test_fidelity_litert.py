"""Large-size oracle: ``library_resize(..., library="litert")`` against the ai-edge-litert interpreter, for each of
its kernel sets (XNNPACK delegate, builtin, reference), on float32, uint8, int8 and int16 models converted by
TensorFlow.

Sizes log-uniform up to 4096 per axis in 2-D and 100 000 for one-row images (tests/fidelity.py); each draw of a
configuration is one model holding all its cases.  Float32 bilinear within ``fidelity.forward_tolerance``; nearest
and the quantized kernels compared in LSB (bit-exact expected, at most 1 allowed).  Where the 10-bit integer
kernel reads past the end of the input (its unclamped lower tap on the last row) the explorer refuses, and the
case is checked to be one: its last output then reads an index past the input.
"""

from __future__ import annotations

import fidelity
import numpy as np
import pytest
from fidelity import forward_error, lsb_error, record

from explorer.conventions import library_resize

pytest.importorskip("tensorflow", reason="TensorFlow is an oracle installed by the 'oracles' extra")
pytest.importorskip("ai_edge_litert", reason="ai-edge-litert is an oracle installed by the 'oracles' extra")
from litert_models import RESOLVERS, convert, run  # noqa: E402

pytestmark = pytest.mark.oracle

FLAGS = [{}, {"half_pixel_centers": True}, {"align_corners": True}]
CONFIGS = ([("RESIZE_BILINEAR", f, d) for f in FLAGS for d in ("float32", "uint8", "int8", "int16")]
           + [("RESIZE_NEAREST_NEIGHBOR", f, d) for f in FLAGS for d in ("float32", "uint8")])


def _draw(gen, k, key, elements):
    if (k + len(key)) % 3 == 0:  # a one-row image up to 100 000 wide
        n, m = fidelity.sizes_1d(gen)
        return 1, n, 1, m
    return fidelity.sizes_2d(gen, elements, top=4096)


def _integer_reads_past_end(h, w, out_h, out_w, flags):
    """Whether ResizeBilinearInteger's last output reads past the (h, w) input: its lower taps are not clamped, so
    a column index w reads the next row (google-ai-edge/LiteRT tflite/kernels/internal/reference/
    resize_bilinear.h @ v2.2.0, ComputeInterpolationValuesInteger)."""
    def last_taps(n, m):
        if flags.get("align_corners") and m > 1:
            scale = (1024 * (n - 1) + (m - 1) // 2) // (m - 1)
        else:
            scale = (1024 * n + m // 2) // m
        value = (m - 1) * scale + (scale // 2 - 512 if flags.get("half_pixel_centers") else 0)
        lower = max(int(np.trunc(value / 1024)), 0)
        upper = min(int(np.trunc((value + 1023) / 1024)), n - 1)
        return max(lower, upper)
    return last_taps(h, out_h) * w + last_taps(w, out_w) >= h * w


@pytest.mark.parametrize("op,flags,dtype", CONFIGS, ids=[f"{o}-{'-'.join(f) or 'legacy'}-{d}" for o, f, d in CONFIGS])
def test_at_large_sizes(op, flags, dtype):
    gen = fidelity.rng("litert", op, tuple(flags.items()), dtype)
    cases, xs = [], []
    for k in range(fidelity.count(3)):
        h, w, H, W = _draw(gen, k, dtype + op, fidelity.budget(150_000 if dtype == "float32" else 60_000))
        shape = (1, h, w, 1)
        if dtype == "float32":
            x = gen.random(shape).astype(np.float32)
        else:
            info = np.iinfo(dtype)
            x = gen.integers(info.min, int(info.max) + 1, shape).astype(dtype)
        cases.append((shape, (H, W)))
        xs.append(x)
    model = convert(op, cases, flags.get("align_corners", False), flags.get("half_pixel_centers", False), dtype)
    for kernels in RESOLVERS:
        ys = run(model, xs, kernels)
        for x, y, (shape, size) in zip(xs, ys, cases):
            case = f"{op} {flags} {kernels} {shape[1:3]} -> {size}"
            integer10 = dtype == "int16" or (dtype == "int8" and kernels != "xnnpack")
            if op == "RESIZE_BILINEAR" and integer10 and _integer_reads_past_end(*shape[1:3], *size, flags):
                with pytest.raises(ValueError, match="reads past the end of the input"):
                    library_resize(x, size, library="litert", mode=op, axes=(1, 2), kernels=kernels, **flags)
                continue
            got = library_resize(x, size, library="litert", mode=op, axes=(1, 2), kernels=kernels, **flags)
            if dtype == "float32" and op == "RESIZE_BILINEAR":
                error = record(f"litert ({kernels})", dtype, "forward", forward_error(got, y), case)
                assert error <= fidelity.forward_tolerance(np.float32, x.shape, y.shape, (1, 2)), case
            elif dtype == "float32":
                error = record(f"litert ({kernels})", dtype, "forward", forward_error(got, y), case)
                assert error == 0, case
            else:
                error = record(f"litert ({kernels})", dtype, "integer (LSB)", lsb_error(got, y), case)
                assert error <= 1, f"{case}: {error} LSB"
