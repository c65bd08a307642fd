"""Defaults that callers override: a parameter's default is what a call computes with only when no caller
passes another value.

``DinoVisionTransformer(interpolate_antialias=False)`` sets ``self.interpolate_antialias`` from its default, but
the hub's builders pass ``interpolate_antialias=True`` and configurations say ``interpolate_antialias: true``:
the call computes with either.  A site whose mode or option is a parameter's default is looked up in the whole
tree (Python and configuration texts, one pass each): a keyword argument or configuration key of that name with
another value makes the default one branch of a condition.  Names as generic as ``mode`` or ``antialias`` are
counted only in calls of the function or class that declares them.  A flag's default that turns an ``if``
around a call on or off (``if self.aux:``) is looked up the same way, in the arguments of calls only: a caller
that may pass another value makes the call one branch of a condition; one that passes the value that runs it
makes the call certain.

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

from .sites import NO_BRANCH, table_mode

_DEFAULT = re.compile(r"default of parameter `(\w+)` of `(\w+)`")
OPTIONS = ("mode", "align_corners", "antialias")
#: Parameter names too common to look up anywhere: only in calls of their own function or class.
GENERIC = {"mode", "antialias", "align_corners", "interpolation", "method", "resample", "size", "scale_factor",
           "kind", "type"}
_UNKNOWN = object()
_SAME = object()  # a parameter passed on under its own name (``aux=aux``), which the linter does not follow


def _defaults(site):
    """(option, value, parameter, owner) for each option of a site whose value is the default of a parameter,
    and ("flag", ...) for the flag whose default turns on the ``if`` around the call."""
    for option in OPTIONS:
        arg = getattr(site, option)
        m = _DEFAULT.search(arg.detail or "") if arg.certain else None
        if m:
            yield option, arg.value, m.group(1), m.group(2)
    flag = site.extra.get("flag")
    if flag:
        yield "flag", flag["value"], flag["param"], flag["owner"]


def _wanted(sites) -> dict[str, tuple[str, list]]:
    out: dict = {}
    for site in sites:
        for option, value, param, owner in _defaults(site):
            same = out.setdefault(param, (owner, []))[1]
            same.append(value)
            if option == "mode":  # a wrapper's table: the values that select the same mode (unpool=True)
                same += [k for k, v in site.extra.get("mode_map", ()) if v == value]
    return out


def _owners(sites) -> dict[str, set]:
    """parameter -> the functions and classes whose default of it a site depends on."""
    out: dict = {}
    for site in sites:
        for _, _, param, owner in _defaults(site):
            out.setdefault(param, set()).add(owner)
    return out


def _is_default(value, defaults) -> bool:
    return any(value == d and type(value) is type(d) for d in defaults)


def _spans(sites) -> dict[str, list]:
    """path -> [(first line, last line, site)] of the calls that are sites."""
    out: dict = {}
    for site in sites:
        out.setdefault(site.path, []).append((site.line, site.end_line or site.line, site))
    return out


def _forwarded(spans: dict, path: str, line: int, name: str):
    """The values a call that is a site passes on as ``name=name`` (its own function's parameter): what that
    site read for it (the function's default, and what its callers pass); None when no site holds the line."""
    for first, last, site in spans.get(path, ()):
        if first <= line <= last:
            for option in OPTIONS:
                arg = getattr(site, option)
                if arg.values and f"parameter `{name}` of" in (arg.detail or ""):
                    return arg.values
            return ()
    return None


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
    """parameter -> [(value or the unknown marker, path, line, name called)] for the defaults of ``sites`` that some text
    in ``texts`` ([(path, reader, text)]) passes another value for."""
    wanted = _wanted(sites)
    if not wanted:
        return {}
    names = "|".join(sorted(map(re.escape, wanted), key=len, reverse=True))
    keyword = re.compile(r"(?<![\w.])(" + names + r")\s*=(?!=)\s*([^,)\n#]+)")
    key = re.compile(r"^\s*[\"']?(" + names + r")[\"']?\s*[:=]\s*([^,\n#}]+)", re.MULTILINE)
    found: dict[str, list] = {}
    spans, owners = _spans(sites), _owners(sites)
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
            if value is not _UNKNOWN and _is_default(value, defaults):
                continue
            forwarded = reader == "python" and value is _UNKNOWN and m.group(2).strip() == name
            if starts is None:
                starts = [0] + [k.end() for k in re.finditer(r"\n", text)]
            line = _line(starts, m.start())
            callee = _callee(text, m.start()) if reader == "python" else None
            if callee and callee.startswith("def ") and callee[4:] in owners.get(name, ()):
                continue  # the default of a function whose own sites read it (not a value passed down)
            values = _forwarded(spans, path, line, name) if forwarded else None
            if values is None:
                found.setdefault(name, []).append((_SAME if forwarded else value, path, line, callee))
                continue
            for value in values:  # passed on by a call that is a site: what that site's function receives
                if not _is_default(value, defaults):
                    found.setdefault(name, []).append((value, path, line, callee))
    return found


def _callee(text: str, at: int) -> str | None:
    """The name called by the parentheses offset ``at`` is inside (within 2,000 characters): ``right`` for
    ``right(X, unpool='nearest')``, ``def right`` in a signature (a function's own default, which may reach
    what it calls when it passes the parameter on), None outside a call."""
    head = text[max(0, at - 2000):at]
    depth = 0
    for k in range(len(head) - 1, -1, -1):
        c = head[k]
        if c == ")":
            depth += 1
        elif c == "(":
            if depth == 0:
                m = re.search(r"(\bdef\s+)?(\w+)\s*$", head[:k])
                return None if m is None else (f"def {m.group(2)}" if m.group(1) else m.group(2))
            depth -= 1
    return None


def _in_call_of(text: str, at: int, owner: str) -> bool:
    """Whether offset ``at`` is inside the parentheses of a call of ``owner`` (within 2,000 characters)."""
    return _callee(text, at) == owner


def apply(found: dict, sites) -> list:
    """The sites with each overridden default made one branch: the default and the values callers pass."""
    if not found:
        return list(sites)
    owners = _owners(sites)
    out = []
    for site in sites:
        changes = {}
        for option, default, param, owner in _defaults(site):
            if param not in found:
                continue
            others = owners.get(param, set()) - {owner}  # a call of another function taking it
            # for a flag, only arguments of calls count (not an assignment or a signature's default), and not a
            # parameter passed on under its own name
            passes = [(v, p, n) for v, p, n, callee in found[param] if callee not in others and (
                option != "flag" or (callee and not callee.startswith("def ") and v is not _SAME))]
            if not passes:
                continue
            where = ", ".join(f"{p}:{n}" for _, p, n in passes[:3]) + (" ..." if len(passes) > 3 else "")
            if option == "flag":
                flag = site.extra["flag"]
                known = [v for v, *_ in passes if v is not _UNKNOWN]
                if flag["on"] or not any(bool(v) == flag["takes"] for v in known):
                    # a caller may turn the flag off, or only callers the linter cannot read may turn it on
                    changes["extra"] = {**site.extra, "branch": f"callers pass {_shown(param, known)} ({where})"}
                else:  # a caller turns it on: the call runs
                    changes["extra"] = {k: v for k, v in site.extra.items() if k != "branch"}
                continue
            known = [v for v, *_ in passes if v is not _UNKNOWN and isinstance(v, (str, bool, type(None)))]
            if option == "mode" and site.extra.get("mode_map"):
                table = site.extra["mode_map"]
                modes = {mode for _, mode in table if mode is not None}
                mapped = [table_mode(table, v) for v in known]
                known = [m if m is not NO_BRANCH else (v if v in modes else None) for v, m in zip(known, mapped)]
                known = [v for v in known if v is not None]
            if option == "mode":
                known = [v.lower() if site.library in ("torch", "tensorflow", "jax") else v
                         for v in known if isinstance(v, str)]
            arg = getattr(site, option)
            values = tuple(dict.fromkeys((default, *known)))
            how = "conditional" if len(values) > 1 else "partial"
            changes[option] = type(arg)(values, how, f"{arg.detail}; callers pass {_shown(param, known)} ({where})")
        out.append(replace(site, **changes) if changes else site)
    return out


def _shown(param: str, known) -> str:
    """What callers pass, for a message: ``aux=False or aux=True``, or that they pass it from elsewhere."""
    return " or ".join(dict.fromkeys(f"{param}={v!r}" for v in known)) or f"{param} from elsewhere"


def _line(starts: list[int], offset: int) -> int:
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1
