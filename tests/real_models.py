"""Small configurations of real architectures from transformers, diffusers and torchvision (random weights, built
from their config objects or constructors: nothing is downloaded), and the inputs each is exported with.

transformers (which diffusers imports) imports ``torchvision.transforms`` when torchvision is installed; next to
the CPU torch wheel the torchvision package itself fails to import (``tests/torchvision_oracle.py``), so its
pure-Python transforms are loaded first, the way the torchvision oracle tests load them; torchvision's
segmentation models (LRASPP, DeepLabV3 on a narrow MobileNetV3) are pure Python too and load the same way.
"""

from __future__ import annotations

import torch


def _transformers():
    from tests import torchvision_oracle
    torchvision_oracle.load()  # before transformers (diffusers imports it too)
    import transformers
    return transformers


class _Output(torch.nn.Module):
    """The model with a tensor in and one tensor out (what the exporters and the scan need)."""

    def __init__(self, model, field, **kwargs):
        super().__init__()
        self.model, self.field, self.kwargs = model, field, kwargs

    def forward(self, x, *rest):
        out = self.model(x, *rest, **self.kwargs)
        if isinstance(out, dict):  # torchvision's segmentation models
            return out[self.field]
        if isinstance(out, list):  # RAFT: the flow after each update
            return out[-1]
        return getattr(out, self.field) if not isinstance(out, torch.Tensor) else out


def segformer():
    t = _transformers()
    config = t.SegformerConfig(hidden_sizes=[8, 16, 24, 32], depths=[1, 1, 1, 1], num_attention_heads=[1, 1, 1, 1],
                               decoder_hidden_size=16, num_labels=3, attn_implementation="eager")
    return _Output(t.SegformerForSemanticSegmentation(config), "logits"), (torch.rand(1, 3, 64, 64),)


def dpt():
    t = _transformers()
    config = t.DPTConfig(hidden_size=16, num_hidden_layers=4, num_attention_heads=2, intermediate_size=32,
                         image_size=32, patch_size=8, neck_hidden_sizes=[8, 8, 16, 16], fusion_hidden_size=16,
                         backbone_out_indices=[0, 1, 2, 3], head_in_index=-1,
                         attn_implementation="eager")
    return _Output(t.DPTForDepthEstimation(config), "predicted_depth"), (torch.rand(1, 3, 32, 32),)


def upernet():
    t = _transformers()
    backbone = t.ConvNextConfig(num_channels=3, hidden_sizes=[8, 16, 24, 32], depths=[1, 1, 1, 1],
                                out_features=["stage1", "stage2", "stage3", "stage4"])
    config = t.UperNetConfig(backbone_config=backbone, hidden_size=16, auxiliary_in_channels=24,
                             auxiliary_channels=8, num_labels=3, use_auxiliary_head=False,
                             pool_scales=[1, 2])  # 64 / 32 = 2: the TorchScript exporter needs factors
    return _Output(t.UperNetForSemanticSegmentation(config), "logits"), (torch.rand(1, 3, 64, 64),)


def vit():
    t = _transformers()
    config = t.ViTConfig(hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32,
                         image_size=32, patch_size=8, attn_implementation="eager")
    return _Output(t.ViTModel(config, add_pooling_layer=False), "last_hidden_state",
                   interpolate_pos_encoding=True), (torch.rand(1, 3, 48, 40),)


def swin2sr():
    t = _transformers()
    config = t.Swin2SRConfig(image_size=16, patch_size=1, embed_dim=16, depths=[1], num_heads=[2], window_size=4,
                             upscale=4, upsampler="nearest+conv", num_channels=3,
                             attn_implementation="eager")
    return _Output(t.Swin2SRForImageSuperResolution(config), "reconstruction"), (torch.rand(1, 3, 16, 16),)


def _eager(model):
    """diffusers attention as matrix products (its default calls scaled_dot_product_attention, which the
    TorchScript exporter writes only from opset 14)."""
    from diffusers.models.attention_processor import Attention, AttnProcessor  # (after _transformers())
    for module in model.modules():
        if isinstance(module, Attention):
            module.set_processor(AttnProcessor())
    return model


def unet2d():
    _transformers()
    from diffusers import UNet2DModel
    model = UNet2DModel(sample_size=16, in_channels=3, out_channels=3, layers_per_block=1,
                        block_out_channels=(8, 16), norm_num_groups=4,
                        down_block_types=("DownBlock2D", "DownBlock2D"), up_block_types=("UpBlock2D", "UpBlock2D"))
    return _Output(_eager(model), "sample"), (torch.rand(1, 3, 16, 16), torch.tensor([10]))


def autoencoder_kl():
    _transformers()
    from diffusers import AutoencoderKL
    model = AutoencoderKL(in_channels=3, out_channels=3, block_out_channels=(8, 16), layers_per_block=1,
                          norm_num_groups=4, latent_channels=4,
                          down_block_types=("DownEncoderBlock2D", "DownEncoderBlock2D"),
                          up_block_types=("UpDecoderBlock2D", "UpDecoderBlock2D"))
    return _Output(_eager(model), "sample"), (torch.rand(1, 3, 16, 16),)


def unet2d_condition():
    _transformers()
    from diffusers import UNet2DConditionModel
    model = UNet2DConditionModel(sample_size=8, in_channels=4, out_channels=4, layers_per_block=1,
                                 block_out_channels=(8, 16), norm_num_groups=4, cross_attention_dim=8,
                                 attention_head_dim=2,
                                 down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"),
                                 up_block_types=("UpBlock2D", "CrossAttnUpBlock2D"))
    return _Output(_eager(model), "sample"), (torch.rand(1, 4, 8, 8), torch.tensor([10]), torch.rand(1, 3, 8))


def _mobilenet_v3():
    """torchvision's MobileNetV3-Large at a quarter of its width, dilated as its segmentation models use it."""
    import importlib
    _transformers()  # loads torchvision's pure-Python modules
    mobilenet = importlib.import_module("torchvision.models.mobilenetv3")
    setting, last = mobilenet._mobilenet_v3_conf("mobilenet_v3_large", width_mult=0.25, reduced_tail=True,
                                                 dilated=True)
    return mobilenet.MobileNetV3(setting, last)


def lraspp():
    import importlib
    backbone = _mobilenet_v3()
    model = importlib.import_module("torchvision.models.segmentation.lraspp")._lraspp_mobilenetv3(backbone, 3)
    return _Output(model, "out"), (torch.rand(1, 3, 64, 64),)


def deeplabv3():
    import importlib
    backbone = _mobilenet_v3()
    model = importlib.import_module("torchvision.models.segmentation.deeplabv3")._deeplabv3_mobilenetv3(
        backbone, 3, False)
    return _Output(model, "out"), (torch.rand(1, 3, 64, 64),)


def raft():
    """torchvision's RAFT (small) with two flow updates: its flow is upsampled x8 by a bilinear
    ``align_corners=True`` interpolate of the coarse flow."""
    import importlib
    _transformers()
    model = importlib.import_module("torchvision.models.optical_flow.raft").raft_small()
    return _Output(model, None, num_flow_updates=2), (torch.rand(1, 3, 128, 128), torch.rand(1, 3, 128, 128))


def _timm(name, **kwargs):
    """A timm model with its attention as matrix products (its fused attention calls
    scaled_dot_product_attention, which the TorchScript exporter writes only from opset 14)."""
    import os
    _transformers()  # loads torchvision's pure-Python modules (timm imports its transforms)
    os.environ["TIMM_FUSED_ATTN"] = "0"  # read when timm.layers is first imported
    import timm
    return timm.create_model(name, pretrained=False, **kwargs)


def hrnet():
    """timm's HRNet-W18-small: nearest 2x/4x/8x upsamples in every fuse layer."""
    return _timm("hrnet_w18_small", num_classes=3), (torch.rand(1, 3, 64, 64),)


def ghostnetv2():
    """timm's GhostNetV2: a nearest interpolate to the feature's size in each DFC attention."""
    return _timm("ghostnetv2_100", num_classes=3), (torch.rand(1, 3, 64, 64),)


def efficientformerv2():
    """timm's EfficientFormerV2-S0: a bilinear 2x upsample in the strided attention."""
    return _timm("efficientformerv2_s0", num_classes=3, img_size=64), (torch.rand(1, 3, 64, 64),)


def mobilevit():
    """timm's MobileViT-XXS on a 72x72 input: a side that is not a multiple of the patch is resized (bilinear)
    to one."""
    return _timm("mobilevit_xxs", num_classes=3), (torch.rand(1, 3, 72, 72),)


def crossvit():
    """timm's CrossViT-tiny at 240: the small branch sees the image resized 240 -> 224 (bicubic)."""
    return _timm("crossvit_tiny_240", num_classes=3), (torch.rand(1, 3, 240, 240),)


class _Detections(torch.nn.Module):
    """A torchvision detection model on one (3, H, W) image, its first output field as the graph output."""

    def __init__(self, model, field):
        super().__init__()
        self.model, self.field = model, field

    def forward(self, x):
        return self.model([x])[0][self.field]


def _detection_kwargs():
    return dict(num_classes=3, min_size=128, max_size=160, box_detections_per_img=10, rpn_pre_nms_top_n_test=50,
                rpn_post_nms_top_n_test=20)


def faster_rcnn():
    """torchvision's Faster R-CNN on MobileNetV3-Large FPN: the transform's resize to min_size (a scale from
    the image's smaller and larger sides) and the FPN's nearest upsamples."""
    from tests import torchvision_detection
    detection = torchvision_detection.load()
    model = detection.fasterrcnn_mobilenet_v3_large_fpn(weights=None, weights_backbone=None, **_detection_kwargs())
    return _Detections(model, "boxes"), (torch.rand(3, 120, 150),)


def keypoint_rcnn(backbone="resnet18"):
    """torchvision's Keypoint R-CNN on a ResNet FPN (resnet18 here; ``keypointrcnn_resnet50_fpn`` is the same
    model on resnet50): the transform's resize, the FPN's nearest upsamples and the keypoint head's bilinear 2x."""
    from tests import torchvision_detection
    detection = torchvision_detection.load()
    fpn = detection.backbone_utils.resnet_fpn_backbone(backbone_name=backbone, weights=None, trainable_layers=0)
    model = detection.KeypointRCNN(fpn, num_keypoints=5, **_detection_kwargs())
    return _Detections(model, "keypoints"), (torch.rand(3, 120, 150),)


MODELS = {"segformer": segformer, "dpt": dpt, "upernet": upernet, "vit": vit, "swin2sr": swin2sr,
          "unet2d": unet2d, "autoencoder_kl": autoencoder_kl, "unet2d_condition": unet2d_condition,
          "lraspp": lraspp, "deeplabv3": deeplabv3, "raft": raft, "hrnet": hrnet, "ghostnetv2": ghostnetv2,
          "efficientformerv2": efficientformerv2, "mobilevit": mobilevit, "crossvit": crossvit}

#: torchvision's detection models (their own test, tests/advisor/test_scan_real_models.py: the keypoint head's
#: per-box resize sizes each box's heatmap to that box, a value, so it is the one node no scan can shape)
DETECTION = {"faster_rcnn": faster_rcnn, "keypoint_rcnn": keypoint_rcnn}

#: the lowest opset each model exports at, where it is above 11 (RAFT's grid_sample is GridSample, opset 16)
MIN_OPSET = {"raft": 16}
#: models only the TorchScript exporter exports (torch.export does not trace the detection models'
#: data-dependent control flow)
TORCHSCRIPT_ONLY = frozenset(DETECTION)


def exports_at(name: str, opset: int, exporter: str = "torchscript") -> bool:
    """Whether model ``name`` exports at ``opset`` with ``exporter`` (:data:`MIN_OPSET`,
    :data:`TORCHSCRIPT_ONLY`)."""
    return opset >= MIN_OPSET.get(name, 0) and (exporter == "torchscript" or name not in TORCHSCRIPT_ONLY)


def resize_count(graph) -> int:
    """Resize/Upsample nodes of an ONNX graph and of every subgraph of its nodes (the ground truth a scan lists)."""
    count = 0
    for node in graph.node:
        count += node.op_type in ("Resize", "Upsample")
        for attr in node.attribute:
            count += sum(resize_count(g) for g in list(attr.graphs) + ([attr.g] if attr.HasField("g") else []))
    return count
