"""The small data types a library or runtime module declares itself with.

A module in :mod:`explorer.conventions.libraries` declares everything the project knows how to say about one
library or runtime, once; every table the rest of the package reads is derived from these declarations:

=====================  ==========================================================================================
type                   what it declares
=====================  ==========================================================================================
:class:`Option`        one keyword option of a library, in the library's own name
:class:`Closest`       what a library runs for a PyTorch mode it lacks, and the note saying so
:class:`Api`           one public resize function or class of a library's API, as the linter reads calls of it
:class:`Computation`   what a backend computes for a question: a library preset, or a bare Spec
:class:`Backend`       one backend of a runtime: its id, devices, how its modes are spelled, what it computes
:class:`Runtime`       a product with releases the knowledge base checks: its backends and the words naming it
=====================  ==========================================================================================

A *library* (:class:`~explorer.conventions.registry.Library`) is a numeric convention the engine computes
(``preset("torch", "bilinear")``); a *runtime* is a product people install and deploy, with releases (ONNX
Runtime, Burn, TensorRT); a *backend* is one way a runtime runs (``burn-tch``, ``keras-jax``, ``onnxruntime``),
and is what :func:`explorer.check` answers for; a *device* is where it runs (``cpu``, ``cuda``, ``mps``).  A
runtime's backend computes with a library's convention (``onnxruntime`` computes ONNX's ``Resize``), which its
:attr:`Backend.computes` hook says.

>>> Computation("onnx", "nearest", {"nearest_mode": "floor"}).describe()
"onnx nearest (nearest_mode='floor')"
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..engine.spec import Spec
from ..errors import choice_error


@dataclass(frozen=True)
class Option:
    """One keyword option of a library, in the library's own name.

    ``modes`` lists the modes the option applies to (None: every mode); ``required`` maps a mode to the only
    value it accepts (PyTorch's ``lanczos`` requires ``antialias=True``).
    """

    name: str
    default: object
    choices: tuple | None = None  # the accepted values, or None for any value `check` accepts
    help: str = ""
    modes: tuple | None = None
    required: dict = field(default_factory=dict)

    def check(self, value, library: str, mode: str):
        if self.choices is not None and value not in self.choices:
            raise choice_error(self.name, value, [str(c) for c in self.choices],
                               context=f"for {library} {mode}")
        return value

    def applies_to(self, mode: str) -> bool:
        return self.modes is None or mode in self.modes


@dataclass(frozen=True)
class Closest:
    """What a library runs for a PyTorch mode it lacks (or cannot run at its defaults): its ``mode`` and
    ``options``, the ``note`` saying why, and ``runs`` when another library's preset computes it."""

    mode: str
    options: dict
    note: str
    runs: tuple | None = None
    no_gradient: str = ""


@dataclass(frozen=True)
class Api:
    """One resize function or class of a library's public API, as the linter reads a call of it.

    ``name`` is the public path as Python resolves it after imports (``F.interpolate`` with ``import
    torch.nn.functional as F`` is ``torch.nn.functional.interpolate``); ``library`` the library whose rules
    judge the call (default: the declaring library).  ``params``: positional parameters in order (``self`` left
    out; for methods the receiver is not a parameter).  ``mode_param``: the parameter that names the mode;
    ``defaults``: values of mode / align_corners / antialias when the argument is absent; ``fixed``: values the
    function implies whatever the call says.  ``runs``: ``model`` | ``host`` | ``input`` (see
    :class:`~explorer.advisor.lint.sites.Site`).  ``codes``: which library's integer codes the mode argument
    accepts.  ``antialias_modes``: modes the antialias argument applies to (None: all).  ``rank``: spatial dims
    it implies; ``size_params``: parameters whose length gives the rank.  ``input``: the parameter holding the
    data (for ``runs="input"``).  ``aliases``: other public paths of the same function.  ``coordinates``:
    ``repeat`` when the function's nearest repeats each pixel a whole number of times (Keras ``UpSampling2D``:
    floor nearest), ``tf1`` for TensorFlow 1 ops whose coordinates are legacy (``src = dst * in / out``) unless
    the call passes ``half_pixel_centers=True`` or ``align_corners=True``; empty: the library's own.
    ``mode_map``: ``((value, mode), ...)`` for a project wrapper whose mode parameter selects the mode through a
    table (``unpool=True`` -> ``'bilinear'``; a mode of None: that value makes no resize).
    """

    name: str
    params: tuple
    library: str = ""
    mode_param: str | None = "mode"
    defaults: dict = field(default_factory=dict)
    fixed: dict = field(default_factory=dict)
    runs: str = "model"
    codes: str | None = None
    antialias_modes: tuple | None = None
    rank: int | None = None
    size_params: tuple = ()
    scale_param: str | None = None
    input: str | None = None
    aliases: tuple = ()
    coordinates: str = ""
    mode_map: tuple = ()


@dataclass(frozen=True)
class Computation:
    """What a backend computes: a library preset (``library``, its native ``mode``, the library's own
    ``options``), or for a backend no library models, a bare ``spec`` run by the engine (with
    ``steps_by_factor`` when its kernel steps by ``1/scale_factor``)."""

    library: str | None
    mode: str | None
    options: dict = field(default_factory=dict)
    spec_only: Spec | None = None
    steps_by_factor: bool = False

    def describe(self) -> str:
        if self.library is None:
            return repr(self.spec_only)
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{self.library} {self.mode}{f' ({opts})' if opts else ''}"


def same_mode(library: str, options=None):
    """A backend's ``computes`` that runs the question's own mode in ``library``, with ``options(question)``
    (none by default): what a backend whose spelling is its library's computes.

    >>> from types import SimpleNamespace
    >>> same_mode("jax", lambda q: {"antialias": q.antialias})(SimpleNamespace(mode="cubic", antialias=False))
    Computation(library='jax', mode='cubic', options={'antialias': False}, spec_only=None, steps_by_factor=False)
    """
    def computes(q, spatial=None, out=None, intended=True) -> Computation:
        return Computation(library, q.mode, {} if options is None else options(q))
    return computes


@dataclass(frozen=True)
class Backend:
    """One backend of a runtime (what :func:`explorer.check` answers for).

    ``spelling`` names the library whose mode names the backend takes; a backend no library's names fit
    lists its own ``modes`` (native name -> mode family).  ``computes(question, spatial, out, intended)``
    returns the :class:`Computation` it runs for a question (see
    :func:`explorer.advisor.backend_calls.computation`), and ``writes(question, h, w, size, scale_factor)`` the
    ``(language, code)`` of its resize call; both None when nothing is modelled.  ``code`` is the language of
    the code the advisor writes for it (``python``, ``rust`` or ``onnx``); ``runs_nodes`` when it executes an
    ONNX ``Resize`` node as written (ONNX Runtime, TensorRT), so a scan judges the node itself.
    """

    id: str
    description: str
    devices: tuple
    code: str
    aliases: tuple = ()
    available: str = "*"
    rust_type: str | None = None
    cargo_feature: str | None = None
    spelling: str | None = None
    modes: dict = field(default_factory=dict)
    computes: Callable | None = None
    writes: Callable | None = None
    runs_nodes: bool = False


@dataclass(frozen=True)
class Runtime:
    """A product with releases: the knowledge base's records about it live in ``advisor/data/<id>.toml``
    (``data_file`` overrides the path), whose ``[runtime]`` table holds the releases checked.

    ``words`` are the words of an error text that name the runtime (``aten`` names torch), ``also`` words that
    name a second runtime at once, ``version_markers`` the phrases after which a text prints a release
    (``"torch=="``).  ``importer`` names a module of :mod:`explorer.advisor.importers` that says what the
    runtime's ONNX import makes of a node (Burn's code generator).  ``apis``: its public resize functions
    (:class:`Api`), for a runtime whose calls another library's rules judge (Keras).  ``order`` places it in
    listings.
    """

    id: str
    title: str
    backends: tuple
    words: tuple = ()
    also: dict = field(default_factory=dict)
    version_markers: tuple = ()
    importer: str | None = None
    data_file: str | None = None
    order: int = 100
    apis: tuple = ()
