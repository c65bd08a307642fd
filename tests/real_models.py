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


MODELS = {"segformer": segformer, "dpt": dpt, "upernet": upernet, "vit": vit, "swin2sr": swin2sr,
          "unet2d": unet2d, "autoencoder_kl": autoencoder_kl, "unet2d_condition": unet2d_condition,
          "lraspp": lraspp, "deeplabv3": deeplabv3}
