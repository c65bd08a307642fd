"""Version bounds pinned by facts found outside the knowledge base: a measured outcome of a real release, or a
quoted source at a tag (``git grep`` of the runtime's repository at that tag).  Each row says whether the
record must hold at one release; the record's range is never read to write the row, so moving a bound breaks
the test.  The live rows run the installed library."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.advisor import knowledge

KB = knowledge.load()

#: (record id, release, holds there, what decides it)
PINNED = [
    ("pillow-resampling-enum-before-9.1", "9.0.1", True,
     "python-pillow/Pillow src/PIL/Image.py @ 9.0.1 defines no Resampling class"),
    ("pillow-resampling-enum-before-9.1", "9.1.0", False,
     "python-pillow/Pillow src/PIL/Image.py @ 9.1.0: class Resampling(IntEnum) (line 205)"),
    ("pillow-resize-size-not-two", "13.0.0", True,
     "measured: Pillow 13.0.0 Image.resize((2, 2, 2)) raises 'argument 1 must be sequence of length 2, not 3'"),
    ("opencv-zero-dsize", "5.1.0", True,
     "measured: opencv-python-headless 5.1.0 cv2.resize(img, (0, 0), fx=0, fy=0) raises inv_scale_x > 0"),
    ("tf-resize-images-unknown-size-shape-before-2.3", "2.2.0", True,
     "tensorflow-cpu 2.2.0 wheel, image_ops_impl.py: new_height_const = size_const_as_shape.dims[0].value"),
    ("tf-resize-images-unknown-size-shape-before-2.3", "2.1.0", True,
     "tensorflow-cpu 2.1.0 wheel, tensorflow_core/python/ops/image_ops_impl.py: the same line"),
    ("tf-resize-images-unknown-size-shape-before-2.3", "2.3.0", False,
     "tensorflow-cpu 2.3.0 wheel: tensor_shape.dimension_at_index(size_const_as_shape, 0).value"),
    ("keras2-upsampling3d-static-dims-before-2.0.7", "2.0.6", True,
     "keras-team/keras keras/backend/tensorflow_backend.py @ 2.0.6: repeat_elements raises 'Axis ... should have a "
     "defined dimension, but is None'"),
    ("keras2-upsampling3d-static-dims-before-2.0.7", "2.0.7", False,
     "98238720ee 'Allow dynamic shape for repeat_elements (#7422)': git tag --contains -> 2.0.7 first"),
    ("keras2-upsampling3d-static-dims-before-2.0.7", "1.2.2", False,
     "keras/backend/tensorflow_backend.py @ 1.2.2 has no such text"),
    ("keras2-upsampling3d-static-dims-before-2.0.7", "3.15.1", False,
     "measured: Keras 3.15.1 UpSampling3D on an Input((None, None, None, 1)) builds"),
    ("keras-upsampling3d-no-interpolation", "2.15.0", True,
     "keras/layers/reshaping/up_sampling3d.py @ v2.15.0: __init__(self, size=(2, 2, 2), data_format=None, **kwargs)"),
    ("keras-upsampling3d-no-interpolation", "3.15.1", True,
     "measured: Keras 3.15.1 UpSampling3D(interpolation='trilinear') raises 'Unrecognized keyword arguments'"),
    ("torch-cuda-bfloat16-bilinear-1x", "2.0.1", True,
     "pytorch/pytorch#80339, 2023-04-02 (after 2.0.0): 'currently included in the nightly release. It will be a "
     "part of torch 2.1'"),
    ("torch-cuda-bfloat16-bilinear-1x", "2.1.0", False, "pytorch/pytorch#80339 (bfloat16 upsampling ships in 2.1)"),
    ("torch-lanczos-missing-before-2.12", "2.11.0", True,
     "native_functions.yaml of the 2.11.0 wheel registers no _upsample_lanczos2d_aa"),
    ("torch-lanczos-missing-before-2.12", "2.12.0", False, "native_functions.yaml of the 2.12.0 wheel registers it"),
    ("torch-lanczos-missing-before-2.12", "2.13.0", False, "measured: the installed 2.13.0 runs mode='lanczos'"),
    ("ort-float16-scales-invalid", "1.15.1", True, "measured: onnxruntime 1.15.1 InvalidGraph"),
    ("ort-float16-scales-invalid", "1.24.4", True, "measured: onnxruntime 1.24.4 InvalidGraph"),
    ("ort-float16-scales-invalid", "1.32.0", True, "measured: onnxruntime 1.32.0 InvalidGraph"),
    ("pillow-i16-filter-wrong-mode", "10.4.0", True,
     "python-pillow/Pillow 04a00d273 'Support all resampling filters when resizing I;16* images' is not in 10.4.0"),
    ("pillow-i16-filter-wrong-mode", "11.0.0", False, "git tag --contains 04a00d273 -> 11.0.0 first"),
    ("pillow-i16-filter-wrong-mode", "13.0.0", False, "measured: Pillow 13.0.0 resizes I;16 with BICUBIC"),
    ("kornia-augmentation-resize-inverse-size", "0.6.8", False,
     "kornia/kornia git grep 'Gotcha {type(size)}' @ v0.6.8: 0 hits"),
    ("kornia-augmentation-resize-inverse-size", "0.6.9", True, "kornia/kornia git grep @ v0.6.9: in resize.py"),
    ("kornia-resize-argument-checks", "0.6.0", True, "kornia/kornia affwarp.py @ v0.6.0: both texts"),
    ("kornia-resize-argument-checks", "0.8.3", True, "kornia/kornia affwarp.py @ v0.8.3: both texts"),
    ("tinygrad-interpolate-modes", "0.9.0", False, "tinygrad/tinygrad git grep @ v0.9.0: 0 hits"),
    ("tinygrad-interpolate-modes", "0.10.0", True, "tinygrad/tinygrad tinygrad/tensor.py @ v0.10.0: both asserts"),
    ("tinygrad-onnx-invalid-coordinate-mode", "0.10.0", False, "tinygrad/tinygrad git grep @ v0.10.0: 0 hits"),
    ("tinygrad-onnx-invalid-coordinate-mode", "0.11.0", True, "tinygrad/tinygrad frontend/onnx.py @ v0.11.0"),
    ("tensorrt-7.0-asymmetric-only", "7.0", True,
     "onnx/onnx-tensorrt @ 7.0: 'only supports asymmetric resize!' present"),
    ("tensorrt-7.0-asymmetric-only", "7.1", False, "onnx/onnx-tensorrt @ 7.1: absent"),
    ("tensorrt-7-nearest-floor-only", "7.2.1", True,
     "onnx/onnx-tensorrt @ 7.2.1: 'This version of TensorRT only supports floor nearest_mode!' present"),
    ("tensorrt-7-nearest-floor-only", "8.0", False, "onnx/onnx-tensorrt @ 8.0-GA: absent"),
    ("tensorrt-cubic-missing-before-8.5", "8.4", True,
     "onnx/onnx-tensorrt @ 8.4-GA: 'does not support cubic interpolation!' present"),
    ("tensorrt-cubic-missing-before-8.5", "8.5", False, "onnx/onnx-tensorrt @ 8.5-GA: absent"),
    ("tensorrt-mode-name", "8.4", False, "onnx/onnx-tensorrt @ 8.4-GA: no 'Invalid Resize mode'"),
    ("tensorrt-mode-name", "8.5", True, "onnx/onnx-tensorrt @ 8.5-GA: 'Invalid Resize mode'"),
    ("tensorrt-antialias-rejected", "9.3", False, "onnx/onnx-tensorrt @ 9.3: no 'Antialiasing is not supported'"),
    ("tensorrt-antialias-rejected", "10.0", True, "onnx/onnx-tensorrt @ 10.0-GA: the antialias check"),
    ("tensorrt-antialias-ignored-before-10", "9.3", True, "onnx/onnx-tensorrt @ 9.3: antialias never read"),
    ("tensorrt-antialias-ignored-before-10", "10.0", False, "onnx/onnx-tensorrt @ 10.0-GA: refused instead"),
    ("tensorrt-keep-aspect-ratio-rejected", "9.3", False, "onnx/onnx-tensorrt @ 9.3: no 'Only `stretch`'"),
    ("tensorrt-keep-aspect-ratio-rejected", "10.0", True, "onnx/onnx-tensorrt @ 10.0-GA: 'Only `stretch`'"),
    ("tensorrt-axes-runtime-scales", "9.3", False, "onnx/onnx-tensorrt @ 9.3: no axesInterlacingNeeded"),
    ("tensorrt-axes-runtime-scales", "10.0", True, "onnx/onnx-tensorrt @ 10.0-GA: axesInterlacingNeeded"),
    ("tensorrt-scales-initializer", "8.0", True,
     "onnx/onnx-tensorrt @ 8.0-GA: 'Resize scales must be an initializer!' present"),
    ("tensorrt-scales-initializer", "8.4", False, "onnx/onnx-tensorrt @ 8.4-GA: absent"),
    ("ncnn-pnnx-nearest-exact", "20250503", False,
     "Tencent/ncnn git grep 'unsupported interpolate mode nearest-exact' @ 20250503: 0 hits"),
    ("ncnn-pnnx-nearest-exact", "20260113", True, "Tencent/ncnn @ 20260113: in pass_ncnn/F_interpolate.cpp"),
    ("migraphx-linear-runtime-scales", "6.1", False,
     "ROCm/AMDMIGraphX git grep 'linear mode not supported for non-constant inputs' @ rocm-6.1.0: 0 hits"),
    ("migraphx-linear-runtime-scales", "6.2", True, "ROCm/AMDMIGraphX @ rocm-6.2.0: present"),
    ("tvm-relay-upsample-inputs", "0.19.0", True,
     "apache/tvm tags/v0.19.0 has python/tvm/relay/frontend/onnx.py"),
    ("tvm-relay-upsample-inputs", "0.20.0", False, "apache/tvm tags/v0.20.0 has no Relay ONNX frontend"),
    ("tvm-relay-invalid-mode", "0.20.0", False, "apache/tvm tags/v0.20.0 has no Relay ONNX frontend"),
    ("tensorrt-7-coordinate-modes", "7.0", False, "onnx/onnx-tensorrt @ 7.0: no '... and pytorch_half_pixel resize!'"),
    ("tensorrt-7-coordinate-modes", "7.1", True, "onnx/onnx-tensorrt @ 7.1: present"),
    ("tensorrt-7-coordinate-modes", "8.0", False, "onnx/onnx-tensorrt @ 8.0-GA: absent"),
    ("tensorrt-7-nearest-coordinates", "7.1", True,
     "onnx/onnx-tensorrt @ 7.1: '... for nearest neighbor resizes when scales are provided!' present"),
    ("tensorrt-7-nearest-coordinates", "8.0", False, "onnx/onnx-tensorrt @ 8.0-GA: absent"),
    ("tensorrt-7-pytorch-half-pixel-length-1", "7.0", False,
     "onnx/onnx-tensorrt @ 7.0: no 'pytorch_half_pixel resizing for 1D interpolation!'"),
    ("tensorrt-7-pytorch-half-pixel-length-1", "7.1", True, "onnx/onnx-tensorrt @ 7.1: present"),
    ("tensorrt-7-pytorch-half-pixel-length-1", "8.0", False, "onnx/onnx-tensorrt @ 8.0-GA: absent"),
    ("tensorrt-7-linear-coordinates", "8.0", False, "onnx/onnx-tensorrt @ 8.0-GA: the 7.x coordinate assertion gone"),
    ("tvm-relay-opset18-attributes", "0.20.0", False, "apache/tvm tags/v0.20.0 has no Relay ONNX frontend"),
    ("ort-qnn-float-model-1.15", "1.16.3", True,
     "microsoft/onnxruntime resize_op_builder.cc @ v1.16.3: ValidateOp 'QNN Resize only supports nearest_mode: floor!'"),
    ("ort-qnn-float-model-1.15", "1.17.0", False, "resize_op_builder.cc @ v1.17.0: no ValidateOp (e70a23f8dc, #17641)"),
    ("ort-nnapi-resize-empty-input", "1.15.1", True,
     "nnapi base_op_builder.cc @ v1.15.1: every input of the node unit asked for a shape"),
    ("ort-nnapi-resize-empty-input", "1.16.0", False,
     "nnapi base_op_builder.cc @ v1.16.0: 'if (!input.node_arg.Exists()) continue;'"),
    ("ort-webgl-resize-empty-input", "1.15.1", True, "js/web/lib/onnxjs/graph.ts @ v1.15.1: no exception for ''"),
    ("ort-webgl-resize-empty-input", "1.16.0", False,
     "graph.ts @ v1.16.0: '' accepted for Resize (a3e02e8e2a, #16594; git tag --contains -> v1.16.0)"),
    ("onnx-tf-frontend-no-resize", "1.2.0", True, "onnx/onnx-tensorflow @ v1.2.0: onnx_tf/frontend.py present"),
    ("onnx-tf-frontend-no-resize", "1.3.0", False, "onnx/onnx-tensorflow @ v1.3.0: no onnx_tf/frontend.py"),
    ("onnx2tf-3d-resize-size-before-1.12.2", "1.11.11", True,
     "PINTO0309/onnx2tf Resize.py @ 1.11.11: new_size = graph_node_output.shape[-2:]"),
    ("onnx2tf-3d-resize-size-before-1.12.2", "1.12.2", False,
     "git tag --contains ad8308f8 (#366, shape[-len(numeric_bools):]) -> 1.12.2 first"),
    ("onnx2tf-cubic-coordinate-modes", "2.0.19", False, "git tag --contains 0809bf97 -> 2.0.20 first"),
    ("onnx2tf-cubic-coordinate-modes", "2.6.7", True, "PINTO0309/onnx2tf Resize.py @ 2.6.7 line 197"),
    ("onnx2tf-cubic-static-sizes", "2.0.19", False, "git tag --contains 0809bf97 -> 2.0.20 first"),
    ("onnx2tf-cubic-static-sizes", "2.6.7", True, "PINTO0309/onnx2tf Resize.py @ 2.6.7 line 190"),
    ("tvm-relax-resize-shape-expr-before-0.22", "0.21.0", True,
     "apache/tvm onnx_frontend.py @ tags/v0.21.0: 'Only constant scales currently supported.'"),
    ("tvm-relax-resize-shape-expr-before-0.22", "0.22.0", False,
     "git tag --contains a493c5707c (#18209: ShapeExpr scales/sizes) -> v0.22.0 first"),
    ("tvm-relax-resize-computed-scales", "0.23.0", False,
     "apache/tvm onnx_frontend.py @ tags/v0.23.0: assert f'Type {type(scales)} ...' (a string, never fires)"),
    ("tvm-relax-resize-computed-scales", "0.24.0", True, "onnx_frontend.py @ tags/v0.24.0: raise ValueError"),
    ("tvm-relay-scale-or-size", "0.19.0", True,
     "apache/tvm relay/frontend/onnx.py @ tags/v0.19.0 line 3998: 'One of scale or size should be passed, not both.'"),
    ("tvm-relay-scale-or-size", "0.20.0", False, "apache/tvm tags/v0.20.0 has no Relay ONNX frontend"),
    ("tinygrad-interpolate-size", "0.9.0", False, "tinygrad/tinygrad git grep 'invalid {size=}' @ v0.9.0: 0 hits"),
    ("tinygrad-interpolate-size", "0.10.0", True, "tinygrad/tinygrad tinygrad/tensor.py @ v0.10.0"),
    ("tinygrad-onnx-resize-batch-channel", "0.10.0", False, "tinygrad/tinygrad git grep @ v0.10.0: 0 hits"),
    ("tinygrad-onnx-resize-batch-channel", "0.11.0", True, "tinygrad/tinygrad tinygrad/frontend/onnx.py @ v0.11.0"),
    ("mnn-onnx-resize-converter-missing", "0.2.0.9", True,
     "alibaba/MNN @ 0.2.0.9: onnxConverter.cpp DCHECK NOT_SUPPORTED_OP and no 'Onnx Resize' converter"),
    ("mnn-onnx-resize-converter-missing", "0.2.1.2", False, "alibaba/MNN @ 0.2.1.2: OnnxUpsample.cpp converts Resize"),
    ("mnn-onnx-resize-input-count", "1.0.2", True,
     "alibaba/MNN OnnxUpsample.cpp @ 1.0.2 line 107: '(inputs.size() == 4) || (inputs.size() == 2)'"),
    ("mnn-onnx-resize-input-count", "1.1.0", False, "OnnxUpsample.cpp @ 1.1.0 line 108: 'inputs.size() >= 2'"),
    ("kornia-resize-antialias-even-kernel", "0.5.0", False, "kornia/kornia affwarp.py @ v0.5.0: no antialias"),
    ("kornia-resize-antialias-even-kernel", "0.5.7", True,
     "kornia/kornia affwarp.py @ 0.5.7 line 588: ks = int(2.0 * 2 * sigmas[0] + 1)"),
    ("kornia-resize-antialias-even-kernel", "0.5.8", False, "affwarp.py @ 0.5.8: '# Make sure it is odd'"),
    ("tensorrt-7.0-empty-constant-input", "7.0", True,
     "onnx/onnx-tensorrt ModelImporter.cpp @ 84b5be1 (7.0 release) line 175: 'if (output && !outputName.empty())'"),
    ("tensorrt-7.0-empty-constant-input", "7.1", False, "ModelImporter.cpp @ tags/release/7.1: 'output.is_weights()'"),
    ("migraphx-resize-operator-checks", "6.1", False,
     "ROCm/AMDMIGraphX op/resize.hpp @ rocm-6.1.2: no 'One and only one of sizes or scales'"),
    ("migraphx-resize-operator-checks", "6.2", True, "op/resize.hpp @ rocm-6.2.0: present"),
    ("openvino-myriad-interpolate-modes", "2022.3.2", True,
     "openvinotoolkit/openvino#25628: the text on 2022.3.2 MYRIAD"),
    ("openvino-myriad-interpolate-modes", "2023.0.2", False, "the openvino 2023.0.2 wheel ships no MYRIAD plugin"),
    ("tfjs-wasm-resize-kernels", "3.18.0", True,
     "tensorflow/tfjs: git tag --contains d26c9cc56 (wasm ResizeNearestNeighbor.ts) -> tfjs-v3.19.0 first"),
    ("tfjs-wasm-resize-kernels", "3.19.0", False, "tensorflow/tfjs @ tfjs-v3.19.0: the kernel is registered"),
    ("tfjs-converter-resize-nearest-2018", "1.2.8", False,
     "tensorflow/tfjs tfjs-converter/python/tensorflowjs/op_list/image.json @ tfjs-v1.2.8 lists ResizeNearestNeighbor"),
    ("candle-onnx-resize-nearest-floor-only", "0.9.1", False,
     "huggingface/candle candle-onnx/src/eval.rs @ 0.9.1: no Resize arm"),
    ("candle-onnx-resize-nearest-floor-only", "0.11.0", True, "candle-onnx/src/eval.rs @ 0.11.0 line 2333"),
    ("candle-onnx-no-resize-before-0.9.2", "0.9.1", True,
     "candle-onnx/src/eval.rs @ 0.9.1 line 1963: 'unsupported op_type {op_type} for op {node:?}', no Resize arm"),
    ("candle-onnx-no-resize-before-0.9.2", "0.10.0", False, "git tag --contains 36508a2c9 -> 0.9.2-alpha.1 first"),
    # the torch 1.x exporters: their source in the release wheels from PyPI (torch/onnx/*.py of each wheel)
    ("torch-onnx-1x-symbolic-missing", "1.2.0", True,
     "pytorch/pytorch#25515 (2019-08-31, torch/onnx/utils.py:562): the warning at opset 9"),
    ("torch-onnx-1x-symbolic-missing", "1.5.0", True,
     "torch 1.5.0 wheel, torch/onnx/utils.py line 737: '... torch.onnx.symbolic_opset{}.{} does not exist'"),
    ("torch-onnx-1x-symbolic-missing", "1.6.0", False, "torch 1.6.0 wheel: no 'does not exist' in torch/onnx/utils.py"),
    ("torch-onnx-1x-symbolic-missing", "1.7.1", False,
     "pytorch/pytorch#79601 (torch 1.7.1): 'Exporting the operator mode to ONNX opset version 12 is not supported'"),
    ("torch-onnx-1x-align-corners-below-11", "1.4.0", True,
     "pytorch/pytorch#29980 (1.4.0.dev20191113); torch 1.4.0 wheel symbolic_helper.py line 176: warnings.warn"),
    ("torch-onnx-1x-align-corners-below-11", "1.11.0", True,
     "torch 1.11.0 wheel, symbolic_helper.py line 258: _unimplemented warns unconditionally"),
    ("torch-onnx-1x-align-corners-below-11", "1.12.0", False,
     "torch 1.12.0 wheel, symbolic_helper.py line 435: warns only under _CAFFE2_ATEN_FALLBACK, else raises"),
    ("openvino-mkldnn-linear-onnx-cubic-5d", "2021.2.0", True,
     "openvinotoolkit/openvino#7050: the text on 2021.2.0 CPU"),
    ("pillow-10.4-resize-size-not-tuple", "10.3.0", False,
     "python-pillow/Pillow src/PIL/Image.py @ 10.3.0 line 2183: 'size = tuple(size)' before the early return"),
    ("pillow-10.4-resize-size-not-tuple", "10.4.0", True,
     "Pillow @ 10.4.0: no tuple(size); the early return at line 2297, the line of Pillow#8220's traceback"),
    ("pillow-10.4-resize-size-not-tuple", "11.0.0", False, "git tag --contains 936012e86 -> 11.0.0 first"),
    ("kornia-crop-larger-than-input-before-0.5.1", "0.5.0", True,
     "kornia/kornia random_generator/random_generator.py @ v0.5.0 line 392: the 2-D raise"),
    ("kornia-crop-larger-than-input-before-0.5.1", "0.5.1", False,
     "git tag --contains eef3eacd8 ('Allow crop size greater than input size', fixes #956) -> 0.5.1 first"),
    ("skimage-resize-output-shape-list-0.19", "0.18.3", False,
     "scikit-image skimage/transform/_warps.py @ v0.18.3: 'output_shape = tuple(output_shape)' before the append"),
    ("skimage-resize-output-shape-list-0.19", "0.19.1", True,
     "scikit-image _warps.py @ v0.19.1 line 63: output_shape + (image.shape[-1], ) without tuple()"),
    ("skimage-resize-output-shape-list-0.19", "0.19.2", False, "scikit-image _warps.py @ v0.19.2: tuple() restored"),
    ("coreml-ssa-resize-target-size-3x", "3.0", True,
     "apple/coremltools coremltools/converters/nnssa/coreml/ssa_converter.py @ 3.0 line 2045"),
    ("coreml-ssa-resize-target-size-3x", "3.4", True, "apple/coremltools ssa_converter.py @ 3.4 line 2410"),
    ("coreml-ssa-resize-target-size-3x", "4.0", False,
     "apple/coremltools git grep 'Unable to determine target size' @ 4.0b1 and @ 4.0: 0 hits"),
    ("torch-cpu-half-linear-before-2.1", "1.12.0", True,
     "pytorch/pytorch#84040: 'tested: torch1.9-1.12: when use model.half(), F.interpolate can not surport float16'"),
    ("torch-cpu-half-linear-before-2.1", "2.13.0", False, "measured: the installed 2.13.0+cpu interpolates float16"),
    ("torch-recompute-scale-factor-default-warning", "1.4.0", False,
     "fastai/fastai2#400: the recompute_scale_factor patch 'does *not* work on pytorch 1.4.0' (no such argument)"),
    ("torch-recompute-scale-factor-default-warning", "1.5.0", True,
     "fastai/fastai2#400: 'Fastai2, as is, throws a warning (but continues to work) on pytorch 1.5.0'"),
    ("torch-recompute-scale-factor-default-warning", "1.8.0", True,
     "ZHKKKe/MODNet#89: 'I ran into a Pytorch 1.8 warning message', quoting '... changed in 1.6.0 ... and now uses "
     "scale_factor directly ...'"),
    ("torch-recompute-scale-factor-default-warning", "2.13.0", False,
     "measured: the installed 2.13.0 interpolates with scale_factor=1.5 without a warning"),
    ("executorch-no-upsample-kernels-before-0.6", "0.5.0", True,
     "pytorch/executorch git grep '^- op: .*upsample' v0.5.0 -- kernels/portable/functions.yaml: 0 hits"),
    ("executorch-no-upsample-kernels-before-0.6", "0.6.0", False,
     "pytorch/executorch kernels/portable/functions.yaml @ v0.6.0: upsample_bilinear2d.vec_out, upsample_nearest2d.vec_out"),
    ("executorch-antialias-kernel-before-1.0", "0.7.0", True,
     "pytorch/executorch kernels/portable/functions.yaml @ v0.7.0: no _upsample_bilinear2d_aa.out"),
    ("executorch-antialias-kernel-before-1.0", "1.0.0", False,
     "pytorch/executorch kernels/portable/functions.yaml @ v1.0.0: - op: _upsample_bilinear2d_aa.out"),
    ("executorch-upsample-4d-nonempty", "0.5.0", False,
     "pytorch/executorch @ v0.5.0: no kernels/portable/cpu/util/upsample_util.cpp"),
    ("executorch-upsample-4d-nonempty", "0.6.0", True,
     "pytorch/executorch upsample_util.cpp @ v0.6.0: 'Upsampled output size must be non-empty, but was %ld x %ld.'"),
    ("executorch-upsample-4d-nonempty", "1.4.0", True, "pytorch/executorch upsample_util.cpp @ v1.4.0: the same text"),
    ("executorch-bicubic-antialias-kernel", "1.4.0", True,
     "pytorch/executorch kernels/portable/functions.yaml @ v1.4.0: upsample_bilinear2d.vec_out, "
     "_upsample_bilinear2d_aa.out, upsample_nearest2d.vec_out and no other upsample op"),
    ("skimage-resize-default-mode-warning", "0.12.3", False,
     "scikit-image/scikit-image _warps.py @ v0.12.3: def resize(image, output_shape, order=1, mode='constant', ...)"),
    ("skimage-resize-default-mode-warning", "0.13.0", True,
     "scikit-image/scikit-image _warps.py @ v0.13.0: \"The default mode, 'constant', will be changed to 'reflect'\""),
    ("skimage-resize-default-mode-warning", "0.14.5", True, "scikit-image/scikit-image _warps.py @ v0.14.5: the same warn()"),
    ("skimage-resize-default-mode-warning", "0.15.0", False,
     "scikit-image/scikit-image _warps.py @ v0.15.0: mode='reflect', git grep 'will be changed to' : 0 hits"),
    ("skimage-resize-anti-aliasing-warning", "0.13.1", False,
     "scikit-image/scikit-image _warps.py @ v0.13.1: git grep 'Anti-aliasing will be enabled by default': 0 hits"),
    ("skimage-resize-anti-aliasing-warning", "0.14.0", True, "scikit-image/scikit-image _warps.py @ v0.14.0: the warn()"),
    ("skimage-resize-anti-aliasing-warning", "0.15.0", False,
     "scikit-image/scikit-image _warps.py @ v0.15.0: anti_aliasing=True, no warning"),
    ("jax-resize-zero-size-before-0.2.19", "0.2.18", True,
     "jax-ml/jax git tag --no-contains 62d9223fe809 ('fix error with zero-size image resizing'): jax-v0.2.18"),
    ("jax-resize-zero-size-before-0.2.19", "0.2.19", False, "jax-ml/jax git tag --contains 62d9223fe809: jax-v0.2.19 first"),
    ("jax-resize-zero-size-before-0.2.19", "0.10.2", False, "measured: jax 0.10.2 resizes to (0,) with 'linear'"),
    ("skimage-rescale-small-scale-before-0.19", "0.18.3", True,
     "scikit-image/scikit-image _warps.py @ v0.18.3: output_shape = np.round(scale * orig_shape)"),
    ("skimage-rescale-small-scale-before-0.19", "0.19.0", False,
     "scikit-image/scikit-image _warps.py @ v0.19.0: np.maximum(np.round(scale * orig_shape), 1) (ef5cfc3de, #5256)"),
    ("skimage-rescale-small-scale-before-0.19", "0.26.0", False,
     "measured: scikit-image 0.26.0 rescales a (30, 40, 3) array by 0.1 to (3, 4, 1)"),
    ("candle-nearest1d-no-backward-before-0.4.1", "0.4.0", True,
     "huggingface/candle backprop.rs @ 8013b5082~1 (after the 0.4.0 bump a83ca2ece): BackwardNotSupported upsample-nearest1d"),
    ("candle-nearest1d-no-backward-before-0.4.1", "0.4.1", False,
     "huggingface/candle 8013b5082 (grads for interpolate1d) precedes the 0.4.1 bump 5e526abc8"),
    ("candle-nearest1d-no-backward-before-0.4.1", "0.5.1", False,
     "huggingface/candle backprop.rs @ 0.5.1: Op::UpsampleNearest1D { arg, target_size } has a backward"),
    ("pillow-resampling-constants-deprecated-9.1", "9.0.1", False,
     "python-pillow/Pillow src/PIL/Image.py @ 9.0.1: no Resampling enum, no warning for BILINEAR"),
    ("pillow-resampling-constants-deprecated-9.1", "9.1.0", True,
     "python-pillow/Pillow src/PIL/Image.py @ 9.1.0: __getattr__ warns for every Resampling member"),
    ("pillow-resampling-constants-deprecated-9.1", "9.3.0", True,
     "measured: Pillow 9.3.0, Image.BILINEAR raises under -W error::DeprecationWarning"),
    ("pillow-resampling-constants-deprecated-9.1", "9.4.0", False,
     "measured: Pillow 9.4.0 returns Image.BILINEAR without a warning (Image.ANTIALIAS still warns)"),
    ("opencv-batch-input", "4.10.0", True,
     "measured: cv2.resize of an (8, 480, 640, 3) array, opencv-python-headless 4.10.0: '!dsize.empty()' (the <5.0 wording)"),
    ("opencv-batch-input", "5.0.0", True, "measured: opencv-python-headless 5.0.0.93: 'm->dims <= 2' in function 'size'"),
]

#: (record id, converter release, holds there, what decides it) for records whose converter's release decides
CONVERTER_PINNED = [
    ("torchvision-resize-max-size-before-0.10", "0.9.1", True,
     "torchvision 0.9.1 wheel: def resize(img, size, interpolation) (functional.py line 340)"),
    ("torchvision-resize-max-size-before-0.10", "0.10.0", False, "torchvision 0.10.0 wheel: resize(..., max_size=None)"),
    ("torchvision-resize-object-from-before-0.10", "0.9.1", False, "torchvision 0.9.1 wheel: Resize has no max_size"),
    ("torchvision-resize-object-from-before-0.10", "0.10.0", True,
     "torchvision 0.10.0 wheel: Resize.forward reads self.max_size (transforms.py line 297)"),
    ("torchvision-no-resize-before-0.2", "0.1.9", True, "torchvision 0.1.9 wheel: transforms.py has Scale, no Resize"),
    ("torchvision-no-resize-before-0.2", "0.2.0", False, "torchvision 0.2.0 wheel: class Resize (transforms.py line 121)"),
    ("torchvision-pil-only-before-0.8", "0.7.0", True, "torchvision 0.7.0 wheel: functional.resize is PIL only"),
    ("torchvision-pil-only-before-0.8", "0.8.0", False, "torchvision 0.8.0 wheel: resize(img: Tensor, ...)"),
    ("litert-quantizer-resize-nearest-before-2.8", "2.3.0", True,
     "tensorflow/tensorflow#43080: 16x8 quantization of RESIZE_NEAREST_NEIGHBOR refused on 2.3.0"),
    ("litert-quantizer-resize-nearest-before-2.8", "2.13.1", False,
     "measured: tensorflow-cpu 2.13.1 writes a quantized RESIZE_NEAREST_NEIGHBOR for int8 and 16x8"),
    ("torchvision-scale-int-only-before-0.1.9", "0.1.8", True,
     "torchvision 0.1.8 wheel: Scale.__call__ computes int(self.size * h / w) (transforms.py line 135), no sequence case"),
    ("torchvision-scale-int-only-before-0.1.9", "0.1.9", False,
     "torchvision 0.1.9 wheel: Scale asserts isinstance(size, int) or a sequence of 2 (transforms.py line 174)"),
]


@pytest.mark.parametrize("record_id, release, holds, why", PINNED, ids=lambda x: x if isinstance(x, str) else None)
def test_bound_agrees_with_the_pinned_fact(record_id, release, holds, why):
    record = KB.record(record_id)
    assert record.versions.contains(release) is holds, f"{record_id} at {release}: {why}"


@pytest.mark.parametrize("record_id, release, holds, why", CONVERTER_PINNED,
                         ids=lambda x: x if isinstance(x, str) else None)
def test_converter_bound_agrees_with_the_pinned_fact(record_id, release, holds, why):
    record = KB.record(record_id)
    assert record.converter is not None
    assert record.converter_versions.contains(release) is holds, f"{record_id} at {record.converter} {release}: {why}"


def test_integer_interpolate_scales_refused_by_the_installed_openvino():
    """The live side of openvino-interpolate-scales-element-type: the installed release refuses int64 scales."""
    pytest.importorskip("openvino", reason="the oracle libraries are installed by the 'oracles' extra")
    import openvino.opset10 as ops

    x = ops.parameter([1, 8, 10, 10], np.float32)
    with pytest.raises(Exception, match="Scales element type must be f32, f16 or bf16"):
        ops.interpolate(x, ops.constant(np.array([20, 20], np.int64)), ops.constant(np.array([2, 2], np.int64)),
                        mode="nearest", shape_calculation_mode="scales", axes=ops.constant(np.array([2, 3], np.int64)))
    import openvino
    assert KB.record("openvino-interpolate-scales-element-type").versions.contains(openvino.__version__.split("-")[0])


def test_the_table_samples_enough_records_across_runtimes():
    records = {r for r, *_ in PINNED}
    assert len(records) >= 25
    assert len({KB.record(r).library for r in records}) >= 8


def test_lanczos_exists_in_the_installed_torch():
    """The live side of the lanczos bound: the installed release (2.13.0) runs it."""
    torch = pytest.importorskip("torch")
    from explorer.versions import parse_version
    version = torch.__version__.split("+")[0]
    x = torch.rand(1, 1, 8, 8)
    y = torch.nn.functional.interpolate(x, size=(4, 4), mode="lanczos", antialias=True)
    assert y.shape == (1, 1, 4, 4)
    assert not KB.record("torch-lanczos-missing-before-2.12").versions.contains(version)
    assert parse_version(version) >= parse_version("2.12")


def test_float16_scales_refused_by_the_installed_onnxruntime():
    ort = pytest.importorskip("onnxruntime")
    pytest.importorskip("onnx")
    import numpy as np
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("X", TensorProto.FLOAT, [1, 1, 4, 4])
    y = helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)
    scales = helper.make_tensor("scales", TensorProto.FLOAT16, [4],
                                np.array([1, 1, 2, 2], np.float16).view(np.uint16).tolist())
    node = helper.make_node("Resize", ["X", "", "scales"], ["Y"], name="Resize_0", mode="nearest")
    model = helper.make_model(helper.make_graph([node], "g", [x], [y], initializer=[scales]),
                              opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 7
    with pytest.raises(Exception, match=r"Type 'tensor\(float16\)' of input parameter \(scales\) of operator "
                                        r"\(Resize\)"):
        ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
    assert KB.record("ort-float16-scales-invalid").versions.contains(ort.__version__)


def test_five_dimensional_linear_and_cubic_run_on_every_measured_openvino():
    """The upper side of openvino-mkldnn-linear-onnx-cubic-5d, from the committed measurements: every measured
    OpenVINO release runs the 3-D (5-D tensor) linear_onnx and cubic Resize cases on CPU."""
    import json

    from explorer.probe import matrix as matrix_io

    cases = {c["id"]: c for c in json.loads((matrix_io.DATA / "cases.json").read_text())["cases"]}
    record = KB.record("openvino-mkldnn-linear-onnx-cubic-5d")
    files = sorted(matrix_io.DATA.glob("openvino-*.json"))
    assert len(files) >= 5
    for path in files:
        measured = json.loads(path.read_text())
        volumetric = {cid: cell for cid, cell in measured["cells"].items()
                      if cid in cases and len(cases[cid]["input_shape"]) == 5
                      and cases[cid].get("mode") in ("linear", "cubic")}
        assert {cases[c]["mode"] for c in volumetric} == {"linear", "cubic"}, path.name
        assert all(cell["status"] == "ok" for cell in volumetric.values()), path.name
        assert not record.versions.contains(measured["release"]), f"{path.name} runs them"
def test_no_recompute_scale_factor_warning_in_the_installed_torch():
    """The live side of torch-recompute-scale-factor-default-warning's end: pytorch/pytorch#72093 removed the
    warning, and the installed release interpolates by a float factor without it."""
    torch = pytest.importorskip("torch")
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        y = torch.nn.functional.interpolate(torch.rand(1, 1, 7, 7), scale_factor=1.5, mode="bilinear",
                                            align_corners=False)
    assert y.shape == (1, 1, 10, 10)
    assert not [w for w in caught if "recompute_scale_factor" in str(w.message)]
    assert not KB.record("torch-recompute-scale-factor-default-warning").versions.contains(
        torch.__version__.split("+")[0])


def test_float16_interpolate_runs_on_the_cpu_of_the_installed_torch():
    """The live side of torch-cpu-half-linear-before-2.1: the installed release resizes float16 on the CPU."""
    torch = pytest.importorskip("torch")
    x = torch.rand(1, 1, 6, 6).half()
    assert torch.nn.functional.interpolate(x, scale_factor=2.0, mode="bilinear").dtype == torch.float16
    assert not KB.record("torch-cpu-half-linear-before-2.1").versions.contains(torch.__version__.split("+")[0])


def test_the_resize_ops_an_executorch_program_keeps_are_those_its_records_name():
    """The live side of the ExecuTorch records: after the core ATen decomposition that ``to_edge`` applies, the
    installed torch keeps the two antialiased ops (one with a portable kernel from 1.0, one with none) and the
    2-D nearest and bilinear ops, and decomposes plain bicubic and nearest-exact into index arithmetic."""
    torch = pytest.importorskip("torch")
    import torch.nn.functional as F

    def kept(**kwargs):
        class Resize(torch.nn.Module):
            def forward(self, x):
                return F.interpolate(x, scale_factor=2, **kwargs)
        program = torch.export.export(Resize(), (torch.randn(1, 3, 8, 8),)).run_decompositions()
        return {str(n.target) for n in program.graph.nodes if n.op == "call_function" and "upsample" in str(n.target)}

    assert kept(mode="bicubic", antialias=True) == {"aten._upsample_bicubic2d_aa.default"}
    assert kept(mode="bilinear", antialias=True) == {"aten._upsample_bilinear2d_aa.default"}
    assert kept(mode="bilinear") == {"aten.upsample_bilinear2d.vec"}
    assert kept(mode="nearest") == {"aten.upsample_nearest2d.vec"}
    assert kept(mode="bicubic") == set() and kept(mode="nearest-exact") == set()
    for record_id, antialias_only in (("executorch-bicubic-antialias-kernel", True),
                                      ("executorch-antialias-kernel-before-1.0", True)):
        assert KB.record(record_id).when.get("antialias") is antialias_only


def test_upsampling3d_in_the_installed_keras_refuses_interpolation_and_takes_unknown_sizes():
    """The live side of the two UpSampling3D records: no interpolation argument; None sizes build (2.0.7 on)."""
    keras = pytest.importorskip("keras", reason="the oracle libraries are installed by the 'oracles' extra")
    with pytest.raises(ValueError, match="Unrecognized keyword arguments passed to UpSampling3D"):
        keras.layers.UpSampling3D(size=2, interpolation="trilinear")
    y = keras.layers.UpSampling3D(2)(keras.Input((None, None, None, 1)))
    assert tuple(y.shape) == (None, None, None, None, 1)
    assert KB.record("keras-upsampling3d-no-interpolation").versions.contains(keras.__version__)
    assert not KB.record("keras2-upsampling3d-static-dims-before-2.0.7").versions.contains(keras.__version__)


def test_the_installed_tensorflow_builds_a_resize_whose_size_has_no_known_shape():
    """The live side of tf-resize-images-unknown-size-shape-before-2.3: a size of unknown rank builds (2.3 on)."""
    tf = pytest.importorskip("tensorflow", reason="the oracle libraries are installed by the 'oracles' extra")
    spec = [tf.TensorSpec([None, None, 3], tf.float32), tf.TensorSpec(None, tf.int32)]
    for resize in (tf.image.resize, tf.compat.v1.image.resize_images):
        graph = tf.function(lambda image, size, resize=resize: resize(image, size), input_signature=spec)
        graph.get_concrete_function()
    assert not KB.record("tf-resize-images-unknown-size-shape-before-2.3").versions.contains(tf.__version__)


def test_the_installed_pillow_refuses_a_three_element_size_and_has_resampling():
    """The live side of the two Pillow records: the size text, and Image.Resampling (9.1 on)."""
    PIL = pytest.importorskip("PIL", reason="the oracle libraries are installed by the 'oracles' extra")
    from PIL import Image
    with pytest.raises(TypeError, match="argument 1 must be sequence of length 2, not 3"):
        Image.new("L", (4, 4)).resize((2, 2, 2))
    assert Image.Resampling.NEAREST == 0
    assert KB.record("pillow-resize-size-not-two").versions.contains(PIL.__version__)
    assert not KB.record("pillow-resampling-enum-before-9.1").versions.contains(PIL.__version__)
