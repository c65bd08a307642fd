"""Opening the explorer in a given state: from a link's query string (the Voila page reads ``?scenario=aliasing``
or ``?mode=bicubic&scale=0.25``) or from a configuration exported by the app (:meth:`App.config_json`).

Values arrive as text and are read by the type of the setting: numbers, ``true`` / ``false``, comma-separated
lists, ``HxW`` sizes; the app then validates them as it validates any change.

A link and a configuration are untrusted (``docs/threat-model.md``: anyone can send a link to a class's
server): they name **only built-in images and settings**, never a file.  ``?image=/home/user/scan.png`` is
refused with the same message whether or not the file exists (a link cannot probe the server's disk); a file
is opened only by the code that runs the explorer (``explore(image=path)``) or uploaded by the person using
it.  A query is at most :data:`~explorer.limits.APP_MAX_QUERY_CHARS` long, a configuration file at most
:data:`~explorer.limits.APP_MAX_CONFIG_BYTES`, and values are echoed shortened.

>>> query_settings("image=/etc/passwd")[2]  # doctest: +ELLIPSIS
["image='/etc/passwd' is not valid in a link; choose one of: 'checkerboard', ..., 'zone_plate' (a link names only built-in images: open a file with explore(image=path) or the upload button)"]

>>> query_settings("scenario=aliasing&mode=bicubic&scale=0.25&antialias=true&modes=nearest,area&size=64x48")
('aliasing', {'mode': 'bicubic', 'scale': 0.25, 'antialias': True, 'modes': ('nearest', 'area'), 'size': (64, 48)}, [])
>>> query_settings("colour=red&seed=x")[2]  # doctest: +ELLIPSIS
["setting='colour' is not valid for the explorer; choose one of: ...", "seed='x' is not valid; give a whole number"]
"""

from __future__ import annotations

import json
import os
from urllib.parse import parse_qsl

from ...errors import UnreadableError, brief, choice_error
from ...images import TEST_IMAGES
from ...limits import APP_MAX_CONFIG_BYTES, APP_MAX_QUERY_CHARS, JSON_MAX_DEPTH
from ...reading import printable, read_text
from .controls import parse_size
from .state import DEFAULTS

_BOOLEANS = {"true": True, "1": True, "yes": True, "on": True, "false": False, "0": False, "no": False,
             "off": False}
_LISTS = ("modes", "libraries", "targets", "frameworks", "priorities")
_FLOATS = ("scale",)
_INTS = ("seed", "length", "sample")
_BOXES = ("crop", "rect")


def write_value(key: str, value) -> str:
    """``value`` of setting ``key`` as a link writes it (what :func:`read_value` reads back).

    >>> write_value("size", (64, 48)), write_value("modes", ("nearest", "area")), write_value("antialias", True)
    ('64x48', 'nearest,area', 'true')
    """
    if value is None:
        return "none"
    if key == "size":
        return f"{value[0]}x{value[1]}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (tuple, list)):
        return ",".join(f"{v:g}" if isinstance(v, float) else str(v) for v in value)
    if isinstance(value, float):
        return repr(value)
    return str(value)


def view_query(state) -> tuple[str, list]:
    """(query string, notes) of a link that opens ``state``: every setting that differs from the defaults,
    and always how the image is resized (a built-in image otherwise opens at its own suggested scale); a
    custom image cannot travel in a link (the notes say so).

    >>> view_query(dict(DEFAULTS, size=(64, 48), scale=None, antialias=True))
    ('size=64x48&antialias=true', [])
    """
    from urllib.parse import urlencode

    pairs, notes = [], []
    for key, default in DEFAULTS.items():
        value = state[key]
        if key == "image" and value not in TEST_IMAGES:
            notes.append("the link opens the photo: an uploaded image cannot travel in a link")
            continue
        if key == "scale":
            if value is not None:
                pairs.append((key, write_value(key, value)))
            continue
        if key == "size" and value is not None or value != default:
            pairs.append((key, write_value(key, value)))
    return urlencode(pairs, safe=",x"), notes


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
        raise ValueError(f"{key}={brief(text)} is not valid; give {kind}") from None
    return text


def linked_image(value, where: str = "in a link"):
    """A built-in image's name, the only image a link or a configuration may name (see the module's docstring);
    anything else is refused with one message, whatever the disk holds."""
    if isinstance(value, str) and value in TEST_IMAGES:
        return value
    error = choice_error("image", value, TEST_IMAGES, context=where)
    raise type(error)(f"{error} (a link names only built-in images: open a file with explore(image=path) or the "
                      "upload button)")


def query_settings(query: str) -> tuple[str | None, dict, list]:
    """(scenario name or None, settings, problems) of a query string such as ``scenario=aliasing&scale=0.25``."""
    scenario, settings, problems = None, {}, []
    query = query or ""
    if not isinstance(query, str):
        return None, {}, [f"query={brief(query)} is not valid; give a link's query string"]
    if len(query) > APP_MAX_QUERY_CHARS:
        return None, {}, [f"the link's query has {len(query)} characters, more than the {APP_MAX_QUERY_CHARS} a "
                          "link may carry (explorer.limits.APP_MAX_QUERY_CHARS); nothing was read from it"]
    for key, text in parse_qsl(query.lstrip("?"), keep_blank_values=True):
        if key == "scenario":
            scenario = text
        elif key not in DEFAULTS:
            problems.append(str(choice_error("setting", key, DEFAULTS, context="for the explorer")))
        else:
            try:
                settings[key] = linked_image(text) if key == "image" else read_value(key, text)
            except ValueError as exc:
                problems.append(str(exc))
    return scenario, settings, problems


def config_settings(config) -> tuple[dict, list]:
    """(settings, notes) of a configuration exported by the app: a dict, its JSON text, or the path of a JSON
    file.  Lists become tuples; the call is recomputed; a custom image cannot travel in a configuration (the
    notes say which image it was)."""
    if isinstance(config, (str, os.PathLike)) and not str(config).lstrip().startswith("{"):
        config = _json(read_text(config, APP_MAX_CONFIG_BYTES, what="configuration file"), "configuration file")
    elif isinstance(config, str):
        if len(config) > APP_MAX_CONFIG_BYTES:
            raise UnreadableError(f"the configuration has {len(config)} characters, more than the limit of "
                                  f"{APP_MAX_CONFIG_BYTES}")
        config = _json(config, "configuration")
    if not isinstance(config, dict):
        raise ValueError(f"config={brief(config)} is not valid; give a configuration exported by the app (a dict, "
                         "its JSON text or the path of its JSON file)")
    settings, notes = {}, []
    for key, value in config.items():
        if key not in DEFAULTS:
            continue  # e.g. "call", written for people
        if key == "image" and isinstance(value, dict):
            custom = value.get("custom", "an array")
            shape = value.get("shape", [])
            shape = "×".join(str(n) for n in shape) if isinstance(shape, list) else brief(shape)
            notes.append(f"the configuration was made with a custom image ({printable(custom, 80)}, {shape}); pass it as "
                         "explore(image=...)")
            continue
        if key == "image":
            try:
                value = linked_image(value, "in a configuration")
            except ValueError as exc:
                notes.append(str(exc))
                continue
        settings[key] = tuple(value) if isinstance(value, list) else value
    return settings, notes


def _json(text: str, what: str):
    """JSON of a configuration: nested at most JSON_MAX_DEPTH deep; a clear error otherwise."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:  # a configuration is small (APP_MAX_CONFIG_BYTES): one pass for the nesting
        if in_string:
            escaped, in_string = (False, in_string) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    if deepest > JSON_MAX_DEPTH:
        raise ValueError(f"the {what} nests {deepest} levels deep; a configuration is a flat JSON object")
    try:
        return json.loads(text)
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ValueError(f"the {what} is not JSON: {exc}") from None
