"""Records written from four thread texts (TensorFlow.js's missing WASM ResizeNearestNeighbor kernel as 3.2.0 and
2.8.6 print it, tfjs 0.x's missing resizeNearestNeighbor gradient, TensorFlow 1.13 refusing a graph whose resize
nodes carry half_pixel_centers): their version bounds pinned by facts found outside the knowledge base, the
wording each release prints, and what diagnose makes of the texts.

A row says whether a record must hold at one release, with the source quoted at a tag (``git show`` of
tensorflow/tfjs or tensorflow/tfjs-core at that tag) or in a release's files (the tensorflow wheel's
``gen_image_ops.py``).  The record's range is never read to write a row, so moving a bound breaks the test.
"""

from __future__ import annotations

import pytest

import explorer
from explorer.advisor import knowledge

KB = knowledge.load()

#: (record id, release, holds there, what decides it)
PINNED = [
    # tfjs: the WASM backend's kernels (tfjs monorepo tags)
    ("tfjs-wasm-resize-kernels", "2.7.0", True,
     "tensorflow/tfjs tfjs-backend-wasm/src @ tfjs-v2.7.0: no ResizeNearestNeighbor kernel; tensorflow/tfjs#4386"),
    ("tfjs-wasm-resize-kernels", "2.8.6", True,
     "tfjs-backend-wasm/src @ tfjs-v2.8.6: no file or line names ResizeNearestNeighbor"),
    ("tfjs-wasm-resize-kernels", "3.2.0", True,
     "tfjs-backend-wasm/src @ tfjs-v3.2.0: no file or line names ResizeNearestNeighbor"),
    ("tfjs-wasm-resize-kernels", "3.18.0", True,
     "tfjs-backend-wasm/src @ tfjs-v3.18.0: no file or line names ResizeNearestNeighbor"),
    ("tfjs-wasm-resize-kernels", "3.19.0", False,
     "tfjs-backend-wasm/src/register_all_kernels.ts @ tfjs-v3.19.0 line 206: resizeNearestNeighborConfig "
     "(kernels/ResizeNearestNeighbor.ts, d26c9cc56 '[wasm] Adds ResizeNearestNeighbor to wasm kernel (#6524)')"),
    # tfjs 0.x: the gradient (tensorflow/tfjs-core tags; @tensorflow/tfjs 0.11.7 -> tfjs-core 0.11.9, 0.12.0 -> 0.12.0)
    ("tfjs-resize-nearest-no-gradient-before-0.12", "0.11.7", True,
     "tensorflow/tfjs-core src/ops/image_ops.ts @ v0.11.9 lines 117-120: ENV.engine.runKernel(backend => "
     "backend.resizeNearestNeighbor(...), {batchImages}) with no backward"),
    ("tfjs-resize-nearest-no-gradient-before-0.12", "0.12.0", False,
     "src/ops/image_ops.ts @ v0.12.0: const backward = ... backend.resizeNearestNeighborBackprop(dy, batchImages, "
     "alignCorners) (4922c6faf, #1118)"),
    ("tfjs-resize-nearest-no-gradient-before-0.12", "1.2.8", False,
     "tensorflow/tfjs tfjs-core/src/ops/image_ops.ts @ tfjs-v1.2.8: ENGINE.runKernel(forward, {batchImages}, backward)"),
    # TensorFlow: the op wrappers generated from each release's op registry (PyPI wheels)
    ("tf-graph-half-pixel-centers-attr-before-1.14", "1.12.0", True,
     "tensorflow 1.12.0 wheel, gen_image_ops.py: def resize_bilinear(images, size, align_corners=False, name=None)"),
    ("tf-graph-half-pixel-centers-attr-before-1.14", "1.13.1", True,
     "tensorflow 1.13.1 wheel, gen_image_ops.py line 2817: def resize_bilinear(images, size, align_corners=False, "
     "name=None); no half_pixel_centers in the file"),
    ("tf-graph-half-pixel-centers-attr-before-1.14", "1.13.2", True,
     "tensorflow 1.13.2 wheel, gen_image_ops.py: no half_pixel_centers in the file"),
    ("tf-graph-half-pixel-centers-attr-before-1.14", "1.14.0", False,
     "tensorflow 1.14.0 wheel, gen_image_ops.py line 3282: def resize_bilinear(images, size, align_corners=False, "
     "half_pixel_centers=False, name=None); resize_nearest_neighbor line 3468, resize_bicubic line 3097"),
]

#: (record id, release, the text that release prints), read at the tag
WORDINGS = [
    ("tfjs-wasm-resize-kernels", "2.0.0",
     "'resizeNearestNeighbor' not yet implemented or not found in the registry. Did you forget to import the kernel?"),
    ("tfjs-wasm-resize-kernels", "2.7.0",
     "'resizeNearestNeighbor' not yet implemented or not found in the registry. This kernel may not be supported by "
     "the tfjs backend you have chosen"),
    ("tfjs-wasm-resize-kernels", "2.8.0", "Error running ResizeNearestNeighbor: Neither modular kernel nor forward func passed"),
    ("tfjs-wasm-resize-kernels", "2.8.6", "Error running ResizeNearestNeighbor: Neither modular kernel nor forward func passed"),
    ("tfjs-wasm-resize-kernels", "3.0.0", "Kernel 'ResizeNearestNeighbor' not registered for backend 'wasm'"),
    ("tfjs-wasm-resize-kernels", "3.2.0", "Kernel 'ResizeNearestNeighbor' not registered for backend 'wasm'"),
    ("tfjs-wasm-resize-kernels", "3.18.0", "Kernel 'ResizeNearestNeighbor' not registered for backend 'wasm'"),
]

#: (text as quoted in the thread, the record that explains it)
TEXTS = [
    ("engine.js:391 Uncaught (in promise) Error: Kernel 'ResizeNearestNeighbor' not registered for backend 'wasm'\n"
     "    at Engine2.runKernel (engine.js:391)\n    at resizeNearestNeighbor_ (resize_nearest_neighbor.js:60)",
     "tfjs-wasm-resize-kernels"),
    ("Error: Error running ResizeNearestNeighbor: Neither modular kernel nor forward func passed",
     "tfjs-wasm-resize-kernels"),
    ("Uncaught (in promise) Error: Cannot compute gradient: gradient function not found for resizeNearestNeighbor.",
     "tfjs-resize-nearest-no-gradient-before-0.12"),
    ("ValueError: NodeDef mentions attr 'half_pixel_centers' not in Op<name=ResizeBilinear",
     "tf-graph-half-pixel-centers-attr-before-1.14"),
]

#: texts of the same shape about other operations: none of the new records may claim them
LOOK_ALIKES = [
    "Error: Kernel 'Cumsum' not registered for backend 'wasm'",
    "Error: Kernel 'Conv3D' not registered for backend 'wasm'\n    at Engine2.runKernel (engine.js:391)",
    "Error: Error running Conv3D: Neither modular kernel nor forward func passed",
    "Uncaught (in promise) Error: Cannot compute gradient: gradient function not found for cumsum.",
    "ValueError: NodeDef mentions attr 'explicit_paddings' not in Op<name=MaxPool; signature=input:T -> output:T; "
    "attr=T:type,default=DT_FLOAT; attr=ksize:list(int),min=4>; NodeDef: pool1 = MaxPool[T=DT_FLOAT](conv1). "
    "(Check whether your GraphDef-interpreting binary is up to date with your GraphDef-generating binary.).",
    "ValueError: NodeDef mentions attr 'Truncate' not in Op<name=Cast; signature=x:SrcT -> y:DstT; attr=SrcT:type; "
    "attr=DstT:type>; NodeDef: ToFloat = Cast[DstT=DT_FLOAT, SrcT=DT_UINT8, Truncate=false](image_tensor).",
]
NEW = {"tfjs-wasm-resize-kernels", "tfjs-resize-nearest-no-gradient-before-0.12",
       "tf-graph-half-pixel-centers-attr-before-1.14"}


@pytest.mark.parametrize("record_id, release, holds, why", PINNED, ids=lambda x: x if isinstance(x, str) else None)
def test_bound_agrees_with_the_pinned_fact(record_id, release, holds, why):
    assert KB.record(record_id).versions.contains(release) is holds, f"{record_id} at {release}: {why}"


@pytest.mark.parametrize("record_id, release, text", WORDINGS)
def test_each_release_prints_its_wording(record_id, release, text):
    assert KB.record(record_id).text_at(release) == text


def test_wasm_record_is_about_nearest_only():
    """Every published @tensorflow/tfjs-backend-wasm has ResizeBilinear: kernels/ResizeBilinear.ts (b2442e9f6,
    2019-11-27) is in tfjs-backend-wasm-v1.4.0-alpha1, the first wasm tag (npm's first
    version is 1.5.0-alpha4)."""
    assert tuple(KB.record("tfjs-wasm-resize-kernels").modes) == ("resizeNearestNeighbor",)


@pytest.mark.parametrize("record_id", sorted(NEW - {"tfjs-resize-nearest-no-gradient-before-0.12"}))
def test_records_caused_by_an_argument_say_so(record_id):
    """A WASM run and a graph from a newer release are not in check()'s question: the record must not be
    reported for every call."""
    assert KB.record(record_id).when.get("argument")


@pytest.mark.parametrize("text, record_id", TEXTS)
def test_diagnose_names_the_record(text, record_id):
    findings = explorer.diagnose(text).findings
    assert findings and findings[0].record_id == record_id, [f.record_id for f in findings]


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_diagnose_does_not_claim_look_alikes(text):
    assert not {f.record_id for f in explorer.diagnose(text).findings} & NEW
