"""torchvision's detection models (Faster R-CNN, Keypoint R-CNN) without torchvision's C extension.

The torchvision wheel on the package index does not load its C ops next to the CPU torch wheel
(``tests/torchvision_oracle.py``), and a detection model calls two of them: ``torchvision::nms`` and
``torchvision::roi_align``.  :func:`load` defines both in torch's operator registry with pure-Python CPU
kernels (a greedy NMS; torchvision's own pure-Python ``roi_align`` transcription), so the models run and export:
the TorchScript exporter writes them as ONNX ``NonMaxSuppression`` and ``RoiAlign`` through torchvision's own
symbolic functions (``torchvision/ops/_register_onnx_ops.py``).  The kernels' numbers are not what is tested;
the graph the exporter writes around them (the transform's resize, FPN's nearest upsamples, the keypoint
head's bilinear one) is.
"""

from __future__ import annotations

import importlib

import torch

_LIBRARY = None


def _nms(boxes, scores, iou_threshold):
    """Greedy non-maximum suppression: the kept indices by decreasing score."""
    order = scores.argsort(descending=True)
    boxes = boxes[order]
    area = (boxes[:, 2] - boxes[:, 0]).clamp(min=0) * (boxes[:, 3] - boxes[:, 1]).clamp(min=0)
    lt = torch.maximum(boxes[:, None, :2], boxes[None, :, :2])
    rb = torch.minimum(boxes[:, None, 2:], boxes[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(-1)
    overlaps = inter / (area[:, None] + area[None, :] - inter).clamp(min=1e-12) > iou_threshold
    removed = torch.zeros(len(boxes), dtype=torch.bool)
    keep = []
    for i in range(len(boxes)):
        if not removed[i]:
            keep.append(i)
            removed |= overlaps[i]
    return order[torch.tensor(keep, dtype=torch.int64)]


def _roi_align(input, rois, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned):
    plain = importlib.import_module("torchvision.ops.roi_align")._roi_align
    plain = getattr(plain, "__wrapped__", plain)  # without torch.compile (the tracer cannot trace it)
    return plain(input, rois, spatial_scale, pooled_height, pooled_width, sampling_ratio, aligned)


def _assert_has_ops():
    pass


def _has_ops():
    return True


def load():
    """The ``torchvision.models.detection`` module, its two C ops defined in Python."""
    global _LIBRARY
    from tests import torchvision_oracle
    torchvision_oracle.load()
    torchvision = importlib.import_module("torchvision")
    if _LIBRARY is None:
        _LIBRARY = torch.library.Library("torchvision", "DEF")
        _LIBRARY.define("nms(Tensor dets, Tensor scores, float iou_threshold) -> Tensor")
        _LIBRARY.define("roi_align(Tensor input, Tensor rois, float spatial_scale, SymInt pooled_height, "
                        "SymInt pooled_width, int sampling_ratio, bool aligned) -> Tensor")
        _LIBRARY.impl("nms", _nms, "CPU")
        _LIBRARY.impl("roi_align", _roi_align, "CPU")
    if not hasattr(torchvision, "_is_tracing"):  # set by torchvision/__init__.py, which is not run
        torchvision._is_tracing = lambda: torch._C._get_tracing_state()
    importlib.import_module("torchvision.ops")  # registers the ONNX symbolics of nms and roi_align
    for name in ("boxes", "roi_align", "poolers"):
        module = importlib.import_module(f"torchvision.ops.{name}")
        for check in ("_assert_has_ops", "_has_ops"):  # both read the C extension's presence
            if hasattr(module, check):
                setattr(module, check, globals()[check])
    return importlib.import_module("torchvision.models.detection")
