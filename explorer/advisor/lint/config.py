"""Configuration files (YAML, TOML, JSON, INI): mode settings and instantiated resize transforms.

Two kinds of site:

* an instantiation target naming a known function (``target: torchvision.transforms.Resize`` with its
  ``params``, Hydra's ``_target_``, Lightning's ``class_path``): judged as that call, integer codes included
  (``interpolation: 3`` is Pillow's BICUBIC);
* a key about resizing (``upsample_mode``, ``"interpolation"``, ``resize_mode``, ``mode``) whose value, quoted
  or not, is a mode name: the call that reads it is not known, so its findings are at most warnings.

Lines are split into tokens by one pass of a regular expression that consumes each token whole, so the time
is linear in the line's length whatever it holds (a minified JSON file of one 30 KB line included).

>>> text = "decoder:\\n  upsample_mode: nearest-exact   # the default\\n  mode: train\\n"
>>> [(s.line, s.library, s.mode.values, s.kind) for s in read_config(text, "cfg.yaml")]
[(2, 'torch', ('nearest-exact',), 'config')]
"""

from __future__ import annotations

import re

from ...conventions import mode_names as names
from . import apis
from .sites import Arg, Site, snippet_of, source_lines

_TOKEN = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|[\w\-.]+|\S')
KEY_WORDS = ("interp", "upsampl", "resiz", "resampl", "mode")
TARGET_KEYS = ("target", "_target_", "class_path")
#: Spellings tried in this order when a configuration names a mode without saying which library's.
SPELLING_ORDER = ("torch", "burn", "opencv", "pillow", "tensorflow", "jax", "onnx")
WORDS = KEY_WORDS + ("Resize", "Upsample", "Interpolat", "Resampl")


def tokens(line: str):
    """(column, token) pairs of one line, stopping at a comment."""
    for m in _TOKEN.finditer(line):
        tok = m.group(0)
        if tok == "#" or tok.startswith("//"):
            return
        yield m.start(), tok


def pairs(line: str):
    """(column, key, value, quoted) for every ``key: value`` / ``key = value`` on a line."""
    toks = list(tokens(line))
    for k in range(len(toks) - 2):
        (col, key), (_, sep), (_, value) = toks[k], toks[k + 1], toks[k + 2]
        if sep not in (":", "=") or not _word(key):
            continue
        quoted = value[:1] in "\"'"
        if not quoted and not re.fullmatch(r"[\w\-.]+", value):
            continue
        yield col, _unquote(key), _unquote(value), quoted


def _word(token: str) -> bool:
    return bool(re.fullmatch(r"[\w\-.]+", _unquote(token)))


def _unquote(token: str) -> str:
    return token[1:-1] if len(token) >= 2 and token[0] == token[-1] and token[0] in "\"'" else token


def spelled_mode(value: str) -> tuple[str, str] | None:
    """(library, native mode) of a value that names a mode in some library's spelling, else None."""
    for library in (*SPELLING_ORDER, *(lib for lib in names.libraries() if lib not in SPELLING_ORDER)):
        if value in names.library_modes(library):
            return library, value
    if names.generic_family(value) is not None and value.lower() == value:
        try:
            return "torch", names.library_mode("torch", value)
        except ValueError:
            return None
    return None


def read_config(text: str, path: str) -> list[Site]:
    """Every mode setting and instantiated resize transform in one configuration file."""
    if not any(word.lower() in text.lower() for word in WORDS):
        return []
    lines = source_lines(text)
    sites: list[Site] = []
    block = None  # (site, key column) of an open instantiation target
    for number, line in enumerate(lines, 1):
        found = list(pairs(line))
        if block is not None and found:
            site, column = block
            first = found[0][0]
            dash = line[:first].strip() == "-"
            if first < column or (first == column and dash):
                block = None
            else:
                for _, key, value, quoted in found:
                    _apply(site, key, value, quoted)
                continue
        for column, key, value, quoted in found:
            if key in TARGET_KEYS:
                api = apis.lookup(value)
                if api is not None:
                    site = Site(path=path, line=number, column=column + 1, library=api.library, api=api.name,
                                mode=Arg.known(api.fixed.get("mode", api.defaults.get("mode")), "api-default"),
                                align_corners=Arg.known(api.fixed.get("align_corners",
                                                                      api.defaults.get("align_corners")), "api-default"),
                                antialias=Arg.known(api.defaults.get("antialias", False), "api-default"),
                                rank=Arg.known(api.rank, "implied") if api.rank else Arg.unknown("the input's rank"),
                                runs="host" if api.runs in ("host", "input") else "model", kind="config",
                                snippet=snippet_of(line))
                    site.extra["api"] = api
                    if api.antialias_modes is not None:
                        site.extra["antialias_modes"] = api.antialias_modes
                    sites.append(site)
                    block = (site, column)
                continue
            if not any(word in key.lower() for word in KEY_WORDS):
                continue
            spelled = spelled_mode(value)
            if spelled is None:
                continue
            library, mode = spelled
            sites.append(Site(path=path, line=number, column=column + 1, library=library, api=f"config:{key}",
                              mode=Arg.known(mode), rank=Arg.unknown("the input's rank"), runs="model",
                              kind="config", snippet=snippet_of(line)))
    for site in sites:
        site.extra.pop("api", None)
    return sites


def _apply(site: Site, key: str, value: str, quoted: bool):
    """A parameter of an instantiated target (``interpolation: 3``, ``antialias: false``)."""
    api: apis.Api = site.extra.get("api")
    key = key.lower()
    if api is not None and key == (api.mode_param or "mode"):
        mode = None
        if not quoted and re.fullmatch(r"\d+", value) and api.codes:
            mode = apis.code_mode(api.codes, int(value))
            if mode and api.library == "torchvision":
                mode = apis.PILLOW_TO_TORCHVISION.get(mode)
        else:
            tail = value.rsplit(".", 1)[-1]
            constant = apis.constant(value) or next((c for ns in apis.constants() if (c := apis.constant(f"{ns}.{tail}"))),
                                                    None)
            if constant:
                mode = constant[1]
                if api.library == "torchvision" and constant[0] == "pillow":
                    mode = apis.PILLOW_TO_TORCHVISION.get(mode)
            else:
                mode = value.lower() if api.library in ("torch", "torchvision") else value
        site.mode = Arg.known(mode, "literal") if mode else Arg.unknown(f"`{value}`")
    elif key in ("antialias", "align_corners"):
        flag = {"true": True, "false": False, "null": None, "none": None}.get(value.lower())
        arg = Arg.known(flag, "literal") if value.lower() in ("true", "false", "null", "none") else Arg.unknown(
            f"`{value}`")
        setattr(site, key, arg)
