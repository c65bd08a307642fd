"""The linter's Python reader: real calls of known functions, with their arguments followed, and nothing else.

Each fixture is a small program written for this test, one per code pattern met in real repositories
(import aliases, subclasses, project classes named like the API, partial, multi-line calls, attributes set in
``__init__``, parameter defaults, ``**kwargs`` dicts, tables of constants, integer codes, device guards ...).
"""

from __future__ import annotations

import textwrap

import pytest

from explorer.advisor.lint.python import read_python


def sites(src: str):
    return read_python(textwrap.dedent(src).lstrip("\n"), "fixture.py")


def at(found, line):
    matches = [s for s in found if s.line == line]
    assert len(matches) == 1, (line, [(s.line, s.api) for s in found])
    return matches[0]


def test_import_aliases_reach_the_same_function():
    found = sites('''
        import torch
        import torch.nn.functional as F
        from torch import nn
        from torch.nn import functional as nnf
        from torch.nn.functional import interpolate
        import torchvision.transforms as T
        x = torch.rand(1, 3, 8, 8)
        a = torch.nn.functional.interpolate(x, scale_factor=2)
        b = F.interpolate(x, scale_factor=2, mode="bilinear")
        c = nn.functional.interpolate(x, size=(8, 8), mode="bicubic")
        d = nnf.interpolate(x, size=(8, 8))
        e = interpolate(x, size=(8, 8), mode="nearest-exact")
        f = T.Resize(64)
    ''')
    assert [s.line for s in found] == [8, 9, 10, 11, 12, 13]
    assert [s.api for s in found[:5]] == ["torch.nn.functional.interpolate"] * 5
    assert at(found, 8).mode.values == ("nearest",) and at(found, 8).mode.how == "api-default"
    assert at(found, 12).mode.values == ("nearest-exact",) and at(found, 12).mode.how == "literal"
    assert at(found, 10).rank.values == (2,)
    assert at(found, 13).api == "torchvision.transforms.Resize"
    assert at(found, 13).antialias.values == (True,)  # torchvision's default


def test_a_project_function_named_like_the_api_is_not_a_site():
    found = sites('''
        from torchvision.transforms.functional import resize

        def shrink(img, n):
            return resize(img, [n, n])
    ''')
    assert [(s.line, s.api) for s in found] == [(4, "torchvision.transforms.functional.resize")]
    shadowed = sites('''
        from torchvision.transforms.functional import resize

        def resize(images, size):
            return images

        y = resize(x, 64)
    ''')
    assert shadowed == []


def test_a_subclass_of_upsample_is_upsample():
    found = sites('''
        from torch import nn

        class CastUp(nn.Upsample):
            def forward(self, x):
                return super().forward(x.float()).type_as(x)

        block = nn.Sequential(CastUp(scale_factor=(2.0, 2.0), mode="nearest-exact"), nn.Conv2d(8, 8, 3))
    ''')
    site = at(found, 7)
    assert site.api == "torch.nn.Upsample" and site.mode.values == ("nearest-exact",) and site.rank.values == (2,)
    assert len(found) == 1


def test_definitions_instances_and_method_calls_are_not_sites():
    found = sites('''
        import torch.nn.functional as F
        from torch import nn

        class Upsample(nn.Module):
            def forward(self, x):
                return F.interpolate(x, scale_factor=2.0, mode="nearest")

        class Decoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.upsample = Upsample()
            def upsample_twice(self, x):
                return self.upsample(self.upsample(x))
            def forward(self, x):
                return self.upsample_twice(x)
    ''')
    assert [s.line for s in found] == [6]


def test_partial_binds_the_arguments_at_its_line():
    found = sites('''
        from functools import partial
        import torch

        class Rescale(torch.nn.Module):
            def __init__(self, method="bilinear"):
                super().__init__()
                self.interp = partial(torch.nn.functional.interpolate, mode=method)
            def forward(self, x):
                return self.interp(x, scale_factor=0.5)
    ''')
    site = at(found, 7)
    assert site.mode.values == ("bilinear",) and site.mode.how == "param-default"
    assert len(found) == 1


def test_a_transform_object_is_a_site_where_it_is_built():
    found = sites('''
        from torchvision import transforms
        train_resize = transforms.Resize(512, interpolation=transforms.InterpolationMode.BILINEAR)
        img = train_resize(img)
    ''')
    assert [(s.line, s.mode.values) for s in found] == [(2, ("bilinear",))]


def test_kornia_follows_torch_and_albumentations_opencv():
    found = sites('''
        import cv2, kornia, albumentations
        y = kornia.geometry.resize(x, (224, 224), interpolation="bicubic", align_corners=True, antialias=True)
        t = albumentations.SmallestMaxSize(max_size=256, interpolation=cv2.INTER_AREA)
    ''')
    k, a = at(found, 2), at(found, 3)
    assert (k.library, k.mode.values, k.antialias.values, k.runs) == ("torch", ("bicubic",), (True,), "model")
    assert (a.library, a.mode.values, a.runs) == ("opencv", ("INTER_AREA",), "host")


def test_antialias_on_a_late_line_of_a_multiline_call():
    found = sites('''
        import torch.nn.functional as F
        def shrink(img, ref):
            return F.interpolate(
                img,
                ref.shape[-2:],
                mode="bicubic",
                antialias=True,
            )
    ''')
    site = at(found, 3)
    assert site.antialias.values == (True,) and site.end_line == 8 and site.rank.values == (2,)


def test_mode_from_an_attribute_set_in_init():
    found = sites('''
        import torch.nn.functional as F
        from torch import nn

        class Up(nn.Module):
            def __init__(self, mode="bicubic", corners=None):
                super().__init__()
                self.mode = mode
                self.corners = True if mode == "bilinear" else corners
            def forward(self, x):
                return F.interpolate(x, scale_factor=2, mode=self.mode, align_corners=self.corners)
    ''')
    site = at(found, 10)
    assert site.mode.values == ("bicubic",) and site.mode.how == "init-attribute"
    assert site.in_model is True


def test_mode_and_antialias_from_parameter_defaults():
    found = sites('''
        import torch.nn.functional as F
        def resample(posemb, size, interpolation="bicubic", antialias=True):
            return F.interpolate(posemb, size=size, mode=interpolation, antialias=antialias)
    ''')
    site = at(found, 3)
    assert (site.mode.values, site.mode.how, site.antialias.values) == (("bicubic",), "param-default", (True,))
    assert site.in_model is None  # a free function: the code does not say whether it runs in a model


def test_a_parameter_without_default_is_unknown():
    found = sites('''
        import torch.nn.functional as F
        def resize_aa(img, size, mode, aa=None):
            return F.interpolate(img, size, mode=mode, antialias=bool(aa) and mode in ("bilinear", "bicubic"))
    ''')
    site = at(found, 3)
    assert site.mode.values == () and "no default" in site.mode.detail
    assert site.antialias.how == "unknown"


def test_a_mode_set_with_a_default_and_again_by_a_setter_is_partial():
    found = sites('''
        import torch.nn.functional as F

        class Sampler:
            def __init__(self, upscale_mode="bicubic"):
                self.upscale_mode = upscale_mode
            def set_mode(self, upscale_mode):
                self.upscale_mode = upscale_mode
            def step(self, x, size):
                return F.interpolate(x, size=size, mode=self.upscale_mode)
    ''')
    site = at(found, 9)
    assert (site.mode.values, site.mode.how) == (("bicubic",), "partial")
    assert "default of parameter `upscale_mode`" in site.mode.detail and "no default" in site.mode.detail


def test_kwargs_dict_and_a_key_set_under_a_condition():
    found = sites('''
        import inspect
        import torch.nn.functional as F
        def up(x):
            extra = {}
            if "antialias" in inspect.signature(F.interpolate).parameters:
                extra["antialias"] = True
            opts = dict(mode="bicubic", align_corners=False)
            return F.interpolate(x, size=(64, 64), **opts, **extra)
    ''')
    site = at(found, 8)
    assert site.mode.values == ("bicubic",) and site.align_corners.values == (False,)
    assert set(site.antialias.values) == {False, True} and site.antialias.how == "conditional"


def test_conditional_expressions_random_choice_and_integer_codes():
    found = sites('''
        import random, cv2
        from PIL import Image
        im = Image.open("a.png")
        im = im.resize((8, 8), resample=Image.NEAREST if is_mask else Image.BICUBIC)
        arr = cv2.resize(arr, (8, 8), interpolation=random.choice([1, 2, 3]))
        im2 = im.resize((64, 64), resample=3)
        cfg = {"resample": 3}
    ''')
    pil = at(found, 4)
    assert pil.library == "pillow" and pil.mode.values == ("NEAREST", "BICUBIC") and pil.mode.how == "conditional"
    assert at(found, 5).mode.values == ("INTER_LINEAR", "INTER_CUBIC", "INTER_AREA")
    assert at(found, 6).mode.values == ("BICUBIC",)
    assert len(found) == 3


def test_tables_of_constants_are_not_sites_and_lookups_resolve():
    found = sites('''
        import cv2
        from PIL import Image
        FILTERS = {"bicubic": Image.BICUBIC, "lanczos": Image.LANCZOS}
        CV = {
            "area": cv2.INTER_AREA,
            "linear": cv2.INTER_LINEAR,
        }
        def make(name):
            return lambda im: im.resize((299, 299), resample=FILTERS[name])
        def fixed(im):
            return im.resize((299, 299), resample=FILTERS["lanczos"])
    ''')
    assert [s.line for s in found] == [9, 11]
    assert at(found, 9).mode.values == ("BICUBIC", "LANCZOS") and at(found, 9).mode.how == "conditional"
    assert at(found, 11).mode.values == ("LANCZOS",) and at(found, 11).mode.how == "module-constant"


def test_upsampling_bilinear2d_implies_align_corners():
    found = sites('''
        from torch import nn
        up = nn.UpsamplingBilinear2d(scale_factor=4) if factor > 1 else nn.Identity()
    ''')
    site = at(found, 2)
    assert site.mode.values == ("bilinear",) and site.align_corners.values == (True,)
    assert site.align_corners.how == "implied" and site.rank.values == (2,)


def test_torchvision_runs_where_its_input_lives():
    found = sites('''
        import torch
        from PIL import Image
        from torchvision.transforms import InterpolationMode
        from torchvision.transforms import v2
        import torchvision.transforms.v2.functional as TF2

        pil_out = v2.Resize(224, interpolation=InterpolationMode.BICUBIC)(Image.open("a.png"))
        t_out = TF2.resize(torch.rand(1, 3, 64, 64), [32, 32], interpolation=InterpolationMode.BILINEAR)
        def f(images: torch.Tensor):
            return v2.Compose([v2.Resize(224, antialias=True)])(images)
    ''')
    assert at(found, 7).runs == "host" and at(found, 7).mode.values == ("bicubic",)
    assert at(found, 8).runs == "model" and at(found, 8).mode.values == ("bilinear",)
    assert at(found, 10).runs == "model"


def test_a_transform_stored_on_self_runs_where_what_it_is_applied_to_lives():
    # Depth-Anything's dataset ToTensor: Resize stored in __init__, applied in __call__ to the tensor a method
    # of the class returns, through a `lambda x: x` normaliser
    code = '''
        import numpy as np, torch
        from PIL import Image
        from torchvision import transforms
        class ToTensor:
            def __init__(self):
                self.normalize = lambda x: x
                self.resize = transforms.Resize((480, 640))
            def __call__(self, sample):
                image = self.to_tensor(sample["image"])
                image = self.normalize(image)
                return self.resize(image)
            def to_tensor(self, pic):
                if isinstance(pic, np.ndarray):
                    return torch.from_numpy(pic.transpose((2, 0, 1)))
                img = torch.ByteTensor(torch.ByteStorage.from_buffer(pic.tobytes()))
                return img.float()
    '''
    assert at(sites(code), 7).runs == "model"
    as_pil = code.replace("image = self.to_tensor(sample[\"image\"])", "image = Image.open(sample)")
    assert at(sites(as_pil), 7).runs == "host"  # the same transform applied to a PIL image
    keeps = code.replace("lambda x: x", "lambda x: x.numpy()")
    assert at(sites(keeps), 7).runs == "host"  # a normaliser that does not keep the kind: not known, host


def test_a_batch_iterated_from_a_data_loader_carries_no_gradient():
    # yolov5's multi-scale training: the input batch is resized before the model sees it
    code = '''
        import math, random
        import torch.nn as nn
        def train(opt, device, model, train_loader):
            nb = len(train_loader)
            pbar = enumerate(train_loader)
            for i, (imgs, targets) in pbar:
                imgs = imgs.to(device, non_blocking=True).float() / 255
                ns = [math.ceil(x * random.random()) for x in imgs.shape[2:]]
                imgs = nn.functional.interpolate(imgs, size=ns, mode="bilinear", align_corners=False)
                feats = model(imgs)
                up = nn.functional.interpolate(feats, scale_factor=2, mode="bilinear")
    '''
    found = sites(code)
    assert at(found, 9).extra.get("targets") == "train_loader"
    assert "targets" not in at(found, 11).extra  # a model's output carries its gradient
    inside = code.replace("enumerate(train_loader)", "enumerate(model.parameters())")
    assert "targets" not in at(sites(inside), 9).extra
    # what the loop sets after the call (semseg's `..., target = intersectionAndUnion(output, target, args.k)`)
    # does not reach it
    later = code.replace("                up = ", "                imgs = model(imgs, CONFIG.k)\n                up = ")
    assert at(sites(later), 9).extra.get("targets") == "train_loader"


def test_a_mode_repeated_into_a_per_level_list_is_the_mode_it_repeats():
    # deep-image-prior's skip(): one mode or one per scale, read as upsample_mode[i]
    code = '''
        import torch.nn as nn
        def skip(n_scales=5, upsample_mode="nearest"):
            if not isinstance(upsample_mode, (list, tuple)):
                upsample_mode = [upsample_mode] * n_scales
            layers = []
            for i in range(n_scales):
                layers.append(nn.Upsample(scale_factor=2, mode=upsample_mode[i]))
            return nn.Sequential(*layers)
    '''
    site = at(sites(code), 7)
    assert site.mode.values == ("nearest",) and "upsample_mode" in site.mode.detail
    listed = code.replace("[upsample_mode] * n_scales", "list(upsample_mode)")
    assert not at(sites(listed), 7).mode.values  # not a repetition: not known


def test_a_tensor_made_from_numpy_stays_on_the_host():
    found = sites('''
        import numpy as np, torch
        def load(image):
            image = np.asarray(image, dtype=np.float32)
            image = torch.from_numpy(image).to(dtype=torch.float32)
            image = image.unsqueeze(0)
            image = torch.nn.functional.interpolate(image, (64, 64), mode="area")
            return image.cuda()
    ''')
    assert at(found, 6).runs == "host"


def test_tensorflow_method_constants_and_pil_thumbnail():
    found = sites('''
        import tensorflow as tf
        from PIL import Image
        method = tf.image.ResizeMethod.BICUBIC if name == "bicubic" else tf.image.ResizeMethod.BILINEAR
        img = tf.image.resize([img], [224, 224], method)[0]
        im = Image.open("x.png")
        im.thumbnail([768, 768], Image.Resampling.LANCZOS)
        im2 = im.resize((512, 512))
    ''')
    assert at(found, 4).library == "tensorflow" and set(at(found, 4).mode.values) == {"bicubic", "bilinear"}
    assert at(found, 6).api == "PIL.Image.Image.thumbnail" and at(found, 6).mode.values == ("LANCZOS",)
    assert at(found, 7).mode.values == ("BICUBIC",) and at(found, 7).mode.how == "api-default"
    assert len(found) == 3


def test_nested_calls_and_chained_calls():
    found = sites('''
        import torch
        import torch.nn.functional as F
        from torch import nn
        from PIL import Image
        layers.add_module("up", nn.Upsample(scale_factor=2, mode="bilinear", align_corners=False))
        gate = feats * F.interpolate(
            torch.sigmoid(g), size=feats.shape[-2:], mode="nearest")
        img = Image.open(
            "cat.png"
        ).resize((256, 256))
    ''')
    assert [s.line for s in found] == [5, 6, 10]
    assert at(found, 10).api == "PIL.Image.Image.resize"


def test_device_guard_and_no_grad():
    found = sites('''
        import torch
        import torch.nn.functional as F
        def up(x):
            if x.device.type == "mps":
                y = F.interpolate(x, size=(256, 256))
            else:
                y = F.interpolate(x, size=(256, 256), mode="bicubic", antialias=True)
            with torch.no_grad():
                z = F.interpolate(x, size=(8, 8), mode="bicubic", antialias=True)
            return y, z
    ''')
    assert at(found, 5).extra == {"only_on": ("mps",)}
    assert at(found, 7).extra == {"not_on": ("mps",)}
    assert at(found, 9).training is False and at(found, 7).training is None


def test_frozen_models_and_differentiating_code():
    found = sites('''
        import torch
        import torch.nn.functional as F
        from torch import nn

        class FrozenEmbedder(nn.Module):
            def freeze(self):
                for p in self.parameters():
                    p.requires_grad = False
            def forward(self, x):
                return F.interpolate(x, (224, 224), mode="bicubic", antialias=True)

        @torch.enable_grad()
        def guidance(latents):
            return F.interpolate(latents, (64, 64), mode="bicubic", antialias=True)
    ''')
    assert at(found, 10).in_model is False
    assert at(found, 14).differentiated is True and at(found, 14).in_model is None


@pytest.mark.parametrize("src", [
    "from scipy import interpolate\nf = interpolate.interp1d(xs, ys)\n",
    "import numpy as np\nbuf = np.resize(buf, (4, 1))\n",
    "# F.interpolate(x, mode='nearest-exact')\n",
    '"""\n>>> img = img.resize((512, 512))\n"""\n',
    'key = "decoder.up.0.upsample.conv.weight"\n',
    "t = torch.zeros(3)\nt.resize_(4)\n",
    "from PIL import Image\nimg = img.rotate(deg, resample=Image.BICUBIC)\n",
    "def interpolate_fn(t, xp, yp):\n    return t\ny = interpolate_fn(t, xp, yp)\n",
    "parser.add_argument('--bilinear', help='Use bilinear upsampling')\n",
    "def resize(images, size):\n    return images\n",
])
def test_grep_hits_that_are_never_sites(src):
    assert read_python(src, "x.py") == []


@pytest.mark.parametrize("src, rank", [
    ("y = F.interpolate(x, scale_factor=2, mode='trilinear')", None),  # the mode says it: 3
    ("y = F.interpolate(x, (a, b * 2, c * 2), mode='nearest')", (3,)),
    ("y = F.interpolate(x, x.shape[-1:], mode='linear')", (1,)),
    ("y = F.interpolate(x, scale_factor=2)", ()),
])
def test_rank_where_the_code_says_it(src, rank):
    site = read_python("import torch.nn.functional as F\n" + src + "\n", "x.py")[0]
    if rank is not None:
        assert site.rank.values == rank


def test_onnx_make_node_with_the_op_on_the_next_line():
    found = sites('''
        from onnx import helper
        node = helper.make_node(
            "Resize",
            ["x", "", "scales"],
            ["y"],
            mode="nearest",
            coordinate_transformation_mode="asymmetric",
        )
        other = helper.make_node("Relu", ["x"], ["y"])
    ''')
    site = at(found, 2)
    assert (site.library, site.api, site.mode.values) == ("onnx", "onnx.helper.make_node:Resize", ("nearest",))
    assert site.extra["coordinate_transformation_mode"] == "asymmetric"
    assert len(found) == 1


def test_a_file_python_cannot_parse_raises_syntax_error():
    with pytest.raises(SyntaxError):
        read_python("import torch.nn.functional as F\nF.interpolate(x,\n", "broken.py")


def test_line_numbers_with_crlf_form_feeds_and_non_ascii():
    src = "import torch.nn.functional as F\r\n\x0c\r\ns = 'café ü'; y = F.interpolate(x, mode='bicubic')\r\n"
    (site,) = read_python(src, "x.py")
    assert (site.line, site.column) == (3, 21) and site.snippet.startswith("s = 'café")
