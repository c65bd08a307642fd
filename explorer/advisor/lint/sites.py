"""A resize call found in code: where it is, which library function it calls and what the code passes.

A :class:`Site` is what the readers (``python.py``, ``rust.py``, ``config.py``) produce and what ``judge.py``
asks the knowledge base about.  Each argument the judgement depends on is an :class:`Arg`: the values the code
can pass there and how they were found, so that a finding can say whether it is certain, holds on one branch
of the code, or depends on something the code does not say.

>>> Arg.known("bicubic").values, Arg.known("bicubic").certain
(('bicubic',), True)
>>> Arg(("nearest", "bicubic"), "conditional", "mode = 'nearest' if mask else 'bicubic'").certain
False
>>> Arg.unknown("parameter `mode` has no default").values
()
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...limits import LINT_SNIPPET_CHARS

#: How a value was found.  Certain: literal (in the call), module-constant, param-default, init-attribute,
#: api-default (the argument is absent), implied (the API fixes it, e.g. UpsamplingBilinear2d).  Not certain:
#: conditional (one of several values the code picks between), partial (the values the code gives where it
#: sets them, while another assignment takes a value the code does not show), unknown (the code does not say).
CERTAIN = ("literal", "module-constant", "param-default", "init-attribute", "api-default", "implied")
HOW = CERTAIN + ("conditional", "partial", "unknown")


@dataclass(frozen=True)
class Arg:
    """The values one argument can take at a call, and how they were found."""

    values: tuple = ()
    how: str = "unknown"
    detail: str = ""

    @classmethod
    def known(cls, value, how: str = "literal", detail: str = "") -> Arg:
        return cls((value,), how, detail)

    @classmethod
    def unknown(cls, detail: str = "") -> Arg:
        return cls((), "unknown", detail)

    @property
    def certain(self) -> bool:
        return len(self.values) == 1 and self.how in CERTAIN

    @property
    def value(self):
        """The value when there is exactly one (else None)."""
        return self.values[0] if len(self.values) == 1 else None


@dataclass
class Site:
    """One call of a known resize function (or one configuration of it), with what the code passes.

    ``scale_factor`` is True when the call passes a scale factor that is not a whole number (whole factors
    give the same sizes in every library).  ``library`` is the library whose rules the call follows (``torch``, ``tensorflow``, ``jax``, ``onnx``,
    ``opencv``, ``pillow``, ``burn``, ``candle``); ``runs`` says where it runs: ``model`` (a tensor op that
    moves with the model to the backend being linted), ``host`` (a data pipeline on the CPU, with its own
    library), or ``input`` (decided by what it is applied to: torchvision).  ``training`` is False when the
    code runs the call without gradients (``torch.no_grad()``), None when the run's option decides.
    ``in_model`` is True when the call is in a model's code (a method of an ``nn.Module``), False in a frozen
    model (it sets ``requires_grad = False``), None when the code does not show it (a pipeline, a free
    function); ``differentiated`` is True in code that computes gradients (``torch.enable_grad()``,
    ``.backward()``).  ``exported`` is False for a model-class method that ``forward`` never reaches
    (``get_input``, ``training_step``) and for code in a loss module: an export traces ``forward`` only.
    ``context`` is where the code runs (:mod:`~explorer.advisor.lint.context`): outside ``model`` code the call
    runs without gradients unless the code shows them, and is not part of an exported model.
    """

    path: str
    line: int
    column: int
    library: str
    api: str
    mode: Arg
    align_corners: Arg = field(default_factory=lambda: Arg.known(None, "api-default"))
    antialias: Arg = field(default_factory=lambda: Arg.known(False, "api-default"))
    rank: Arg = field(default_factory=Arg)
    scale_factor: Arg = field(default_factory=lambda: Arg.known(False, "api-default"))
    runs: str = "model"
    training: bool | None = None
    in_model: bool | None = True
    differentiated: bool = False
    exported: bool | None = None
    end_line: int | None = None
    snippet: str = ""
    kind: str = "call"                # call | construction | config | node
    extra: dict = field(default_factory=dict)
    context: str = "model"            # model | test | preprocessing | evaluation | script (context.py)
    #: the module-level function the call is in, when the module does not show it is model code: lint looks
    #: for callers in the project's model code (one level)
    function: str | None = field(default=None, compare=False, repr=False)
    #: the undecorated module-level function the call is in, whatever the module shows: lint asks whether any
    #: file of the tree names it
    top_function: str | None = field(default=None, compare=False, repr=False)

    @property
    def lines(self) -> range:
        return range(self.line, (self.end_line or self.line) + 1)

    def to_dict(self) -> dict:
        def arg(a: Arg):
            return {"values": [v if isinstance(v, (str, int, float, bool, type(None))) else str(v)
                               for v in a.values], "how": a.how, "detail": a.detail}
        return {"path": self.path, "line": self.line, "column": self.column, "end_line": self.end_line,
                "library": self.library, "api": self.api, "kind": self.kind, "runs": self.runs,
                "mode": arg(self.mode), "align_corners": arg(self.align_corners),
                "antialias": arg(self.antialias), "rank": arg(self.rank), "scale_factor": arg(self.scale_factor),
                "training": self.training, "in_model": self.in_model, "exported": self.exported,
                "differentiated": self.differentiated, "context": self.context, "snippet": self.snippet, **({"extra": self.extra} if self.extra else {})}


_NEWLINE = re.compile(r"\r\n|\r|\n")


#: What :func:`table_mode` gives for a value a wrapper's table has no branch for.
NO_BRANCH = object()


def table_mode(table, value):
    """The mode a wrapper's table (``((value, mode), ...)``, :attr:`Api.mode_map`) gives a value: the mode, None
    (that value makes no resize) or :data:`NO_BRANCH`.  ``True`` and ``1`` are different keys.

    >>> table = ((False, None), ("nearest", "nearest"), (True, "bilinear"))
    >>> table_mode(table, True), table_mode(table, False), table_mode(table, 1) is NO_BRANCH
    ('bilinear', None, True)
    """
    return next((mode for key, mode in table if type(key) is type(value) and key == value), NO_BRANCH)


def source_lines(text: str) -> list[str]:
    """The lines of a source as compilers number them (only \\n, \\r\\n and \\r end a line; str.splitlines
    also splits at form feeds and Unicode separators, which would shift every later line number)."""
    return _NEWLINE.split(text)


_LEADING_SPACE = re.compile(r"\s*")
_TRAILING_SPACE = re.compile(r"\s*\Z")


def snippet_of(line: str, limit: int = LINT_SNIPPET_CHARS) -> str:
    """``line.strip()[:limit]`` in time independent of the line's length (a minified file is one long line and
    may hold thousands of sites): the report quotes at most ``limit`` characters of it.

    >>> snippet_of("   y = F.interpolate(x)   "), snippet_of("  " + "a" * 300, 5)
    ('y = F.interpolate(x)', 'aaaaa')
    """
    start = _LEADING_SPACE.match(line).end()
    end = start + limit
    segment = line[start:end]
    return segment.rstrip() if _TRAILING_SPACE.match(line, end) else segment
