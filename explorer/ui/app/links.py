"""Opening the explorer in a given state: from a link's query string (the Voila page reads ``?scenario=aliasing``
or ``?mode=bicubic&scale=0.25``) or from a configuration exported by the app (:meth:`App.config_json`).

Values arrive as text and are read by the type of the setting: numbers, ``true`` / ``false``, comma-separated
lists, ``HxW`` sizes; the app then validates them as it validates any change.

>>> query_settings("scenario=aliasing&mode=bicubic&scale=0.25&antialias=true&modes=nearest,area&size=64x48")
('aliasing', {'mode': 'bicubic', 'scale': 0.25, 'antialias': True, 'modes': ('nearest', 'area'), 'size': (64, 48)}, [])
>>> query_settings("colour=red&seed=x")[2]  # doctest: +ELLIPSIS
["setting='colour' is not valid for the explorer; choose one of: ...", "seed='x' is not valid; give a whole number"]
"""

from __future__ import annotations

import json
import os
from urllib.parse import parse_qsl

from ...errors import choice_error
from .controls import parse_size
from .state import DEFAULTS

_BOOLEANS = {"true": True, "1": True, "yes": True, "on": True, "false": False, "0": False, "no": False,
             "off": False}
_LISTS = ("modes", "libraries", "targets", "frameworks", "priorities")
_FLOATS = ("scale",)
_INTS = ("seed", "length", "sample")
_BOXES = ("crop", "rect")


def read_value(key: str, text: str):
    """The value of setting ``key`` written as ``text``; a ValueError naming both when it cannot be read."""
    text = text.strip()
    try:
        if key == "size":
            return parse_size(text)
        if text.lower() in ("none", "") and (key in ("scale", "version", "device", "sample", "priorities")):
            return None
        if isinstance(DEFAULTS[key], bool):
            return _BOOLEANS[text.lower()]
        if key in _FLOATS:
            return float(text)
        if key in _INTS:
            return int(text)
        if key in _LISTS:
            return tuple(p.strip() for p in text.split(",") if p.strip())
        if key in _BOXES:
            return tuple(float(p) for p in text.split(","))
    except (KeyError, ValueError):
        kind = ("true or false" if isinstance(DEFAULTS[key], bool) else "a number" if key in _FLOATS
                else "a whole number" if key in _INTS else "four numbers: top,left,bottom,right")
        raise ValueError(f"{key}={text!r} is not valid; give {kind}") from None
    return text


def query_settings(query: str) -> tuple[str | None, dict, list]:
    """(scenario name or None, settings, problems) of a query string such as ``scenario=aliasing&scale=0.25``."""
    scenario, settings, problems = None, {}, []
    for key, text in parse_qsl((query or "").lstrip("?"), keep_blank_values=True):
        if key == "scenario":
            scenario = text
        elif key not in DEFAULTS:
            problems.append(str(choice_error("setting", key, DEFAULTS, context="for the explorer")))
        else:
            try:
                settings[key] = read_value(key, text)
            except ValueError as exc:
                problems.append(str(exc))
    return scenario, settings, problems


def config_settings(config) -> tuple[dict, list]:
    """(settings, notes) of a configuration exported by the app: a dict, its JSON text, or the path of a JSON
    file.  Lists become tuples; the call is recomputed; a custom image cannot travel in a configuration (the
    notes say which image it was)."""
    if isinstance(config, (str, os.PathLike)) and not str(config).lstrip().startswith("{"):
        with open(config, encoding="utf-8") as fh:
            config = json.load(fh)
    elif isinstance(config, str):
        config = json.loads(config)
    settings, notes = {}, []
    for key, value in dict(config).items():
        if key not in DEFAULTS:
            continue  # e.g. "call", written for people
        if key == "image" and isinstance(value, dict):
            notes.append(f"the configuration was made with a custom image ({value.get('custom', 'an array')}, "
                         f"{'×'.join(str(n) for n in value.get('shape', []))}); pass it as explore(image=...)")
            continue
        settings[key] = tuple(value) if isinstance(value, list) else value
    return settings, notes
