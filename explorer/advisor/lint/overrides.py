"""Defaults that callers override: a parameter's default is what a call computes with only when no caller
passes another value.

``DinoVisionTransformer(interpolate_antialias=False)`` sets ``self.interpolate_antialias`` from its default, but
the hub's builders pass ``interpolate_antialias=True`` and configurations say ``interpolate_antialias: true``:
the call computes with either.  A site whose mode or option is a parameter's default is looked up in the whole
tree (Python and configuration texts, one pass each): a keyword argument or configuration key of that name with
another value makes the default one branch of a condition.  Names as generic as ``mode`` or ``antialias`` are
counted only in calls of the function or class that declares them.

>>> from explorer.advisor.lint.sites import Arg, Site
>>> site = Site("m.py", 9, 5, "torch", "torch.nn.functional.interpolate", Arg.known("bicubic"),
...             antialias=Arg.known(False, "init-attribute",
...                                 "`self.aa` set in class V, from the default of parameter `aa_pos` of `V`"))
>>> texts = [("hub.py", "python", "def vit_l():\\n    return make(aa_pos=True)\\n")]
>>> [s.antialias for s in apply(overridden([site], texts), [site])]
[Arg(values=(False, True), how='conditional', detail='`self.aa` set in class V, from the default of parameter `aa_pos` of `V`; callers pass aa_pos=True (hub.py:2)')]
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace

_DEFAULT = re.compile(r"default of parameter `(\w+)` of `(\w+)`")
OPTIONS = ("mode", "align_corners", "antialias")
#: Parameter names too common to look up anywhere: only in calls of their own function or class.
GENERIC = {"mode", "antialias", "align_corners", "interpolation", "method", "resample", "size", "scale_factor",
           "kind", "type"}
_UNKNOWN = object()


def _wanted(sites) -> dict[str, tuple[str, set]]:
    out: dict = {}
    for site in sites:
        for option in OPTIONS:
            arg = getattr(site, option)
            m = _DEFAULT.search(arg.detail or "") if arg.certain else None
            if m:
                out.setdefault(m.group(1), (m.group(2), set()))[1].add(arg.value)
    return out


def _value(text: str, reader: str):
    text = text.strip().rstrip(",").strip()
    if reader != "python":
        low = text.strip("'\"").lower()
        if low in ("true", "yes", "on"):
            return True
        if low in ("false", "no", "off"):
            return False
        if low in ("null", "none", "~"):
            return None
        return text.strip("'\"")
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return _UNKNOWN


def overridden(sites, texts) -> dict[str, list]:
    """parameter -> [(value or the unknown marker, path, line)] for the defaults of ``sites`` that some text
    in ``texts`` ([(path, reader, text)]) passes another value for."""
    wanted = _wanted(sites)
    if not wanted:
        return {}
    names = "|".join(sorted(map(re.escape, wanted), key=len, reverse=True))
    keyword = re.compile(r"(?<![\w.])(" + names + r")\s*=(?!=)\s*([^,)\n#]+)")
    key = re.compile(r"^\s*[\"']?(" + names + r")[\"']?\s*[:=]\s*([^,\n#}]+)", re.MULTILINE)
    found: dict[str, list] = {}
    for path, reader, text in texts:
        if not any(name in text for name in wanted):
            continue
        starts = None
        for m in (keyword if reader == "python" else key).finditer(text):
            name = m.group(1)
            owner, defaults = wanted[name]
            if reader != "python" and name in GENERIC:
                continue
            if reader == "python" and name in GENERIC and not _in_call_of(text, m.start(), owner):
                continue
            value = _value(m.group(2), reader)
            if value is not _UNKNOWN and any(value == d and type(value) is type(d) for d in defaults):
                continue
            if reader == "python" and value is _UNKNOWN and m.group(2).strip() == name:
                value = _UNKNOWN  # passed on from a caller's own parameter: any value
            if starts is None:
                starts = [0] + [k.end() for k in re.finditer(r"\n", text)]
            line = _line(starts, m.start())
            found.setdefault(name, []).append((value, path, line))
    return found


def _in_call_of(text: str, at: int, owner: str) -> bool:
    """Whether offset ``at`` is inside the parentheses of a call of ``owner`` (within 2,000 characters)."""
    head = text[max(0, at - 2000):at]
    depth = 0
    for k in range(len(head) - 1, -1, -1):
        c = head[k]
        if c == ")":
            depth += 1
        elif c == "(":
            if depth == 0:
                return re.search(r"\b" + re.escape(owner) + r"\s*$", head[:k]) is not None
            depth -= 1
    return False


def apply(found: dict, sites) -> list:
    """The sites with each overridden default made one branch: the default and the values callers pass."""
    if not found:
        return list(sites)
    out = []
    for site in sites:
        changes = {}
        for option in OPTIONS:
            arg = getattr(site, option)
            m = _DEFAULT.search(arg.detail or "") if arg.certain else None
            if not m or m.group(1) not in found:
                continue
            passes = found[m.group(1)]
            known = [v for v, *_ in passes if v is not _UNKNOWN and isinstance(v, (str, bool, type(None)))]
            if option == "mode":
                known = [v.lower() if site.library in ("torch", "tensorflow", "jax") else v
                         for v in known if isinstance(v, str)]
            where = ", ".join(f"{p}:{n}" for _, p, n in passes[:3]) + (" ..." if len(passes) > 3 else "")
            shown = " or ".join(dict.fromkeys(f"{m.group(1)}={v!r}" for v in known)) or \
                f"{m.group(1)} from elsewhere"
            values = tuple(dict.fromkeys((arg.value, *known)))
            how = "conditional" if len(values) > 1 else "partial"
            changes[option] = type(arg)(values, how, f"{arg.detail}; callers pass {shown} ({where})")
        out.append(replace(site, **changes) if changes else site)
    return out


def _line(starts: list[int], offset: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1
