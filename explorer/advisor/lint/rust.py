"""Rust sources: Burn (and candle) resize *constructions*, read from the code only.

A lexer blanks comments, strings, character literals and macro templates (``quote! { ... }``:
code generated for another crate; ``macro_rules!`` bodies are code and are read), keeping every line and column.  Sites are the places that fix a mode:
``InterpolateOptions::new(mode)`` (with ``.with_align_corners(..)``), an ``InterpolateOptions { mode, .. }``
literal, and burn-nn's ``Interpolate1dConfig::new()`` / ``Interpolate2dConfig::new()`` chains
(``.with_mode``, ``.with_align_corners``, ``.with_scale_factor``).  ``match`` arms, ``matches!`` tests, type
names in signatures and backend plumbing that forwards an options value are not constructions.  Imports are
resolved: ``use ...::InterpolateMode as Mode``, grouped and glob imports.  When the options are built inside
an ``interpolate(...)`` call, the site is that call's line.

>>> src = '''use burn::tensor::ops::InterpolateMode as Mode;
... // let o = InterpolateOptions::new(Mode::Bilinear);
... fn up<B: Backend>(x: Tensor<B, 4>) -> Tensor<B, 4> {
...     match mode { Mode::NearestExact => todo!(), _ => () }
...     interpolate(
...         x, [8, 8],
...         InterpolateOptions::new(Mode::NearestExact).with_align_corners(false),
...     )
... }'''
>>> [(s.line, s.api, s.mode.values, s.align_corners.values) for s in read_rust(src, "up.rs")]
[(5, 'burn::tensor::module::interpolate', ('NearestExact',), (False,))]
"""

from __future__ import annotations

import bisect
import re

from .context import TRAINS, path_context, rust_tests
from .sites import Arg, Site, snippet_of, source_lines

OPS_MODES = ("Nearest", "NearestExact", "Bilinear", "Bicubic", "Lanczos3")
#: burn-nn's own enum, converted to the ops enum by ``From`` (burn-nn modules/interpolate/mod.rs).
NN_MODES = {"Nearest": "Nearest", "NearestExact": "NearestExact", "Linear": "Bilinear", "Cubic": "Bicubic",
            "Lanczos": "Lanczos3"}
CONFIGS = {"Interpolate1dConfig": 1, "Interpolate2dConfig": 2}
CANDLE = {"upsample_nearest1d": ("upsample_nearest2d", 1), "upsample_nearest2d": ("upsample_nearest2d", 2),
          "interpolate1d": ("upsample_nearest2d", 1), "interpolate2d": ("upsample_nearest2d", 2),
          "upsample_bilinear2d": ("upsample_bilinear2d", 2)}
#: tch-rs (libtorch's bindings: PyTorch's modes and conventions): method -> (mode, rank).  Its signatures:
#: ``upsample_nearest2d(size, scales_h, scales_w)``, ``upsample_bilinear2d(size, align_corners, scales_h,
#: scales_w)`` (``f_`` variants return a Result; ``internal_upsample_nearest_exact2d`` is nearest-exact).
TCH = {"upsample_nearest1d": ("nearest", 1), "upsample_nearest2d": ("nearest", 2),
       "upsample_nearest3d": ("nearest", 3), "upsample_linear1d": ("linear", 1),
       "upsample_bilinear2d": ("bilinear", 2), "upsample_bicubic2d": ("bicubic", 2),
       "upsample_trilinear3d": ("trilinear", 3), "internal_upsample_nearest_exact1d": ("nearest-exact", 1),
       "internal_upsample_nearest_exact2d": ("nearest-exact", 2),
       "internal_upsample_nearest_exact3d": ("nearest-exact", 3)}
WORDS = ("InterpolateOptions", "Interpolate1dConfig", "Interpolate2dConfig", "upsample_nearest", "interpolate1d",
         "interpolate2d", "upsample_bilinear2d", "upsample_bicubic2d", "upsample_linear1d", "upsample_trilinear3d")
_TCH_IMPORT = re.compile(r"use\s+tch|tch::")
_TEMPLATE = re.compile(r"\b(?:quote|quote_spanned)\s*!\s*([({\[])")
_USE = re.compile(r"\buse\s+([^;]+);")
_LET = re.compile(r"\blet\s+(?:mut\s+)?(\w+)\s*(?::[^=;]+)?=\s*([^;]+);")
_PATH_VARIANT = re.compile(r"^(?:(?:\w+)::)*(\w+)::(\w+)$")
_CLOSE = {"(": ")", "[": "]", "{": "}"}
#: Parentheses walked up from a construction to the call it is an argument of (real code nests a few deep).
MAX_NESTING = 10_000


def lex(text: str) -> tuple[str, dict[int, str]]:
    """(code with comments, strings and char literals blanked, {line: comment text})."""
    out = list(text)
    comments: dict[int, str] = {}
    i, n, line = 0, len(text), 1

    def blank(a, b):
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            comments[line] = (comments.get(line, "") + " " + text[i + 2:j]).strip()
            blank(i, j)
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            body = text[i:j]
            for k, part in enumerate(body.split("\n")):
                comments[line + k] = (comments.get(line + k, "") + " " + part.strip("/* ")).strip()
            blank(i, j)
            line += body.count("\n")
            i = j
        elif c in "rb" and re.match(r"(?:br|r|b)?#*\"", text[i:i + 8]) and (i == 0 or not (text[i - 1].isalnum()
                                                                                         or text[i - 1] == "_")):
            m = re.match(r"(br|r|b)?(#*)\"", text[i:i + 260])
            prefix, hashes = m.group(1) or "", m.group(2)
            start = i + m.end()
            if "r" in prefix:
                end = text.find('"' + hashes, start)
                end = n if end < 0 else end + 1 + len(hashes)
            else:
                end = _string_end(text, start)
            blank(start, max(start, end - 1 - len(hashes)))
            line += text.count("\n", i, end)
            i = end
        elif c == '"':
            end = _string_end(text, i + 1)
            blank(i + 1, max(i + 1, end - 1))
            line += text.count("\n", i, end)
            i = end
        elif c == "'":
            if text.startswith("\\", i + 1):
                end = text.find("'", i + 2)
                end = n if end < 0 else end + 1
            elif i + 2 < n and text[i + 2] == "'":
                end = i + 3
            else:  # a lifetime
                i += 1
                continue
            blank(i + 1, end - 1)
            i = end
        else:
            i += 1
    code = "".join(out)
    closes = bracket_ends(code)
    blanked_to = 0  # a template inside a template is blanked with it: matches before this offset are skipped
    for m in _TEMPLATE.finditer(code):
        start = m.end(1) - 1
        if start < blanked_to:
            continue
        end = closes.get(start, len(code))
        blank(start + 1, max(start + 1, end - 1))
        blanked_to = end
    return "".join(out), comments


def _string_end(text: str, start: int) -> int:
    """Index after the closing quote of a string whose body starts at ``start``."""
    i, n = start, len(text)
    while i < n:
        if text[i] == "\\":
            i += 2
        elif text[i] == '"':
            return i + 1
        else:
            i += 1
    return n


def bracket_ends(code: str) -> dict[int, int]:
    """{offset of an opening bracket: index after the bracket of its kind that closes it}, for ``(``, ``[`` and
    ``{`` (each kind counted on its own, as :func:`_balanced` counts), in one pass; unclosed ones are absent."""
    stacks = {opener: [] for opener in _CLOSE}
    closers = {closer: opener for opener, closer in _CLOSE.items()}
    ends = {}
    for m in re.finditer(r"[()\[\]{}]", code):
        ch, k = m.group(0), m.start()
        if ch in stacks:
            stacks[ch].append(k)
        elif stacks[closers[ch]]:
            ends[stacks[closers[ch]].pop()] = k + 1
    return ends


def _balanced(code: str, open_at: int, ends: dict | None = None) -> int:
    """Index after the bracket that closes the one at ``open_at`` (len(code) when unclosed); ``ends`` is
    :func:`bracket_ends` of ``code`` when the caller has it (then no scan)."""
    if ends is not None:
        return ends.get(open_at, len(code))
    opener = code[open_at]
    closer = _CLOSE[opener]
    depth = 0
    for k in range(open_at, len(code)):
        ch = code[k]
        if ch == opener:
            depth += 1
        elif ch == closer:
            depth -= 1
            if depth == 0:
                return k + 1
    return len(code)


def use_names(code: str) -> dict[str, str]:
    """local name -> full path of every ``use`` item (globs as ``path::*`` keys)."""
    out: dict[str, str] = {}

    def walk(prefix: str, tree: str):
        tree = tree.strip()
        if not tree:
            return
        if tree.endswith("}") and "{" in tree:
            head, body = tree.split("{", 1)
            head = head.strip().rstrip(":").strip()
            base = f"{prefix}::{head}" if prefix and head else (head or prefix)
            depth, part = 0, ""
            for ch in body[:-1]:
                if ch == "{":
                    depth += 1
                elif ch == "}":
                    depth -= 1
                if ch == "," and depth == 0:
                    walk(base, part)
                    part = ""
                else:
                    part += ch
            walk(base, part)
            return
        path = f"{prefix}::{tree}" if prefix else tree
        if " as " in path:
            path, alias = (p.strip() for p in path.rsplit(" as ", 1))
            out[alias] = path
        elif path.endswith("*"):
            out[path] = path
        else:
            out[path.rsplit("::", 1)[-1].strip()] = path.strip()

    for m in _USE.finditer(code):
        walk("", re.sub(r"\s+", " ", m.group(1)).replace(":: ", "::").replace(" ::", "::"))
    return out


def read_rust(text: str, path: str, wrappers: dict | None = None) -> list[Site]:
    """Every Burn (or candle) resize construction in one Rust source.  ``wrappers``: the project's functions
    whose parameter is the mode of a construction they make (:func:`wrapper_of`), by name; their calls are sites
    too (one level), with the mode the call passes."""
    if not any(word in text for word in WORDS) and not (wrappers and calls_any(text, wrappers)):
        return []
    code, _ = lex(text)
    reader = _Reader(text, code, path)
    sites = reader.sites() if any(word in text for word in WORDS) else []
    if wrappers:
        sites = sorted(sites + reader.wrapper_sites(wrappers), key=lambda s: (s.line, s.column))
    return sites


def crate_of(path: str) -> str:
    """The crate a source belongs to: the path before its ``src/`` (or ``examples/``, ``tests/``) folder."""
    m = re.match(r"^(.*?)(?:^|[/\\])(?:src|examples|tests|benches)[/\\]", path)
    return m.group(1) if m else ""


def wrapper_of(site: Site) -> tuple[str, dict] | None:
    """(function name, what it passes on) when a Burn construction's mode is a parameter of the function it is
    in: ``fn upsample<B: Backend>(x: Tensor<B, 4>, mode: InterpolateMode) -> .. { interpolate(x, size,
    InterpolateOptions::new(mode)) }`` is a wrapper, and its calls are read as that construction."""
    found = site.extra.get("rust_wrapper")
    if not found:
        return None
    return found["name"], dict(found, crate=crate_of(site.path), api=site.api, rank=site.rank.value,
                               align=site.align_corners, path=site.path)


def calls_any(text: str, names) -> bool:
    return any(name in text for name in names) and re.search(
        r"\b(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True)) + r")\s*(?:::\s*<[^>]*>\s*)?\(",
        text) is not None


class _Reader:
    def __init__(self, text: str, code: str, path: str):
        self.text, self.code, self.path = text, code, path
        self.lines = source_lines(text)
        self.line_starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", code)]
        self.uses = use_names(code)

        def local_names(target: str) -> set[str]:
            return {target} | {alias for alias, full in self.uses.items() if full.split("::")[-1] == target}

        self.options = local_names("InterpolateOptions")
        self.configs = {name: (cfg, rank) for cfg, rank in CONFIGS.items() for name in local_names(cfg)}
        self.mode_enums = local_names("InterpolateMode") | {"InterpolateMode"}
        globbed = any(full.endswith("InterpolateMode::*") for full in self.uses)
        self.bare_variants = set(OPS_MODES) | set(NN_MODES) if globbed else {
            alias for alias, full in self.uses.items() if full.split("::")[-2:-1] == ["InterpolateMode"]}
        self.candle = "candle" in code
        self.ends = bracket_ends(code)
        self._opens, self._closes, self._parents = self._paren_parents()
        self._lets: dict[str, list] | None = None
        self.test_lines = rust_tests(code)
        # the argument spans of tch's `no_grad(...)` calls, found once
        self.no_grad_spans = [(m.end() - 1, _balanced(code, m.end() - 1, self.ends))
                              for m in re.finditer(r"\bno_grad\s*\(", code)]
        self.has_main = re.search(r"\bfn\s+main\s*\(", code) is not None  # a binary
        found = path_context(path)
        if found is None and re.search(r"(^|[/\\])examples?[/\\]", path) and self.has_main:
            found = "script"  # an example's binary
        if found == "script" and TRAINS.search(code):
            found = None
        self.context = found or "model"

    def position(self, offset: int) -> tuple[int, int]:
        lo, hi = 0, len(self.line_starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.line_starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1, offset - self.line_starts[lo] + 1

    def _paren_parents(self) -> tuple[list[int], list[int], list[int]]:
        """Every ``(`` in order: its offset, the offset of its ``)`` (-1 when unclosed: it encloses nothing) and
        the index of the ``(`` it is nested in (-1 at the top), in one pass, for finding the call an argument is
        in."""
        opens, closes, parents, stack = [], [], [], []
        for m in re.finditer(r"[()]", self.code):
            if m.group(0) == "(":
                opens.append(m.start())
                closes.append(-1)
                parents.append(stack[-1] if stack else -1)
                stack.append(len(opens) - 1)
            elif stack:
                closes[stack.pop()] = m.start()
        return opens, closes, parents

    def enclosing_call(self, offset: int) -> int | None:
        """Offset of the name of the innermost ``interpolate(`` call whose arguments contain ``offset``: the last
        ``(`` before it, or the first of its enclosing ones still open there (a walk up the nesting, not along
        the file)."""
        k = bisect.bisect_left(self._opens, offset) - 1
        for _ in range(MAX_NESTING):
            if k < 0 or self._closes[k] > offset:
                break
            k = self._parents[k]
        else:
            return None  # nested deeper than any hand-written call
        best = self._opens[k] if k >= 0 else None
        if best is None:
            return None
        head = self.code[max(0, best - 120):best]
        m = re.search(r"((?:\w+::)*interpolate)\s*$", head)
        if m is None:
            return None
        return best - len(head) + m.start(1)

    def snippet(self, line: int) -> str:
        return snippet_of(self.lines[line - 1]) if 0 < line <= len(self.lines) else ""

    def site(self, offset: int, api: str, mode: Arg, align: Arg, rank: int, scale: Arg, end: int,
             library: str = "burn") -> Site:
        call = self.enclosing_call(offset) if library == "burn" else None
        if call is not None:
            api = "burn::tensor::module::interpolate"
        line, column = self.position(call if call is not None else offset)
        end_line, _ = self.position(end)
        context = "test" if line in self.test_lines else self.context
        no_grad = self.in_no_grad(offset)
        if no_grad and context == "model" and self.has_main:
            context = "evaluation"  # a binary's inference with the model it runs (`tch::no_grad(|| ...)`)
        outside = (context != "model" and not self.fn_trains(offset, line)) or no_grad  # a gradient test trains
        extra = {}
        if library == "burn" and not mode.values:
            wrapper = self.wrapper(offset, mode.detail.strip("`"), align.detail.strip("`"))
            if wrapper:
                extra["rust_wrapper"] = wrapper
        return Site(path=self.path, line=line, column=column, end_line=max(end_line, line), library=library,
                    api=api, mode=mode, align_corners=align, antialias=Arg.known(False, "api-default"),
                    rank=Arg.known(rank, "implied"), scale_factor=scale, runs="model", kind="construction",
                    snippet=self.snippet(line), context=context, training=False if outside else None,
                    exported=False if outside else None, extra=extra)

    def enclosing_fn(self, offset: int):
        """(name, [parameter names without self], has self, body start) of the ``fn`` whose body holds ``offset``."""
        for m in reversed(list(re.finditer(r"\bfn\s+(\w+)\s*(?:<[^{;]*?>)?\s*\(", self.code[:offset]))):
            close = _balanced(self.code, m.end() - 1, self.ends)
            brace = self.code.find("{", close)
            if brace < 0 or brace > offset:
                continue
            if _balanced(self.code, brace, self.ends) < offset:
                continue  # a function that ended before
            params, has_self = [], False
            for part in _top_level(self.code[m.end():close - 1]):
                part = part.strip()
                if re.fullmatch(r"&?\s*(?:'\w+\s+)?(?:mut\s+)?self(?:\s*:.*)?", part, re.DOTALL):
                    has_self = True
                    continue
                pm = re.match(r"(?:mut\s+)?(\w+)\s*:", part)
                params.append(pm.group(1) if pm else None)
            return m.group(1), params, has_self, brace
        return None

    def wrapper(self, offset: int, mode_text: str, align_text: str) -> dict | None:
        """What a construction whose mode is a parameter of its function passes on (:func:`wrapper_of`)."""
        if not re.fullmatch(r"\w+", mode_text or ""):
            return None
        found = self.enclosing_fn(offset)
        if found is None:
            return None
        name, params, has_self, brace = found
        if mode_text not in params:
            return None
        align = params.index(align_text) if align_text in params else None
        return {"name": name, "mode_index": params.index(mode_text), "align_index": align, "method": has_self,
                "owner": self.impl_type(brace)}

    def impl_type(self, offset: int) -> str | None:
        """The type of the ``impl`` block around ``offset`` (None for a free function)."""
        for m in reversed(list(re.finditer(r"\bimpl\b\s*(?:<[^{]*?>)?\s*(?:[\w:<>, ]+?\s+for\s+)?(\w+)[^{;]*\{",
                                           self.code[:offset]))):
            if _balanced(self.code, m.end() - 1, self.ends) > offset:
                return m.group(1)
        return None

    def wrapper_sites(self, wrappers: dict) -> list[Site]:
        """Calls of the project's wrappers (:func:`wrapper_of`), each read as the construction it wraps, with the
        mode (and align_corners) its argument passes."""
        out = []
        names = "|".join(sorted(map(re.escape, wrappers), key=len, reverse=True))
        here = crate_of(self.path)
        for m in re.finditer(r"(\.|::|\b)\s*(" + names + r")\s*(?:::\s*<[^>]*>\s*)?\(", self.code):
            if re.search(r"\bfn\s*$", self.code[max(0, m.start() - 10):m.start()]):
                continue  # the definition
            qualifier = re.search(r"(\w+)\s*$", self.code[max(0, m.start() - 80):m.start()]) \
                if m.group(1) == "::" else None
            open_at = m.end() - 1
            close = _balanced(self.code, open_at, self.ends)
            args = _top_level(self.code[open_at + 1:close - 1])
            for info in wrappers[m.group(2)]:
                if info["crate"] != here and m.group(2) not in self.uses:
                    continue  # another crate's function of that name, not imported here
                if (m.group(1) == ".") != info["method"]:
                    continue
                if info["owner"] and not info["method"] and not (
                        qualifier and qualifier.group(1) in (info["owner"], "Self")):
                    continue  # an associated function (``Up::new(mode)``) is called through its type
                if info["mode_index"] >= len(args):
                    continue
                mode = self.mode(args[info["mode_index"]], m.start())
                if not mode.values:
                    continue  # a call that passes a value on says nothing the wrapper's own site does not
                align = info["align"]
                if info["align_index"] is not None and info["align_index"] < len(args):
                    align = self.boolean(args[info["align_index"]])
                site = self.site(m.start(2), info["api"], mode, align, info["rank"] or 2,
                                 Arg.known(False, "api-default"), close)
                site.api = f"{info['name']} (wraps {info['api']}, {info['path']})"
                site.kind = "call"
                site.extra.pop("rust_wrapper", None)
                out.append(site)
                break
        return out

    def in_no_grad(self, offset: int) -> bool:
        """Whether ``offset`` is inside the closure given to tch's ``no_grad(|| ...)``: nothing there is
        differentiated."""
        return any(start < offset < end for start, end in self.no_grad_spans)

    def fn_trains(self, offset: int, line: int) -> bool:
        """Whether the test around ``offset`` computes gradients: its ``#[test]`` item, else its ``fn``."""
        if line in self.test_lines:
            return self.test_lines[line]
        start = max(self.code.rfind("\nfn ", 0, offset), self.code.rfind(" fn ", 0, offset))
        brace = self.code.find("{", start) if start >= 0 else -1
        if brace < 0 or brace > offset:
            return False
        return TRAINS.search(self.code, start, _balanced(self.code, brace) + 1) is not None

    def chain(self, after: int) -> tuple[list[tuple[str, str]], int]:
        """``.method(args)`` calls following a construction: ([(method, args)], end offset)."""
        calls, k = [], after
        while True:
            m = re.compile(r"\s*\.\s*(\w+)\s*\(").match(self.code, k)
            if m is None:
                return calls, k
            close = _balanced(self.code, m.end() - 1, self.ends)
            calls.append((m.group(1), self.code[m.end():close - 1]))
            k = close

    def mode(self, text: str, before: int, nn: bool = False) -> Arg:
        text = re.sub(r"\.(into|clone)\(\s*\)$", "", text.strip()).strip().lstrip("&")
        m = _PATH_VARIANT.match(text)
        variant = None
        if m and (m.group(1) in self.mode_enums or "InterpolateMode" in text):
            variant = m.group(2)
        elif re.fullmatch(r"\w+", text) and text in self.bare_variants:
            variant = text
        elif re.fullmatch(r"\w+", text):
            lets = self.lets_before(text, before)
            if lets:
                inner = lets[-1].group(2).strip()
                if inner != text and "::" in inner and lets[-1].start() < before:
                    found = self.mode(inner, lets[-1].start(), nn)
                    return Arg(found.values, "literal", f"`let {text}`") if found.values else found
        if variant is None:
            return Arg.unknown(f"`{text[:60]}`")
        table = NN_MODES if nn or variant in ("Linear", "Cubic", "Lanczos") else {m_: m_ for m_ in OPS_MODES}
        if variant not in table:
            return Arg.unknown(f"`{text[:60]}`")
        return Arg.known(table[variant])

    def lets_before(self, name: str, before: int) -> list:
        """The ``let name = ...;`` statements that end before ``before`` (every ``let`` of the file found once)."""
        if self._lets is None:
            self._lets = {}
            for lm in _LET.finditer(self.code):
                self._lets.setdefault(lm.group(1), []).append(lm)
        found = self._lets.get(name, [])
        ends = [lm.end() for lm in found]
        return found[:bisect.bisect_right(ends, before)]

    @staticmethod
    def boolean(text: str) -> Arg:
        text = text.strip()
        if text in ("true", "false"):
            return Arg.known(text == "true")
        return Arg.unknown(f"`{text[:60]}`")

    def tch_sites(self) -> list[Site]:
        """tch-rs calls (``xs.upsample_nearest2d([2 * h, 2 * w], None, None)``, ``Tensor::upsample_bicubic2d(&xs,
        ..)``): PyTorch's ops, read as its ``F.interpolate`` modes.  Outside a candle file the same method names
        are told apart by their signatures: tch's take a size list and the scales; a candle-like API (a project's
        vendored candle core) takes the sizes alone (``xs.upsample_nearest2d(h * 2, w * 2)?``), read as candle's."""
        out = []
        imported = _TCH_IMPORT.search(self.code) is not None
        names = "|".join(sorted(TCH, key=len, reverse=True))
        for m in re.finditer(rf"(\.|\bTensor\s*::)\s*(?:f_)?({names})(_vec)?\s*\(", self.code):
            if re.search(r"\bfn\s*$", self.code[max(0, m.start() - 10):m.start()]):
                continue
            close = _balanced(self.code, m.end() - 1, self.ends)
            args = [a.strip() for a in _top_level(self.code[m.end():close - 1])]
            if m.group(1) != ".":
                args = args[1:]  # Tensor::op(&xs, ...): the receiver is the first argument
            name, vec = m.group(2), bool(m.group(3))
            inside = self.enclosing_fn(m.start())
            if inside and re.sub(r"^f_", "", inside[0]) == name + (m.group(3) or ""):
                continue  # the binding of the op itself (tch's `fn upsample_nearest2d` calling its `f_` variant)
            mode, rank = TCH[name]
            takes_align = mode in ("linear", "bilinear", "bicubic", "trilinear")
            listed = bool(args) and re.match(r"^(&\s*)?(\[|vec!|Some\s*\(|None\b)", args[0]) is not None
            tch = imported or listed or vec or len(args) == rank + 1 + takes_align
            if not tch:
                if self.candle or name not in CANDLE:
                    continue
                if not self.candle and len(args) == rank + (name == "upsample_bilinear2d"):
                    candle_mode, candle_rank = CANDLE[name]
                    align = self.boolean(args[2]) if name == "upsample_bilinear2d" else Arg.known(None, "api-default")
                    out.append(self.site(m.start(2), f"candle::Tensor::{name}", Arg.known(candle_mode), align,
                                         candle_rank, Arg.known(False, "api-default"), close, library="candle"))
                continue
            align = Arg.known(None, "api-default")
            if takes_align and not vec and len(args) >= 2:
                align = self.boolean(args[1])
            scales = args[2:] if takes_align and not vec else args[1:]
            scale = Arg.known(False, "api-default")
            if vec and len(args) >= 2:
                scale = _fractional_scale(args[-1])
            elif scales and any(a not in ("None", "") for a in scales):
                scale = _fractional_scale(", ".join(scales))
            out.append(self.site(m.start(2), f"tch::Tensor::{name}", Arg.known(mode), align, rank, scale, close,
                                 library="torch"))
        return out

    def sites(self) -> list[Site]:
        out = []
        names = "|".join(sorted(map(re.escape, self.options | set(self.configs)), key=len, reverse=True))
        if names:
            for m in re.finditer(rf"(?<![\w:])(?:\w+::)*({names})\s*::\s*new\s*\(", self.code):
                close = _balanced(self.code, m.end() - 1, self.ends)
                args = self.code[m.end():close - 1]
                calls, end = self.chain(close)
                name = m.group(1)
                if name in self.configs:
                    mode, align = Arg.known("Nearest", "api-default"), Arg.known(None, "api-default")
                    scale = Arg.known(False, "api-default")
                    for method, value in calls:
                        if method == "with_mode":
                            mode = self.mode(value, m.start(), nn=True)
                        elif method == "with_align_corners":
                            align = self.boolean(value)
                        elif method == "with_scale_factor":
                            scale = _fractional_scale(value)
                    canonical, rank = self.configs[name]
                    out.append(self.site(m.start(1), f"burn::nn::interpolate::{canonical}", mode, align, rank, scale,
                                         end))
                else:
                    mode = self.mode(args, m.start())
                    align = Arg.known(None, "api-default")
                    for method, value in calls:
                        if method == "with_align_corners":
                            align = self.boolean(value)
                    out.append(self.site(m.start(1), "burn::tensor::ops::InterpolateOptions", mode, align, 2,
                                         Arg.known(False, "api-default"), end))
            options = "|".join(sorted(map(re.escape, self.options), key=len, reverse=True))
            for m in re.finditer(rf"(?<![\w:])(?:\w+::)*({options})\s*\{{", self.code) if options else ():
                before = self.code[max(0, m.start() - 40):m.start()]
                if re.search(r"\b(struct|impl|for|let|enum|fn|->)\s*$", before) or re.search(r"[:<]\s*$", before):
                    continue
                close = _balanced(self.code, m.end() - 1, self.ends)
                if re.match(r"\s*(=>|\||\bif\b|=[^=])", self.code[close:close + 8]):
                    continue  # a pattern, not a value
                body = self.code[m.end():close - 1]
                fields = _fields(body)
                if "mode" not in fields and not any(f.strip() == "mode" for f in body.split(",")):
                    continue
                mode = self.mode(fields["mode"], m.start()) if "mode" in fields else Arg.unknown("`mode`")
                align = self.boolean(fields["align_corners"]) if "align_corners" in fields else Arg.unknown(
                    "`align_corners`")
                out.append(self.site(m.start(1), "burn::tensor::ops::InterpolateOptions", mode, align, 2,
                                     Arg.known(False, "api-default"), close))
        out += self.tch_sites()
        if self.candle:
            for m in re.finditer(r"\.\s*(" + "|".join(CANDLE) + r")\s*\(", self.code):
                if re.search(r"\bfn\s*$", self.code[max(0, m.start() - 10):m.start()]):
                    continue
                close = _balanced(self.code, m.end() - 1, self.ends)
                mode, rank = CANDLE[m.group(1)]
                align = Arg.known(None, "api-default")
                if m.group(1) == "upsample_bilinear2d":
                    parts = self.code[m.end():close - 1].split(",")
                    align = self.boolean(parts[2]) if len(parts) >= 3 else Arg.unknown("`align_corners`")
                out.append(self.site(m.start(1), f"candle::Tensor::{m.group(1)}", Arg.known(mode), align, rank,
                                     Arg.known(False, "api-default"), close, library="candle"))
        out.sort(key=lambda s: (s.line, s.column))
        unique, seen = [], set()
        for s in out:
            if (s.line, s.column) not in seen:
                seen.add((s.line, s.column))
                unique.append(s)
        return unique


def _top_level(text: str) -> list[str]:
    """Comma-separated parts of an argument or parameter list, at the top level of its brackets."""
    out, depth, part = [], 0, ""
    for ch in text:
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>" and depth:
            depth -= 1
        if ch == "," and depth == 0:
            out.append(part)
            part = ""
        else:
            part += ch
    if part.strip():
        out.append(part)
    return out


def _fields(body: str) -> dict[str, str]:
    """field -> expression text of a struct literal body (top level only)."""
    out, depth, part = {}, 0, ""
    for ch in body + ",":
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            if ":" in part:
                key, value = part.split(":", 1)
                if not value.startswith(":"):
                    out[key.strip()] = value.strip()
            part = ""
        else:
            part += ch
    return out


def _fractional_scale(text: str) -> Arg:
    """``Some([1.5, 1.5])`` -> True; ``None`` or whole factors -> False (they give the same sizes everywhere)."""
    text = text.strip()
    if text == "None":
        return Arg.known(False)
    numbers = re.findall(r"-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?", text)
    if not numbers or re.search(r"[A-Za-z_]\w*", re.sub(r"\b(Some|f32|f64)\b", "", text)):
        return Arg.unknown(f"`{text[:60]}`")
    return Arg.known(any(not float(x).is_integer() for x in numbers))
