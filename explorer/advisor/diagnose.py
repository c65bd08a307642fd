"""``diagnose``: a pasted error message, panic or whole traceback, matched to the record that explains it.

It reads the text like an engineer (:mod:`.clues`: the operations named, library, device, mode, opset,
dtype, direction, releases), then compares it with every exact text the knowledge base holds, each wording
with the releases that print it.  Words shared by many known texts (the boilerplate of every MPS or
determinism message) weigh little, words only one text has weigh most; a record whose text names a resize
operation matches only a text that names the same operation, and the clues settle ties (the device, the
mode, forward or backward, the release).  Paths, hashes and line numbers are ignored, and a text about
another operator (grid_sampler, index.Tensor) is honestly "not a known resize error".

>>> d = diagnose("thread 'main' panicked at crates/burn-tch/src/ops/module.rs:458:17:\\n"
...              "nearest exact interpolation backward is not supported by PyTorch/tch backend")
>>> d.matched, d.findings[0].record_id
(True, 'burn-tch-nearest-exact-backward')
>>> diagnose("segmentation fault in my toaster").matched
False
"""

from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass, field

from .. import limits
from ..conventions import registry
from ..errors import ArgumentTypeError, ArgumentValueError
from . import clues as clues_module
from .clues import Clues, read_clues, read_operators, tokens
from .findings import Finding, make_fix, versions_text
from .knowledge import Record, load
from .question import Question
from ..versions import VersionRange, describe_range, parse_version, scope_text

#: a known text is matched when the pasted text holds this share of its weight ...
COVERED = 0.7
#: ... or when the pasted text is a fragment of it holding this share of the pasted text's known words
FRAGMENT = 0.85
#: and the words in common weigh at least this much (about two words no other text has)
MIN_WEIGHT = 9.0
#: words any error may say: a short known text made of these alone ("division by zero") matches only when the
#: pasted text also names the record's library
COMMON_WORDS = frozenset("""a an and are as at be but by can cannot could for from got has have if in is it must
no not of on or should that the this to was with zero division index out bounds invalid argument unexpected
keyword error value type""".split())
#: a known text of at most this many words matches only when the paste holds it as a phrase or names its runtime
SHORT_TEXT = 5
#: what a pasted word no known text has weighs when the paste is compared as a fragment of a known text
UNKNOWN_WORD = 1.0
#: a known text the paste holds as a phrase (its words in order) outranks one whose words are only all there
PHRASE = 1.15
#: operation keys that name no kernel, only that a resize is meant (a Resize node, cv::resize)
GENERIC_OPS = frozenset({"resize"})
#: a known text of at most this many words matches only a paste holding IN_ORDER of its words' weight in its order
ORDERED_TEXT = 12
IN_ORDER = 0.8
#: a word of a known text at least this heavy, replaced in the paste by another word, makes it another text
SUBSTITUTED = 2.0
#: a fragment of a known text holds at least this many of its words side by side
RUN = 3
#: answers within this share of the best score are given too
TIES = 0.9


@dataclass
class Diagnosis:
    """The findings that explain a pasted text (``matched``), or the nearest ones with ``matched=False``."""

    text: str
    matched: bool
    findings: list = field(default_factory=list)
    message: str = ""
    clues: Clues | None = None
    #: for an unmatched resize text that names a measured runtime: what the text and the matrix still tell
    #: (:class:`explorer.advisor.inferred.Inferred`), never a record
    inferred: object = None

    def __str__(self):
        lines = [self.message]
        if self.inferred is not None:
            lines.append(self.inferred.message)
        for f in self.findings:
            lines.append(f"[{f.backend} {f.mode or ''} {f.operation or ''}] {f}")
            if f.versions:
                lines.append(f"    releases: {f.versions}")
            lines.extend(f"    fix: {fix}" for fix in f.fixes)
        return "\n".join(lines)

    def to_dict(self):
        return {"matched": self.matched, "message": self.message,
                "clues": self.clues.to_dict() if self.clues else {},
                "findings": [f.to_dict() for f in self.findings],
                "inferred": self.inferred.to_dict() if self.inferred is not None else None}


# ----------------------------------------------------------------------------------------------- the known texts
@dataclass(frozen=True)
class KnownText:
    """One exact text of a record, with the releases that print it and its words."""

    record: Record
    text: str
    versions: VersionRange
    wording: bool
    words: frozenset
    ops: frozenset
    any_op: bool
    pieces: tuple = ()     # the words of each run between placeholders, in order
    named: object = None   # what it names that another text of the same words does not (:class:`_Named`)


@dataclass(frozen=True)
class TextIndex:
    known: tuple
    weight: dict           # word -> weight (rarer across known texts = heavier)
    containing: dict       # word -> indices of the known texts that contain it
    totals: tuple          # total weight of each known text


def _template(text: str) -> tuple[frozenset, frozenset, bool, tuple]:
    """The words and operations of a known text without its ``{placeholders}``, whether one of them is an
    operator, and the words of each run between placeholders in order."""
    printed = clues_module.printed(text)
    plain = re.sub(r"\{[^{}]*\}|…", " ", printed)
    words = frozenset(tokens(plain))
    pieces = tuple(tuple(_words_in_order(p)) for p in re.split(r"\{[^{}]*\}|…", printed.lower()))
    return words, frozenset(read_operators(plain.lower(), words)[0]), "{op}" in text, tuple(p for p in pieces if p)


def _words_in_order(text: str) -> list[str]:
    """The words of a lower-case text in order, as :func:`tokens` keeps them (no numbers, no hashes)."""
    return [t for t in _WORD.findall(text) if len(t) > 1 and not t.isdigit()
            and not (_HEXLIKE.match(t) and any(c.isdigit() for c in t))]


_WORD = re.compile(r"[a-z0-9_]+")
_HEXLIKE = re.compile(r"^[0-9a-f]{7,64}$")


@registry.derived
def text_index() -> TextIndex:
    """Every exact text of the knowledge base, indexed by word (built once per set of declarations)."""
    known = []
    for record in load().records:
        if record.shared_text:
            continue  # its text is printed for any operation: it does not point to a resize
        wording_texts = {w.text: w.versions for w in record.wordings}
        for text in record.texts:
            words, ops, any_op, pieces = _template(text)
            known.append(KnownText(record, text, wording_texts.get(text, record.versions), text in wording_texts,
                                   words, ops, any_op, pieces, _Named(text.lower())))
    df: dict = {}
    for k in known:
        for w in k.words:
            df[w] = df.get(w, 0) + 1
    n = len(known)
    weight = {w: math.log((n + 1) / c) for w, c in df.items()}
    containing: dict = {}
    for i, k in enumerate(known):
        for w in k.words:
            containing.setdefault(w, []).append(i)
    totals = tuple(sum(weight[w] for w in k.words) for k in known)
    return TextIndex(tuple(known), weight, containing, totals)


# ----------------------------------------------------------------------------------------------- matching
@dataclass
class _Candidate:
    known: KnownText
    score: float
    coverage: float


def _families(record: Record) -> set[str]:
    kb = load()
    out = set()
    for bid in record.backends:
        table = kb.backends[bid].mode_table()
        out.update(table.values() if "*" in record.modes else (table[m] for m in record.modes if m in table))
    return out


def _record_libraries(record: Record) -> set[str]:
    kb = load()
    return {record.library} | {kb.backends[b].library for b in record.backends}


def _providers(record: Record) -> set[str]:
    """The ONNX Runtime execution provider names of the record's backends ("cudaexecutionprovider")."""
    kb = load()
    return {a for b in record.backends for a in kb.backends[b].aliases if a.endswith("executionprovider")}


def _ops_meet(known: frozenset, pasted: set) -> bool:
    """An operation of the known text is named in the pasted one ("aa": any antialiased kernel)."""
    for a in known:
        for b in pasted:
            if a == b or (a == "aa" and b.endswith("_aa")) or (b == "aa" and a.endswith("_aa")):
                return True
    return False


def _op_gate(k: KnownText, clues: Clues) -> float | None:
    """None when the operations rule the text out; else a factor for the score.

    A known text that names an operation matches only a text that names the same one; a text about another
    operator (and no resize) matches nothing.
    """
    pasted = set(clues.ops)
    if k.ops:
        if not _ops_meet(k.ops, pasted):
            return None
        # a named kernel (upsample_bilinear2d) is strong evidence; a node type ("while running Resize node")
        # says only that the text is about some resize
        return 1.0 if k.ops <= GENERIC_OPS else 1.5
    if k.any_op and not pasted:
        return None
    if not pasted and clues.foreign_ops:
        return None
    return 1.0


def _named_mode_fits(record: Record, clues: Clues) -> bool | None:
    """Whether the mode the library quoted back is the record's (None: no quoted mode, or a record of every mode)."""
    if not clues.named_modes or "*" in record.modes:
        return None
    spelled = {m.lower().replace("_", "-") for m in record.modes}
    return bool(spelled & set(clues.named_modes))


def _clue_factor(k: KnownText, clues: Clues) -> float | None:
    """How well the clues agree with the record (None: they contradict it)."""
    record = k.record
    factor = 1.0
    families = _families(record)
    if clues.op_modes and "*" not in record.modes and not (families & clues.op_modes):
        return None
    named = _named_mode_fits(record, clues)
    if named is False:
        return None
    if named:
        factor *= 1.3
    if clues.modes and "*" not in record.modes:
        factor *= 1.1 if families & clues.modes else 0.9
    specific = {d for d in clues.devices if d != "cpu"}
    if "*" not in record.devices and specific:
        factor *= 1.2 if specific & set(record.devices) else 0.6
    libraries = _record_libraries(record)
    if clues.providers:
        named = _providers(record)
        if named:  # the execution provider the text names (CPUExecutionProvider, a DmlExecutionProvider path)
            factor *= 1.2 if named & clues.providers else 0.7
    if clues.runtimes:
        factor *= 1.2 if clues.runtimes & libraries else 0.7
    operation = {"convention": "forward"}.get(record.operation, record.operation)
    if clues.operation != operation:
        factor *= 0.85
    version = _version_hint(record, clues)
    if version is not None:
        factor *= 1.1 if k.versions.contains(version) else 0.8
    if clues.opsets and "opset" in record.when:
        factor *= 1.1 if VersionRange(str(record.when["opset"])).contains(str(clues.opsets[0])) else 0.7
    if clues.antialias is not None and "antialias" in record.when:
        factor *= 1.1 if bool(record.when["antialias"]) == clues.antialias else 0.85
    if clues.dtypes and "dtype" in record.when:
        factor *= 1.1 if clues.dtypes & set(record.when["dtype"]) else 0.8
    return factor


def _version_hint(record: Record, clues: Clues) -> str | None:
    """The release of the record's library the text reveals (a version string, or a torch git hash)."""
    if record.library in clues.versions:
        return clues.versions[record.library]
    if record.library == "torch" and clues.commits:
        commits = load().runtimes["torch"].release_commits
        for release, commit in commits.items():
            if any(c.startswith(commit) or commit.startswith(c) for c in clues.commits):
                return release
    return None


def _candidates(words: set, clues: Clues) -> list[_Candidate]:
    index = text_index()
    known_words = words & index.weight.keys()
    matched: dict = {}
    for w in known_words:
        for i in index.containing[w]:
            matched[i] = matched.get(i, 0.0) + index.weight[w]
    said = clues.focus or words
    focus = said & index.weight.keys()
    # the words no known text has count too: a paste made mostly of them is no fragment of a known text
    unknown = len(said) - len(focus)
    pasted = (sum(index.weight[w] for w in focus) + UNKNOWN_WORD * unknown) or 1.0
    out = []
    order = _Order(clues)
    named = _Named(clues.flat)
    for i, weight in matched.items():
        k, total = index.known[i], index.totals[i]
        coverage = weight / total if total else 0.0
        fragment = sum(index.weight[w] for w in k.words & focus) / pasted
        if weight < min(MIN_WEIGHT, 0.9 * total) or (coverage < COVERED and fragment < FRAGMENT):
            continue
        if coverage < COVERED and not order.shares_run(k):
            continue  # a fragment of a known text is a piece of it: some of its words side by side
        if len(k.words) <= ORDERED_TEXT and order.in_order(k, index.weight) < IN_ORDER:
            continue  # the same words in another order are another sentence ("sizes or scales" / "scales or sizes")
        if order.substitutes(k, index.weight):
            continue  # the paste has another word where the known text has a word of its own ('input' / 'images')
        if len(k.words) <= 4 and k.words <= COMMON_WORDS and not (clues.runtimes & _record_libraries(k.record)):
            continue
        if len(k.words) <= SHORT_TEXT and not (clues.runtimes & _record_libraries(k.record)) \
                and not _phrase_in(k.text, clues):
            continue  # a few words another library may say too: only the whole phrase, or with its runtime
        if k.record.generic_text and not clues.names_resize:
            continue  # other calls print this text too: only a paste that shows a resize is explained by it
        if _other_text(k.named, named):
            # "Node number 7 (ADD) failed to prepare" is another node than "(RESIZE_BILINEAR) failed to prepare",
            # "'Upsample' object has no attribute 'weight'" another object than "'Resize' object ..."
            continue
        gate = _op_gate(k, clues)
        if gate is None:
            continue
        factor = _clue_factor(k, clues)
        if factor is None:
            continue
        if len(k.words) >= 3 and _phrase_in(k.text, clues):
            factor *= PHRASE  # the paste holds the known text word for word, not only its words
        if _is_warning(k.record) and not _warns(clues) and (coverage < 0.95 or _raises(clues)):
            factor *= 0.7  # an error explains a failing run better than a warning printed on the way
        elif not _is_warning(k.record) and _warns(clues):
            factor *= 0.7  # and a warning is explained by the warning's record
        out.append(_Candidate(k, max(coverage, fragment) * gate * factor * math.log1p(weight), coverage))
    return _by_record(out, words)


_FAILED_NODE = re.compile(r"\((\w+)\) failed to prepare")
_NO_ATTRIBUTE = re.compile(r"""(?:module )?['"]([\w.]+)['"] (?:object )?has no attribute ['"]([\w.]+)['"]""")
_UNEXPECTED_KEYWORD = re.compile(r"([\w.]+)\(\) got an unexpected keyword argument ['\"](\w+)['\"]")
#: the layer type (or parameter) an OpenCV DNN importer names: 'Can't create layer "up1" of type "Upsample"',
#: 'Unknown layer type ResizeBilinear in op ...', 'Unknown layer type: upsample', 'Required argument "interpolation"',
#: and the one ncnn's Net::load_param does not have: 'layer Resize not exists or registered'
_LAYER_TYPE = re.compile(r"""of type ['"]([\w.]+)['"]|unknown layer type:? ([\w.]+)|required argument ['"]([\w.]+)['"]"""
                         r"""|layer ([\w.]+) not exists or registered""")


class _Named:
    """What a text names that makes it another text than one of the same words, read once per text (lower case):
    the LiteRT node that failed to prepare, the (object type or module, attribute) pairs of Python's
    AttributeError, the (function, keyword) pairs of its unexpected-keyword TypeError, and the layer types (or
    parameters) an OpenCV DNN importer refuses or ncnn's param loader does not know.  A placeholder (``{name}``) names nothing."""

    __slots__ = ("nodes", "attributes", "calls", "layer_types")

    def __init__(self, lower: str):
        self.nodes = set(_FAILED_NODE.findall(lower))
        self.attributes = set(_NO_ATTRIBUTE.findall(lower))
        self.calls = set(_UNEXPECTED_KEYWORD.findall(lower))
        self.layer_types = {next(g for g in groups if g) for groups in _LAYER_TYPE.findall(lower)}


def _other_node(known: _Named, pasted: _Named) -> bool:
    """The paste names the LiteRT node that failed to prepare, and it is not the known text's node."""
    return bool(known.nodes) and bool(pasted.nodes) and not pasted.nodes & known.nodes


def _other_attribute(known: _Named, pasted: _Named) -> bool:
    """The known text is an AttributeError about one object type (or module) and attribute, and the paste
    quotes one about another: the type and the attribute are all such a text says, the rest is Python's."""
    # Python 2 says "'module' object has no attribute 'Upsample'" where Python 3 names the module
    return bool(known.attributes) and bool(pasted.attributes) and not any(
        a == b and (t == u or "module" in (t, u)) for t, a in known.attributes for u, b in pasted.attributes)


def _other_layer_type(known: _Named, pasted: _Named) -> bool:
    """The known text is an importer's refusal of one layer type (or one missing parameter), and the paste
    names another: "Can't create layer ... of type "Mish"" is not the text of type "Upsample", whatever else
    the two share."""
    return bool(known.layer_types) and bool(pasted.layer_types) and not known.layer_types & pasted.layer_types


def _other_call(known: _Named, pasted: _Named) -> bool:
    """The known text is Python's TypeError for a keyword one function does not take, and the paste quotes it
    for another function ("upsample_bilinear2d() got an unexpected keyword argument 'align_corners'" is not
    "resize() got ..."): the function and the keyword are all such a text says."""
    return bool(known.calls) and bool(pasted.calls) and not any(
        f.rsplit(".", 1)[-1] == g.rsplit(".", 1)[-1] and a == b for f, a in known.calls for g, b in pasted.calls)


def _other_text(known: _Named, pasted: _Named) -> bool:
    """Whether the paste names another node, object, function or layer type than the known text."""
    return (_other_node(known, pasted) or _other_attribute(known, pasted) or _other_call(known, pasted)
            or _other_layer_type(known, pasted))


def _same_stem(a: str, b: str) -> bool:
    """Two spellings of one word (support / supports, current / currently)."""
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n >= 4 and n >= 0.6 * min(len(a), len(b))


class _Order:
    """Where each word of the paste stands, to compare the order of its words with a known text's."""

    def __init__(self, clues: Clues):
        self.flat = clues.flat
        self._at = None

    @property
    def at(self) -> dict:
        if self._at is None:
            at: dict = {}
            for n, w in enumerate(self.sequence):
                at.setdefault(w, []).append(n)
            self._at = at
        return self._at

    def in_order(self, k: KnownText, weight: dict) -> float:
        """The share of the weight of the known text's words the paste has that it has in the known text's order
        (a greedy walk over the paste's positions, each run between placeholders on its own)."""
        have = held = 0.0
        for piece in k.pieces:
            pos = -1
            for w in piece:
                places = self.at.get(w)
                if not places:
                    continue
                have += weight.get(w, 0.0)
                j = bisect.bisect_right(places, pos)
                if j < len(places):
                    pos = places[j]
                    held += weight.get(w, 0.0)
        return held / have if have else 1.0

    def substitutes(self, k: KnownText, weight: dict) -> bool:
        """Whether the paste holds the known text with one of its own words (not a placeholder, not a word every
        text has) replaced by another word some record knows: the words on both sides at the same distance, a word
        the known text does not have between them (``parameter 'input' has`` for ``parameter 'images' has``)."""
        for piece in k.pieces:
            aligned, pos = [], -1
            for w in piece:
                places = self.at.get(w)
                j = bisect.bisect_right(places, pos) if places else 0
                if places and j < len(places):
                    pos = places[j]
                    aligned.append(pos)
                else:
                    aligned.append(None)
            for i, w in enumerate(piece):
                if aligned[i] is not None or weight.get(w, 0.0) < SUBSTITUTED:
                    continue
                before = next((n for n in range(i - 1, -1, -1) if aligned[n] is not None), None)
                after = next((n for n in range(i + 1, len(piece)) if aligned[n] is not None), None)
                if before is None or after is None or aligned[after] - aligned[before] != after - before:
                    continue
                between = set(self.sequence[aligned[before] + 1: aligned[after]])
                if between and not between & k.words and any(weight.get(v, 0.0) for v in between) \
                        and not any(_same_stem(v, w) for v in between):
                    return True  # (a word no known text has there is a typo or a name: 'funtion', a path; the
                    # same word inflected is another release's wording: 'support' for 'supports')
        return False

    @property
    def sequence(self) -> list:
        if "_sequence" not in self.__dict__:
            self.__dict__["_sequence"] = _words_in_order(self.flat)
        return self.__dict__["_sequence"]

    def shares_run(self, k: KnownText) -> bool:
        """Whether the paste holds RUN consecutive words of the known text next to each other (or a whole piece
        between placeholders shorter than that)."""
        for piece in k.pieces:
            n = min(RUN, len(piece))
            for start in range(len(piece) - n + 1):
                first = self.at.get(piece[start])
                if not first:
                    continue
                for p in first:
                    if all(p + d in self._places(piece[start + d]) for d in range(1, n)):
                        return True
        return False

    def _places(self, word: str) -> set:
        cache = self.__dict__.setdefault("_sets", {})
        if word not in cache:
            cache[word] = set(self.at.get(word, ()))
        return cache[word]


def _is_warning(record: Record) -> bool:
    """A record of a message printed while the call runs (a UserWarning, a log line), or of no failure."""
    return record.status != "fails" or (record.error_type or "").endswith(("Warning", "warning", "log"))


def _warns(clues: Clues) -> bool:
    """The pasted text is a warning (``UserWarning: ...``, ``warnings.warn``, a ``[W]`` log line)."""
    return bool({"userwarning", "warning", "warnings", "futurewarning", "deprecationwarning"} & clues.words) \
        and not {"traceback", "exception"} & clues.words


def _raises(clues: Clues) -> bool:
    """The pasted text shows an exception raised (a traceback): what failed is the exception, not a warning
    printed on the way."""
    return "traceback" in clues.words


def _phrase_in(known: str, clues: Clues) -> bool:
    """Whether the pasted text holds the known text's words in order (its placeholders as any words)."""
    pieces = [p for p in re.split(r"\{[^{}]*\}|…", clues_module.printed(known).lower()) if p.strip()]
    return bool(pieces) and all(" ".join(p.split()) in clues.flat for p in pieces)


def _by_record(candidates: list[_Candidate], words: set) -> list[_Candidate]:
    """One candidate per record, its best text; a record several of whose texts the paste holds ranks higher,
    when the other texts match words of the paste its best text does not (a second text made of the same words
    is no second piece of evidence)."""
    best: dict = {}
    for c in candidates:
        rid = c.known.record.id
        if rid not in best or c.score > best[rid].score:
            best[rid] = c
    count: dict = {}
    for c in candidates:
        top = best[c.known.record.id].known
        if c.known is top or (c.known.words & words) - top.words:
            count[top.record.id] = count.get(top.record.id, 0) + 1
    out = [_Candidate(c.known, c.score * (1 + 0.1 * (count[rid] - 1)), c.coverage) for rid, c in best.items()]
    out.sort(key=lambda c: -c.score)
    return out


# ----------------------------------------------------------------------------------------------- answers
def _backend(record: Record, clues: Clues) -> str:
    """The record's backend the text points to (keras-tensorflow for a Keras traceback, burn-tch for tch ...)."""
    kb = load()
    best, best_hits = record.backends[0], 0
    for bid in record.backends:
        b = kb.backends[bid]
        names = set(re.split(r"[-_]", bid)) | {a for alias in b.aliases for a in re.split(r"[-_]", alias)}
        hits = len(names & clues.words) + (b.library in clues.runtimes)
        if hits > best_hits:
            best, best_hits = bid, hits
    return best


def _mode(record: Record, backend_id: str, clues: Clues) -> str:
    table = load().backends[backend_id].mode_table()
    modes = list(table) if "*" in record.modes else [m for m in record.modes if m in table]
    for m in modes:
        if table[m] in (clues.op_modes or clues.modes) and m.lower() in clues.words | {m.lower()}:
            return m
    for m in modes:
        if table[m] in (clues.op_modes or clues.modes):
            return m
    return modes[0] if "*" not in record.modes else "*"


def _setup(record: Record, backend_id: str, mode: str, clues: Clues, version: str | None) -> Question:
    kb = load()
    backend = kb.backends[backend_id]
    lib = kb.runtimes[backend.library]
    if version is None or backend.library != record.library:
        in_range = [v for v in kb.versions(backend.library) if record.versions.contains(v)]
        version = lib.newest if record.versions.contains(lib.newest) or not in_range else in_range[-1]
        if backend.library == record.library and not record.versions.contains(version):
            version = lib.oldest
    when = record.when
    ac = when.get("align_corners")
    ac = ac[0] if isinstance(ac, list) else ac
    exporter = when.get("exporter", [None])[0]
    export = {"export_coreml": "coreml", "export_tflite": "tflite"}.get(record.operation) or (
        f"onnx-{exporter or 'dynamo'}" if record.operation == "export_onnx" else None)
    device = next((d for d in clues.devices if d in backend.devices and (d in record.devices or "*" in record.devices)),
                  None if record.devices[0] == "*" else record.devices[0])
    if mode == "*":
        mode = next(iter(backend.mode_table()))
    return Question.of(mode=mode, backend=backend.id, version=version, device=device,
                    align_corners=None if ac in (None, "unset") else ac, antialias=bool(when.get("antialias", False)),
                    spatial_dims=when.get("spatial_dims", [2])[0], dtype=when.get("dtype", ["float32"])[0],
                    deterministic=bool(when.get("deterministic", False)), export=export,
                    opset=clues.opsets[0] if clues.opsets and export and export.startswith("onnx") else None,
                    reference=None)


def _finding(candidate: _Candidate, clues: Clues) -> Finding:
    k, record = candidate.known, candidate.known.record
    backend_id = _backend(record, clues)
    mode = _mode(record, backend_id, clues)
    version = _version_hint(record, clues)
    setup = _setup(record, backend_id, mode, clues, version if version and k.versions.contains(version) else None)
    fixes = [f for f in (make_fix(fid, setup) for fid in record.fixes) if f is not None]
    fixes = [f for f in fixes if f.id not in applied_fixes(clues, k.text)]
    releases = versions_text(record)
    if k.wording or k.versions != record.versions:
        releases = f"this wording: {describe_range(record.library, k.versions)}; the failure: {releases}"
    return Finding(severity=record.default_severity, message=record.message, source=record.source,
                   error_text=k.text, error_type=record.error_type, fixes=fixes, record_id=record.id,
                   backend=backend_id, mode=mode, operation=record.operation, status=record.status,
                   evidence=record.evidence, versions=releases)


#: fixes a pasted text can show already applied (the traceback's own call), by what the call says
APPLIED = {"deterministic-warn-only": ("warn_only=true",), "drop-antialias": ("antialias=false",),
           "torch-set-align-corners": ("align_corners=false", "align_corners=true"),
           "torchvision-pass-antialias": ("antialias=true", "antialias=false"),
           "cast-float32": (".float()", "dtype=torch.float32", "astype(np.float32)"),
           "move-to-cpu": (".cpu()", "device='cpu'", 'device="cpu"')}


def applied_fixes(clues: Clues, known: str = "") -> set:
    """The fix ids the text shows already applied (``warn_only=True`` in the message, ``antialias=False``
    passed in the traceback's call), outside the words of the known text itself (a warning that says "please
    specify align_corners=True" has not applied it): they are not offered."""
    flat = clues.flat
    for piece in re.split(r"\{[^{}]*\}|…", known.lower()):
        piece = " ".join(piece.split())
        if len(piece) > 12:
            flat = flat.replace(piece, " ")
    flat = flat.replace(" ", "")
    return {fid for fid, marks in APPLIED.items() if any(m in flat for m in marks)}


def _scope_note(record: Record, k: KnownText, clues: Clues) -> str:
    """What to say when the wording or the release the text names is outside the releases checked."""
    lib = load().runtimes[record.library]
    version = _version_hint(record, clues)
    oldest = parse_version(lib.oldest)
    uppers = [parse_version(v) for op, v in k.versions.raw_clauses if op in ("<", "<=")]
    if uppers and max(uppers) <= oldest:
        return (f" This wording is printed by {record.library} releases before {lib.oldest}, older than the "
                f"releases checked ({scope_text(lib.scope)}): the cause below is what was reported for them, "
                f"not a fact checked here.")
    if version is not None and not lib.in_scope(version):
        return (f" The text names {record.library} {version}, outside the releases checked "
                f"({scope_text(lib.scope)}): the answer reads the records' ranges as written.")
    return ""


def _summary(findings: list[Finding], clues: Clues, candidates: list[_Candidate]) -> str:
    first, k = findings[0], candidates[0].known
    if _is_warning(k.record):
        text = (f"Known resize warning, not an error (the call runs): {first.record_id} on {first.backend} (mode "
                f"{first.mode}, {first.operation}). {first.message}")
    else:
        text = (f"Known resize error: {first.record_id} on {first.backend} (mode {first.mode}, {first.operation}). "
                f"{first.message}")
    text += _scope_note(k.record, k, clues)
    applied = applied_fixes(clues, k.text) & set(k.record.fixes)
    if applied:
        text += f" The text shows {', '.join(sorted(applied))} already applied: not offered again."
    version = _version_hint(k.record, clues)
    if version is not None and load().runtimes[k.record.library].in_scope(version):
        where = "prints" if k.versions.contains(version) else "does not print"
        text += f" The text names {k.record.library} {version}, which {where} this wording."
    elif not k.versions.every:
        text += f" This wording is printed by {describe_range(k.record.library, k.versions)}."
    if len(findings) > 1:
        text += f" {len(findings) - 1} other record(s) fit as well: see below."
    return text


def _read_summary(clues: Clues) -> str:
    parts = []
    if clues.foreign_ops:
        parts.append(f"it is about {', '.join(clues.foreign_ops[:3])}, which is not a resize")
    for label, values in (("operations", clues.ops), ("runtimes", sorted(clues.runtimes)),
                          ("devices", sorted(clues.devices)), ("modes", sorted(clues.modes))):
        if values:
            parts.append(f"{label}: {', '.join(values)}")
    return "; ".join(parts)


def diagnose(text: str) -> Diagnosis:
    """Match ``text`` (a whole traceback or panic, its message line, or a fragment) to the knowledge base.

    Each answer names the record, the backend, mode and operation, the cause (the finding's message), the
    releases that print the wording, and the fixes.  A text no record explains gets ``matched=False`` and a
    message saying so, with what was read from it.
    """
    if not isinstance(text, str):
        raise ArgumentTypeError(f"text must be the error message as a string, got {type(text).__name__}")
    if not text.strip():
        raise ArgumentValueError("text is empty: paste the error message or panic you saw")
    if len(text) > limits.DIAGNOSE_MAX_CHARS:
        raise ArgumentValueError(f"text has {len(text):,} characters, more than the {limits.DIAGNOSE_MAX_CHARS:,} "
                                 "diagnose reads: paste the traceback, not the whole log")
    clues = read_clues(text)
    candidates = _candidates(set(clues.words), clues)
    if candidates:
        best = candidates[0].score
        chosen = [c for c in candidates if c.score >= TIES * best][:3]
        findings = [_finding(c, clues) for c in chosen]
        return Diagnosis(text, True, findings, _summary(findings, clues, chosen), clues)
    read = _read_summary(clues)
    message = ("Not a known resize error: no record of the knowledge base explains this text"
               + (f" ({read})." if read else ".") + _read_node(clues)
               + " If it comes from a resize, run `python -m explorer check --backend <id> --mode <mode>` for "
                 "your configuration.")
    from .inferred import infer
    return Diagnosis(text, False, [], message, clues, infer(clues))


_ATTRIBUTE_VALUE = re.compile(r"(coordinate_transformation_mode|coordinate transformation mode|nearest_mode|"
                              r"nearest mode|mode)\W{0,4}(?:is\W{0,2})?([a-z_]{4,24})")
_SHAPE = re.compile(r"[\[(](\d{1,5}), ?(\d{1,5}), ?(\d{1,5}), ?(\d{1,5})[\])]")


def read_node(clues: Clues) -> dict:
    """The ONNX Resize attributes and the NCHW shapes a text names ("coordinate_transformation_mode=half_pixel",
    "mode: 'nearest'", "(1, 16, 144, 112)"), as far as they are ONNX's values."""
    from .question import ATTRIBUTES
    found = {}
    for name, value in _ATTRIBUTE_VALUE.findall(clues.flat):
        key = {"mode": "mode", "nearest mode": "nearest_mode",
               "coordinate transformation mode": "coordinate_transformation_mode"}.get(name, name)
        choices = ("nearest", "linear", "cubic") if key == "mode" else ATTRIBUTES[key]
        if value in choices:
            found.setdefault(key, value)
    shapes = [tuple(int(v) for v in m) for m in _SHAPE.findall(clues.flat)]
    if len(shapes) >= 2 and shapes[0][:2] == shapes[1][:2] and shapes[0] != shapes[1]:
        found["sizes"] = (shapes[0][2:], shapes[1][2:])
    return found


def _read_node(clues: Clues) -> str:
    """What the text says of the node, and the configurations the runtime's backend is recorded to run that
    compute the same weights (computed by the engine)."""
    node = read_node(clues)
    if not node:
        return ""
    said = ", ".join(f"{k}={v}" for k, v in node.items() if k != "sizes")
    if "sizes" in node:
        said += (", " if said else "") + f"sizes {node['sizes'][0]} -> {node['sizes'][1]}"
    out = f" Read from the text: {said}."
    alternatives = _alternatives(clues, node)
    return out + (f" {alternatives}" if alternatives else "")


@registry.derived
def runnable_configurations() -> dict:
    """(backend id, ONNX mode) -> the node attributes (coordinate_transformation_mode, nearest_mode) check()
    finds nothing failing for on that backend, each with the Spec it computes; and ("target", mode, attributes)
    -> the Spec ONNX Runtime computes for a node read from a text.  Derived from the declarations and the
    knowledge base, filled on first use (an unmatched text's alternatives cost one check per configuration
    once, then a lookup)."""
    return {}


def target_spec(mode: str, wanted: dict):
    """The Spec of an ONNX ``Resize`` of ``mode`` with the attributes ``wanted`` (as ONNX Runtime computes it), or
    None when the attributes do not make a node; cached with the runnable configurations."""
    from .backend_calls import computation, spec_of
    table = runnable_configurations()
    key = ("target", mode, tuple(sorted(wanted.items())))
    if key not in table:
        try:
            table[key] = spec_of(computation(Question.of(mode=mode, backend="onnxruntime", attributes=wanted)))
        except ValueError:
            table[key] = None
    return table[key]


def _runnable(backend_id: str, mode: str) -> tuple:
    from .backend_calls import computation, spec_of
    from .findings import check
    from .question import ATTRIBUTES
    table = runnable_configurations()
    if (backend_id, mode) not in table:
        rows = []
        for transform in ATTRIBUTES["coordinate_transformation_mode"][:5]:
            for rounding in (ATTRIBUTES["nearest_mode"] if mode == "nearest" else (None,)):
                attrs = {"coordinate_transformation_mode": transform, **({"nearest_mode": rounding} if rounding else {})}
                try:
                    q = Question.of(mode=mode, backend=backend_id, attributes=attrs, training=False, reference=None)
                    # a failure check() demotes (it needs a condition the question does not state, an empty
                    # input) does not rule the configuration out
                    if any(f.severity == "error" for f in check(q)):
                        continue
                    # a backend that models no computation of its own (an execution provider) computes the ONNX
                    # node as ONNX Runtime does; its differences are its records
                    own = load().backends[backend_id].declared.computes is not None
                    spec = spec_of(computation(q if own else Question.of(
                        mode=mode, backend="onnxruntime", attributes=attrs, training=False, reference=None)))
                    rows.append((", ".join(f"{k}={v}" for k, v in attrs.items()), spec))
                except (ValueError, NotImplementedError):
                    continue
        table[(backend_id, mode)] = tuple(rows)
    return table[(backend_id, mode)]


def _alternatives(clues: Clues, node: dict) -> str:
    """For an ONNX runner the text names: the node configurations check() finds nothing failing for on that
    backend that compute the same weights as the node read (or the closest one, with the difference)."""
    import numpy as np

    from ..engine.plan import weights
    kb = load()
    backends = [b for b in kb.backends.values() if b.runtime in clues.runtimes and b.declared is not None
                and b.declared.runs_nodes and b.names == "onnx"]
    mode = node.get("mode")
    if not backends or mode is None:
        return ""
    # the execution provider the text names, else the backend most of whose name it says
    backend = max(backends, key=lambda b: (bool(set(b.aliases) & clues.providers),
                                           len(set(re.split(r"[-_]", b.id)) & clues.words)))
    sizes = node.get("sizes") or ((8,), (16,))
    pairs = list(zip(*sizes))
    wanted = {k: v for k, v in node.items() if k in ("coordinate_transformation_mode", "nearest_mode")}
    target = target_spec(mode, wanted)
    if target is None:
        return ""
    try:
        goal = [weights(n, m, target) for n, m in pairs]
    except (ValueError, NotImplementedError):
        return ""
    rows = []
    for said, spec in _runnable(backend.id, mode):
        try:
            diff = max(float(np.abs(weights(n, m, spec) - g).max()) for (n, m), g in zip(pairs, goal))
        except (ValueError, NotImplementedError):
            continue
        rows.append((diff, said))
    if not rows:
        return ""
    rows.sort()
    where = "the sizes in the text" if "sizes" in node else "a 2x upsample 8 -> 16 (no sizes in the text)"
    same = [r for d, r in rows if d <= 1e-6]
    if same:
        return (f"Configurations recorded as running on {backend.id} that compute the same weights for {where} "
                f"(computed): {'; '.join(same[:3])}.")
    return (f"No configuration recorded as running on {backend.id} computes the same weights for {where}; the "
            f"closest (computed): {rows[0][1]}, max weight difference {rows[0][0]:.3g}.")
