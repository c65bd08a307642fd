"""Python sources, read as Python reads them: ``ast`` with the imports resolved.

A site is a real call of a known resize function (``apis.py``) with all its arguments: never a comment, a
string, a definition, a project function or class named like one, an instance of a module built elsewhere
(``self.upsample(h)``) or an unrelated method.  Arguments are followed to what the code says about them:
literals, module constants, parameter defaults, attributes set in the class, ``**kwargs`` dicts, table lookups
and conditional expressions; what stays unknown is reported as unknown.

>>> src = '''
... import torch.nn.functional as F
... from torch import nn
... class Up(nn.Module):
...     def __init__(self, mode="bicubic"):
...         super().__init__()
...         self.mode = mode
...     def forward(self, x):
...         # F.interpolate(x, mode="nearest-exact") is a comment, not a call
...         return F.interpolate(x, scale_factor=2, mode=self.mode,
...                              antialias=True)
... '''
>>> [(s.line, s.api, s.mode.values, s.mode.how, s.antialias.values) for s in read_python(src, "up.py")]
[(10, 'torch.nn.functional.interpolate', ('bicubic',), 'init-attribute', (True,))]
"""

from __future__ import annotations

import ast
import bisect
import builtins
import re
from collections import deque
from dataclasses import dataclass

import numpy as np

from ...conventions import registry
from . import apis
from .context import TRAINS, class_context, function_context, path_context
from .sites import CERTAIN, NO_BRANCH, Arg, Site, snippet_of, source_lines, table_mode

MAX_DEPTH = 8
#: Cheap text test before parsing: a file without any of these words (or a declared API's last name) has no site.
WORDS = ("interpolate", "Upsampl", "upsample", "resize", "Resize", "Resizing", "UpSampling", "rescale",
         "thumbnail", "make_node", "resized_crop", "RandomResizedCrop", "SmallestMaxSize", "LongestMaxSize")
#: Classes whose subclasses are still the same resize (``class CastUp(nn.Upsample)``).
SUBCLASSED = ("torch.nn.Upsample", "torch.nn.UpsamplingBilinear2d", "torch.nn.UpsamplingNearest2d",
              "keras.layers.Resizing", "keras.layers.UpSampling2D")


@registry.derived
def callees() -> frozenset:
    """Last name of every callee that can be a site: other calls are not looked at."""
    return frozenset({name.rsplit(".", 1)[-1] for name in (*apis.api_table(), *apis.aliases())}
                     | {q.rsplit(".", 1)[-1] for q in (*apis.PARTIAL, *apis.ONNX_MAKE_NODE)} | {"resize", "thumbnail"})


@registry.derived
def _words() -> tuple:
    return tuple(dict.fromkeys(WORDS + tuple(callees())))


@dataclass(frozen=True)
class Const:
    """A library's mode constant (``PIL.Image.BICUBIC`` -> Const('pillow', 'BICUBIC'))."""

    library: str
    name: str

    def __str__(self):
        return self.name


@registry.derived
def _called():
    return re.compile(r"\b(" + "|".join(sorted(callees(), key=len, reverse=True)) + r")\s*[(,)\]]"
                      r"|\bclass\s+\w+\s*\([^)]*(?:Upsampl|Resizing|UpSampling)")


def mentions_resize(text: str) -> bool:
    """True when the text may hold a site: a known callee's name is called or passed (then it is parsed)."""
    return any(word in text for word in _words()) and _called().search(text) is not None


def read_python(text: str, path: str, wrappers: dict | None = None, reexports: dict | None = None) -> list[Site]:
    """Every resize site in one Python source.  Raises SyntaxError for a file Python cannot parse.

    ``wrappers``: the project's functions that pass their arguments on to a known call (:func:`wrapper_of`),
    by name -> [(module, Api)]; their calls are sites too (one level).  ``reexports``: the project's modules
    that re-export a library (:func:`project_reexports`)."""
    if not mentions_resize(text) and not (wrappers and calls_any(text, wrappers)):
        return []
    tree = ast.parse(text, filename=path)
    return _Module(tree, text, path, wrappers, reexports).sites()


@registry.derived
def _transform_names() -> frozenset:
    """Last names of the model constructors and transforms (other calls are not qualified), and ``partial``."""
    return frozenset(q.rsplit(".", 1)[-1] for q in (*apis.MODEL_CONSTRUCTORS, *apis.MODEL_TRANSFORMS,
                                                   *apis.GRADIENT_TRANSFORMS, *apis.PARTIAL))


def model_callers(text: str, path: str, names, reexports: dict | None = None) -> list[tuple[str, str, str]]:
    """[(qualified callee, last name, 'model' | 'grad')]: the calls of ``names`` in a module's model code
    (a model class, a Keras model builder, a Haiku-transformed function) or differentiated code."""
    tree = ast.parse(text, filename=path)
    return _Module(tree, text, path, None, reexports).model_calls(set(names))


def calls_any(text: str, names) -> bool:
    return any(name in text for name in names) and _called_pattern(names).search(text) is not None


def imported_modules(text: str) -> tuple[set, set]:
    """(every module the text imports from or imports, the modules it star-imports), leading dots of relative
    imports dropped.

    >>> modules, starred = imported_modules("import a.b as c\\nfrom .d import e\\nfrom f import *\\n")
    >>> sorted(modules), starred
    (['a.b', 'd', 'f'], {'f'})
    """
    modules, starred = set(), set()
    for plain, _, source, name, _ in _import_matches(text):
        module = (plain or source or "").lstrip(".")
        if module:
            modules.add(module)
            if name == "*":
                starred.add(module)
    return modules, starred


def module_name(path: str) -> str:
    """The dotted module of a source path (``mmseg/ops/wrappers.py`` -> ``mmseg.ops.wrappers``)."""
    parts = [p for p in re.split(r"[/\\]", path) if p]
    if parts and parts[-1].endswith(".py"):
        parts[-1] = parts[-1][:-3]
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@registry.derived
def library_roots() -> frozenset:
    """Top-level packages of the declared APIs (``torch``, ``keras``, ``tensorflow``, ``jax``, ``cv2`` ...)."""
    return frozenset(name.split(".")[0] for name in (*apis.api_table(), *apis.aliases(), *apis.constants(),
                                                     *apis.MODEL_CONSTRUCTORS, *apis.MODEL_TRANSFORMS,
                                                     *apis.GRADIENT_TRANSFORMS))


_IMPORT_LINE = re.compile(r"^[ \t]*(?:import[ \t]+([\w.]+)(?:[ \t]+as[ \t]+(\w+))?"
                          r"|from[ \t]+([\w.]+)[ \t]+import[ \t]+(\*|\w+(?:[ \t]+as[ \t]+\w+)?"
                          r"(?:[ \t]*,[ \t]*\w+(?:[ \t]+as[ \t]+\w+)?)*))[ \t]*,?[ \t]*(?:#.*)?$",
                          re.MULTILINE)


_PAREN_IMPORT = re.compile(r"^[ \t]*from[ \t]+([\w.]+)[ \t]+import[ \t]*\(([^)]*)\)", re.MULTILINE)
#: A module-level name bound to another name (``interpolate = F.interpolate``).
_NAME_ASSIGN = re.compile(r"^(\w+)[ \t]*=[ \t]*([A-Za-z_][\w.]*)[ \t]*(?:#.*)?$", re.MULTILINE)


def _import_matches(text: str):
    """(plain module, its alias, from-module, name, its alias) of each import line, one per imported name
    (parenthesised imports over several lines included)."""
    if "(" in text:
        for m in _PAREN_IMPORT.finditer(text):
            for part in re.sub(r"#[^\n]*", "", m.group(2)).split(","):
                name, _, as_name = part.strip().partition(" as ")
                if re.fullmatch(r"\w+", name.strip()):
                    yield None, None, m.group(1), name.strip(), as_name.strip() or None
    for m in _IMPORT_LINE.finditer(text):
        plain, alias, source, names = m.groups()
        if plain:
            yield plain, alias, None, None, None
            continue
        for part in names.split(","):
            name, _, as_name = part.strip().partition(" as ")
            yield None, None, source, name.strip(), as_name.strip() or None


def project_reexports(sources) -> dict[str, str]:
    """Names the project's modules bind to a library, by their dotted name in the project: a compatibility
    module such as keras-cv's ``keras_cv/src/backend/__init__.py`` (``import keras``) makes
    ``keras_cv.src.backend.keras`` the ``keras`` package, and one that star-imports a library
    (``from keras.ops import *``) is that library's module; a module-level ``interpolate = F.interpolate``
    binds the library's function.  ``sources``: [(path, text)] of the Python files.  What a project module
    imports from another project module is followed two levels (detectron2's ``detectron2.layers.interpolate``
    is ``layers/wrappers.py``'s ``interpolate = F.interpolate``).

    >>> table = project_reexports([("pkg/backend/__init__.py", "import keras\\nfrom keras import ops as kops\\n"),
    ...                            ("pkg/backend/tops.py", "from tensorflow.image import *\\n")])
    >>> table["pkg.backend.keras"], table["pkg.backend.kops"], table["pkg.backend.tops"]
    ('keras', 'keras.ops', 'tensorflow.image')
    """
    roots = library_roots()
    out: dict[str, str] = {}
    sources = list(sources)
    modules = {key for path, _ in sources for key in _module_keys(module_name(path))}
    tops = {m.split(".")[0] for m in modules}
    aliases: dict[str, str] = {}  # a project module's name for another project module
    for path, text in sources:
        if "import" not in text:
            continue
        module = module_name(path)
        if not module:
            continue
        defined = None
        bound: dict[str, str] = {}  # this module's names for a library
        package = path.replace("\\", "/").endswith("__init__.py")
        for plain, alias, source, name, as_name in _import_matches(text):
            target = plain or source
            if source and name != "*":
                absolute = _absolute(source, module, package)
                if absolute.split(".")[0] in tops and absolute.split(".")[0] not in roots \
                        and (absolute in modules or f"{absolute}.{name}" in modules):
                    for prefix in _module_keys(module):
                        aliases.setdefault(f"{prefix}.{as_name or name}", f"{absolute}.{name}")
                    continue
            if target.split(".")[0] not in roots:
                continue
            if plain:
                key, value = alias or plain.split(".")[0], plain if alias else plain.split(".")[0]
            elif name == "*":
                key, value = None, source
            else:
                key, value = as_name or name, f"{source}.{name}"
            if key is not None:
                if defined is None:
                    defined = set(re.findall(r"^(?:def|class)[ \t]+(\w+)|^(\w+)[ \t]*=", text, re.MULTILINE))
                    defined = {a or b for a, b in defined}
                bound.setdefault(key, value)
                if key in defined:
                    continue  # the module binds the name again itself
            for prefix in _module_keys(module):
                out.setdefault(f"{prefix}.{key}" if key is not None else prefix, value)
        if bound:
            for m in _NAME_ASSIGN.finditer(text):
                head, _, rest = m.group(2).partition(".")
                if head in bound and m.group(1) != head:
                    for prefix in _module_keys(module):
                        out.setdefault(f"{prefix}.{m.group(1)}", f"{bound[head]}.{rest}" if rest else bound[head])
    for _ in range(2):  # chains: `backend.functional` is the project's `tf_functional`, which is `tensorflow.image`
        under: dict[str, list] = {}  # a project module -> the table's names in it
        for name in out:
            parts = name.split(".")
            for k in range(1, len(parts) + 1):
                under.setdefault(".".join(parts[:k]), []).append(name)
        added = {}
        for key, project in aliases.items():
            for name in under.get(project, ()):
                chained = key + name[len(project):]
                if chained not in out:
                    added.setdefault(chained, out[name])
        if not added:
            break
        out.update(added)
    return out


def _module_keys(module: str) -> tuple:
    """A module's dotted name, and without a leading ``src.`` (a src layout imports ``pkg``, not ``src.pkg``)."""
    return (module, module[4:]) if module.startswith("src.") and len(module) > 4 else (module,)


def _same_module(imported: str, defined: str) -> bool:
    """Whether an import's module names the module a wrapper is defined in, where module names are read from
    paths relative to the linted tree: the same module; the tree being the package itself (``deeplab2.model.utils``
    for ``model/utils.py``) or inside it; or a package that re-exports it (``kmodels.utils`` for
    ``kmodels/utils/image.py``).  Another module of the same package is another function of the same name.

    >>> _same_module("deeplab2.model.utils", "model.utils"), _same_module("kmodels.utils", "kmodels.utils.image")
    (True, True)
    >>> _same_module("kmodels.models.sam3.sam3_processor", "kmodels.utils.image")
    False
    """
    if not imported or not defined:
        return False
    return (imported == defined or imported.endswith("." + defined) or defined.endswith("." + imported)
            or defined.startswith(imported + "."))


def _absolute(name: str, module: str, package: bool) -> str:
    """An import's module made absolute from the importing module (``..backend.keras`` in ``a.b.c``)."""
    level = len(name) - len(name.lstrip("."))
    if not level:
        return name
    parts = module.split(".") if module else []
    base = parts if package else parts[:-1]
    if level > 1:
        base = base[:len(base) - (level - 1)] if level - 1 <= len(base) else []
    rest = name[level:]
    return ".".join([*base, rest] if rest else base)


def wrapper_of(site: Site) -> tuple[str, apis.Api] | None:
    """(function name, Api) of the module-level function a site is in when the call's mode comes from one of
    its parameters: a project wrapper (mmseg's ``resize(input, size, ..., mode='nearest')`` calling
    ``F.interpolate``), whose calls are read as calls of the API it wraps."""
    found = site.extra.get("wrapper")
    if not found:
        return None
    name, params, passes, defaults, api, mode_map = found
    inherited = {k: v for k, v in api.defaults.items() if not (k == "mode" and mode_map)}
    return name, apis.Api(name=f"{module_name(site.path)}.{name}", params=params, library=api.library,
                          mode_param=passes.get("mode"), defaults={**inherited, **defaults}, fixed=api.fixed,
                          mode_map=mode_map,
                          runs=api.runs, codes=api.codes, antialias_modes=api.antialias_modes, rank=api.rank,
                          size_params=tuple(p for p in api.size_params if p in params),
                          scale_param=api.scale_param if api.scale_param in params else None,
                          input=params[0] if params else None, coordinates=api.coordinates)


_LINE_END = re.compile(r"\r\n|\r|\n")
#: Parameter names of ground truth (targets, labels, masks of the data): what is computed from them alone
#: carries no gradient.
_TARGET_NAME = re.compile(r"^(y|y_true|gt|gts|target|targets|label|labels|ground_truth)$"
                          r"|^(gt|true|target|targets|label|labels|ground_truth)_"
                          r"|_(gt|gts|true|target|targets|labels?)$")
#: Words without which a module has no model-building function, transform or model class to find.
_MODEL_WORDS = ("Model", "Sequential", "transform", "grad", "Module", "Layer", "class ")
#: Where a file sets Keras's backend: ``os.environ["KERAS_BACKEND"] = "jax"``, ``os.environ.setdefault(
#: "KERAS_BACKEND", "torch")``, ``keras.config.set_backend("jax")``.
_KERAS_BACKEND = re.compile(r"KERAS_BACKEND[\"']\s*(?:\]\s*=|,)\s*[\"'](tensorflow|jax|torch)[\"']"
                            r"|set_backend\(\s*[\"'](tensorflow|jax|torch)[\"']")
#: Keras submodules that keras_applications-style code is given at run time.
_INJECTED = ("layers", "backend", "models")
#: A library's names for another library (Keras 2's backend module is TensorFlow's: ``K.tf.image.resize``).
LIBRARY_REEXPORTS = {"keras.backend.tf": "tensorflow", "tensorflow.keras.backend.tf": "tensorflow",
                     "tensorflow.compat.v2": "tensorflow"}
#: Keras model methods whose first parameter is the batch of data.
_STEP_METHODS = ("train_step", "test_step")
_MAIN_GUARD = re.compile(r"^if\s+__name__\s*==\s*[\"']__main__[\"']\s*:", re.MULTILINE)
_COMMAND_LINE = re.compile(r"\bimport argparse\b|\bsys\.argv\b|\bimport click\b|\bfrom absl import app\b"
                           r"|\bimport fire\b")
#: What a unit test's file holds: a test function or class, a test framework.
_TEST_CODE = re.compile(r"^\s*(async\s+)?def\s+test|^\s*class\s+Test|TestCase\b|\btf\.test\b"
                        r"|\b(unittest|pytest|absltest|parameterized)\b", re.MULTILINE)
_LOSS_MODULE = re.compile(r"(?i)(^|[/\\])[^/\\]*loss[^/\\]*([/\\]|\.py$)")


def _called_pattern(names) -> re.Pattern:
    # a call or a reference (`name(`, `f(name)`), or an import under another name (`import name as alias`)
    return re.compile(r"\b(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True))
                      + r")(?:\s*[(,)\]]|\s+as\s)")


def _statements(body):
    """Every statement in a body, nested blocks and definitions included (not expressions)."""
    stack = list(reversed(body))
    while stack:
        stmt = stack.pop()
        yield stmt
        for field_name in ("handlers", "cases", "finalbody", "orelse", "body"):
            inner = getattr(stmt, field_name, None)
            if isinstance(inner, list):
                stack.extend(reversed(inner))


def _positioned_children(node):
    """Children with a source position; children without one (arguments, withitem ...) are looked through."""
    for child in ast.iter_child_nodes(node):
        if hasattr(child, "lineno") and child.end_lineno is not None:
            yield child
        else:
            yield from _positioned_children(child)


#: A node with more children than this has them sorted by position once, and searched by bisection.
_MANY_CHILDREN = 16


def _contains(node, target) -> bool:
    return (node.lineno, node.col_offset) <= target[:2] and target[2:] <= (node.end_lineno, node.end_col_offset)


def _training_test(test) -> bool | None:
    """True for ``self.training``, False for ``not self.training``, else None (``self.training and x`` too: its
    ``else`` may run in training)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = _training_test(test.operand)
        return None if inner is None else not inner
    if isinstance(test, ast.Attribute) and test.attr == "training" and isinstance(test.value, ast.Name) \
            and test.value.id == "self":
        return True
    return None


def _enclosing(root, target) -> list:
    """The nodes of ``root`` from the top down to ``target`` (empty when it is not in it)."""
    path, stack = [], [(root, iter(ast.iter_child_nodes(root)))]
    path.append(root)
    if root is target:
        return path
    while stack:
        node, children = stack[-1]
        child = next(children, None)
        if child is None:
            stack.pop()
            path.pop()
            continue
        path.append(child)
        if child is target:
            return path
        stack.append((child, iter(ast.iter_child_nodes(child))))
    return []


def _before(stmt, at) -> bool:
    """True when an assignment statement runs before ``at`` (it starts above it and does not contain it)."""
    if stmt is at or not hasattr(at, "lineno"):
        return stmt is not at
    if stmt.lineno > at.lineno:
        return False
    return not _contains(stmt, (at.lineno, at.col_offset, at.end_lineno, at.end_col_offset))


def _device_test(test) -> tuple[str, bool] | None:
    """(device, True for ==) of a test such as ``x.device.type == "mps"`` (None for any other test)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq))):
        return None
    sides = [test.left, test.comparators[0]]
    device = next((x.value for x in sides if isinstance(x, ast.Constant) and x.value in apis.DEVICES), None)
    other = next((x for x in sides if not isinstance(x, ast.Constant)), None)
    if device is None or other is None or "device" not in _src(other):
        return None
    return device, isinstance(test.ops[0], ast.Eq)


_BUILTINS = frozenset(dir(builtins))
#: Names of data loaders (``train_loader``, ``dataloader``, ``val_dataset``): what is iterated from them is data.
_LOADER_NAME = re.compile(r"(^|_)(data)?loaders?$|^dataloader|(^|_)dataset$", re.IGNORECASE)
#: Tensor methods whose arguments (a device, a dtype) carry no data into their result.
_MOVES = ("to", "cuda", "cpu", "type", "float", "half", "double", "contiguous")


def _data_flow(node):
    """The nodes of an expression whose values can reach its result: ``imgs.to(device).float() / 255`` reaches
    ``imgs``, not ``device``."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        if isinstance(current, ast.Call) and isinstance(current.func, ast.Attribute) and current.func.attr in _MOVES:
            stack.append(current.func.value)
            continue
        stack.extend(ast.iter_child_nodes(current))


#: Methods whose parameters are what a model is run with, not how it is built (``call(x, resize=False)``).
_RUNTIME_METHODS = {"forward", "call", "__call__"}


#: Ordering comparisons of a numeric setting with a constant.
_ORDER = {ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b, ast.Lt: lambda a, b: a < b,
          ast.LtE: lambda a, b: a <= b}


def _in_body(branch: ast.If, node) -> bool:
    """Whether ``node`` (a child of ``branch``) is in the ``if``'s body rather than its test or ``else``."""
    span = (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)
    return any(stmt is node or _contains(stmt, span) for stmt in branch.body)


def _self_attribute(node) -> bool:
    return isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self"


def _mapped(api: apis.Api, arg: Arg) -> Arg | None:
    """A wrapper's mode argument read through its table (:meth:`_Module.parameter_map`); None when every value
    it can have makes no resize."""
    if not arg.values:
        return arg
    out = []
    for value in arg.values:
        mode = table_mode(api.mode_map, value)
        if mode is NO_BRANCH:
            return Arg.unknown(f"{api.mode_param}={value!r}, a value {api.name.rsplit('.', 1)[-1]} has no branch for")
        if mode is not None:
            out.append(mode)
    if not out:
        return None
    shown = ", ".join(f"{k!r} -> {v!r}" for k, v in api.mode_map if v is not None)
    detail = f"{arg.detail}; {api.name.rsplit('.', 1)[-1]} maps {api.mode_param}: {shown}".lstrip("; ")
    return Arg(tuple(dict.fromkeys(out)), arg.how, detail)


def _compared(test, params) -> tuple[str, list] | None:
    """(parameter, [constants]) when a test compares one parameter with constants (``p == 'a'``, ``p is
    True``, ``p in ('a', 'b')``, and ``or`` of these)."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        parts = [_compared(v, params) for v in test.values]
        if any(p is None for p in parts) or len({p[0] for p in parts}) != 1:
            return None
        return parts[0][0], [c for p in parts for c in p[1]]
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, right, op = test.left, test.comparators[0], test.ops[0]
    if isinstance(left, ast.Constant) and isinstance(op, (ast.Eq, ast.Is)):
        left, right = right, left
    if not (isinstance(left, ast.Name) and left.id in params):
        return None
    if isinstance(op, (ast.Eq, ast.Is)) and isinstance(right, ast.Constant):
        return left.id, [right.value]
    if isinstance(op, ast.In) and isinstance(right, (ast.Tuple, ast.List, ast.Set)) \
            and all(isinstance(e, ast.Constant) for e in right.elts):
        return left.id, [e.value for e in right.elts]
    return None


def _bisect(starts: list[int], offset: int) -> int:
    """1-based line of a character offset, given each line's starting offset."""
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1


#: Methods that run a model's computation (PyTorch ``forward``, Keras ``call``, Flax and Haiku ``__call__``), and
#: the ones that build what they run (``__init__``, Keras ``build``, Flax ``setup``).
FORWARD_METHODS = ("forward", "__call__", "call")
BUILD_METHODS = ("__init__", "build", "setup")


def _reached_from_forward(cls: ast.ClassDef) -> set | None:
    """The methods ``forward``/``__call__``/``call`` and ``__init__``/``build``/``setup`` reach through
    ``self.name`` (None without a forward)."""
    methods = {n.name: n for n in cls.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
    if not any(name in methods for name in FORWARD_METHODS):
        return None
    stack = [name for name in FORWARD_METHODS + BUILD_METHODS if name in methods]
    reached: set = set()
    while stack:
        name = stack.pop()
        if name in reached:
            continue
        reached.add(name)
        for sub in ast.walk(methods[name]):
            if isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name) and sub.value.id == "self" \
                    and sub.attr in methods:
                stack.append(sub.attr)
    return reached


def _merge(args: list[Arg], detail: str = "") -> Arg:
    """The values any of several sources can give (a conditional when they differ; partial when some source
    is not known: ``self.mode = mode`` in ``__init__`` with a default, and again from a setter's parameter)."""
    if not args:
        return Arg.unknown(detail)
    unknown = [a for a in args if a.how == "unknown"]
    if unknown:
        known = [a for a in args if a.how != "unknown"]
        if not known:
            return Arg.unknown(unknown[0].detail or detail)
        values = tuple(dict.fromkeys(v for a in known for v in a.values))
        where = " / ".join(dict.fromkeys(a.detail for a in known if a.detail)) or "where the code sets it"
        return Arg(values, "partial", f"{where}; elsewhere {unknown[0].detail or 'a value the code does not show'}")
    values = tuple(dict.fromkeys(v for a in args for v in a.values))
    if len(args) == 1:
        return args[0]
    hows = {a.how for a in args}
    if len(values) == 1 and len(hows) == 1:
        return Arg(values, hows.pop(), args[0].detail)
    return Arg(values, "conditional", detail or " / ".join(dict.fromkeys(a.detail for a in args if a.detail)))


def _with_how(arg: Arg, how: str, detail: str = "") -> Arg:
    """``arg`` re-labelled as found through ``how`` (when it is certain); a parameter's default stays named
    (callers elsewhere may pass another value: ``lint`` looks)."""
    if arg.how in CERTAIN:
        if arg.how == "param-default" and how != "param-default" and detail:
            detail = f"{detail}, from the {arg.detail}"
        return Arg(arg.values, how, detail or arg.detail)
    return arg


def _src(node) -> str:
    try:
        text = ast.unparse(node)
    except Exception:  # noqa: BLE001 - unparse of odd nodes; a description only
        return "an expression"
    return text if len(text) <= 60 else text[:57] + "..."


class _Module:
    def __init__(self, tree: ast.Module, text: str, path: str, wrappers: dict | None = None,
                 reexports: dict | None = None):
        self.tree, self.path, self.text = tree, path, text
        self.wrappers = wrappers or {}
        self.reexports = reexports or {}
        self.lines = source_lines(text)
        self.parent: dict = {}
        self._sorted_children: dict = {}
        self._line_bytes: dict = {}
        self._segment_matches: dict = {}
        self._blocks: dict = {}
        self._conditional: dict = {}
        self.imports: dict[str, str] = {}
        self.imports_pil = False
        self.star_modules: list[str] = []  # `from keras.layers import *`
        self.project_imports: dict[str, str] = {}  # names bound to a project module that re-exports a library
        self.classes: dict[str, ast.ClassDef] = {}
        for stmt in _statements(tree.body):  # statements only: expressions are visited where a site is
            if isinstance(stmt, ast.ClassDef):
                self.classes[stmt.name] = stmt
            elif isinstance(stmt, ast.Import):
                for alias in stmt.names:
                    if alias.asname:
                        self.imports[alias.asname] = alias.name
                    else:
                        head = alias.name.split(".")[0]
                        self.imports[head] = head
                    self.imports_pil |= alias.name.split(".")[0] == "PIL"
            elif isinstance(stmt, ast.ImportFrom):
                base = "." * stmt.level + (stmt.module or "")
                self.imports_pil |= (stmt.module or "").split(".")[0] == "PIL" and not stmt.level
                for alias in stmt.names:
                    if alias.name != "*":
                        self.imports[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name
                    elif base:
                        self.star_modules.append(base)
        if self.reexports:
            here, package = module_name(path), path.replace("\\", "/").endswith("__init__.py")
            for name, target in list(self.imports.items()):
                absolute = _absolute(target, here, package)
                resolved = self.reexported(absolute)
                if resolved is not None:
                    self.imports[name] = resolved
                if resolved is not None or absolute.split(".")[0] not in library_roots():
                    self.project_imports[name] = absolute  # its attributes may be in the table
        self.local_defs = {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                                        ast.ClassDef))}
        self.module_assigns = self._assignments(tree.body)
        if self.star_modules:
            here, package = module_name(path), path.replace("\\", "/").endswith("__init__.py")
            stars = [_absolute(m, here, package) for m in self.star_modules]
            self.star_modules = [self.reexported(m) or m for m in stars]
        # `from pkg.layer_utils import *` of the project: its wrappers are called by bare name
        self.project_stars = [m for m in self.star_modules if m.split(".")[0] not in library_roots()]
        self.star_modules = [m for m in self.star_modules if m.split(".")[0] in library_roots()]
        # Keras submodules a module leaves as None and is given at run time (keras_applications'
        # `backend, layers, models, keras_utils = get_submodules_from_kwargs(kwargs)`, with `global layers`)
        self.injected = {name for name in _INJECTED if "keras" in text and self.imports.get(name) is None
                         and name not in self.local_defs and self.module_assigns.get(name)
                         and all(isinstance(v, ast.Constant) and v.value is None
                                 for v, _ in self.module_assigns[name])}
        self._function_assigns: dict = {}
        self._class_attrs: dict = {}
        self._method_kinds: dict = {}
        self._reached: dict = {}
        self._model_functions: dict | None = None
        self.subclass_api: dict[str, apis.Api] = {}
        for _ in range(3):  # subclasses of subclasses
            for name, cls in self.classes.items():
                for base in cls.bases:
                    api = apis.lookup(self.qualify(base, cls))
                    if api is None and isinstance(base, ast.Name):
                        api = self.subclass_api.get(base.id)
                    if api is not None and api.name in SUBCLASSED:
                        self.subclass_api[name] = api
        # a wrapper imported under another name (`from pkg.utils.image import preprocess_image as pp`)
        renamed = {local for local, target in self.imports.items()
                   if isinstance(target, str) and target.rpartition(".")[2] in self.wrappers and local not in self.wrappers}
        self.callees = callees() | set(self.subclass_api) | set(self.wrappers) | renamed

    # ----------------------------------------------------------------------------------------- scopes
    def child_containing(self, current, target):
        """The child of ``current`` (with a position) whose source range contains ``target``, or None.  A node
        with many children (a module's body) has them sorted once and bisected: descending to a node costs its
        depth, not the size of the module."""
        entry = self._sorted_children.get(current)
        if entry is None:
            children = list(_positioned_children(current))
            if len(children) <= _MANY_CHILDREN:
                return next((c for c in children if _contains(c, target)), None)
            children.sort(key=lambda c: (c.lineno, c.col_offset))
            entry = self._sorted_children[current] = (children, [(c.lineno, c.col_offset) for c in children])
        children, starts = entry
        k = bisect.bisect_right(starts, target[:2]) - 1
        while k >= 0:  # siblings do not overlap: the last one starting at or before the target, if it contains it
            if _contains(children[k], target):
                return children[k]
            if children[k].end_lineno is not None and (children[k].end_lineno, children[k].end_col_offset) \
                    < target[:2]:
                return None
            k -= 1
        return None

    def locate(self, node) -> None:
        """Record the parents of ``node`` by descending from the module along the nodes that contain it."""
        if node in self.parent or node is self.tree or not hasattr(node, "lineno"):
            return
        target = (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset)
        current = self.tree
        while True:
            child = self.child_containing(current, target)
            if child is None:
                return
            self.parent[child] = current
            if child is node:
                return
            current = child

    def ancestors(self, node):
        self.locate(node)
        node = self.parent.get(node)
        while node is not None:
            yield node
            node = self.parent.get(node)

    def functions(self, node):
        """Enclosing functions (and lambdas), innermost first."""
        return [a for a in self.ancestors(node) if isinstance(a, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))]

    def enclosing_class(self, node):
        for a in self.ancestors(node):
            if isinstance(a, ast.ClassDef):
                return a
        return None

    @staticmethod
    def _assignments(body) -> dict[str, list]:
        """name -> [(value node, statement)] for simple assignments in a body (not inside nested defs)."""
        out: dict[str, list] = {}
        stack = deque(body)
        while stack:
            stmt = stack.popleft()
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                continue
            if isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    if isinstance(target, ast.Name):
                        out.setdefault(target.id, []).append((stmt.value, stmt))
                    elif isinstance(target, (ast.Tuple, ast.List)):
                        for elt in target.elts:
                            if isinstance(elt, ast.Name):
                                out.setdefault(elt.id, []).append((None, stmt))
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
                out.setdefault(stmt.target.id, []).append((stmt.value, stmt))
            elif isinstance(stmt, (ast.AugAssign,)) and isinstance(stmt.target, ast.Name):
                out.setdefault(stmt.target.id, []).append((None, stmt))
            elif isinstance(stmt, (ast.For, ast.AsyncFor)):
                for name in ast.walk(stmt.target):
                    if isinstance(name, ast.Name):
                        out.setdefault(name.id, []).append((None, stmt))
            elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                for item in stmt.items:
                    if item.optional_vars is not None:
                        for name in ast.walk(item.optional_vars):
                            if isinstance(name, ast.Name):
                                out.setdefault(name.id, []).append((None, stmt))
            for field_name in ("body", "orelse", "finalbody", "handlers", "cases"):
                inner = getattr(stmt, field_name, None)
                if inner:
                    stack.extend(inner)
        return out

    def function_assigns(self, func) -> dict[str, list]:
        if func not in self._function_assigns:
            if isinstance(func, ast.Lambda):
                self._function_assigns[func] = {}
            else:
                self._function_assigns[func] = self._assignments(func.body)
        return self._function_assigns[func]

    @staticmethod
    def params(func) -> dict[str, ast.AST | None]:
        """parameter name -> default expression (None: no default)."""
        a = func.args
        positional = a.posonlyargs + a.args
        defaults = [None] * (len(positional) - len(a.defaults)) + list(a.defaults)
        out = {p.arg: d for p, d in zip(positional, defaults)}
        out.update({p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults)})
        if a.vararg:
            out[a.vararg.arg] = None
        if a.kwarg:
            out[a.kwarg.arg] = None
        return out

    @staticmethod
    def annotations(func) -> dict[str, ast.AST]:
        if isinstance(func, ast.Lambda):
            return {}
        a = func.args
        return {p.arg: p.annotation for p in a.posonlyargs + a.args + a.kwonlyargs if p.annotation is not None}

    def class_attrs(self, cls) -> dict[str, list]:
        """attribute -> [(value node, method or class)] for ``self.x = ...`` in any method and class-level names."""
        if cls not in self._class_attrs:
            found: dict[str, list] = {}
            for stmt in cls.body:
                if isinstance(stmt, ast.Assign):
                    for t in stmt.targets:
                        if isinstance(t, ast.Name):
                            found.setdefault(t.id, []).append((stmt.value, stmt))
                elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
                    found.setdefault(stmt.target.id, []).append((stmt.value, stmt))
                elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.args.args:
                    me = stmt.args.args[0].arg
                    for node in _statements(stmt.body):
                        targets = node.targets if isinstance(node, ast.Assign) else (
                            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else [])
                        for t in targets:
                            if (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == me):
                                value = None if isinstance(node, ast.AugAssign) else node.value
                                found.setdefault(t.attr, []).append((value, node))
            self._class_attrs[cls] = found
        return self._class_attrs[cls]

    def is_local(self, name: str, at) -> bool:
        """A name bound in an enclosing function (a parameter or a local): not the module's import."""
        for func in self.functions(at):
            if name in self.params(func) or name in self.function_assigns(func):
                return True
        return False

    def qualify(self, node, at=None) -> str | None:
        """The fully qualified name an expression refers to through the imports (None when it is not one)."""
        if isinstance(node, ast.Name):
            if node.id in self.injected:
                return f"keras.{node.id}"
            if at is not None and self.is_local(node.id, at):
                return None
            if node.id in self.local_defs:
                return None  # a project function or class (it shadows an import of the same name)
            found = self.imports.get(node.id)
            if found in LIBRARY_REEXPORTS:
                return LIBRARY_REEXPORTS[found]
            if found is None and self.star_modules and node.id not in self.module_assigns:
                for module in self.star_modules:  # `from keras.layers import *`: a name the module does not bind
                    if apis.lookup(f"{module}.{node.id}") is not None:
                        return f"{module}.{node.id}"
            return found
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id in self.project_imports \
                    and not (at is not None and self.is_local(node.value.id, at)):
                found = self.reexported(f"{self.project_imports[node.value.id]}.{node.attr}")
                if found is not None:  # the project module's own name for it (`functional.resize`)
                    return found
            base = self.qualify(node.value, at)
            if not base:
                return None
            if self.reexports and base not in self.imports.values():
                return self.reexported(f"{base}.{node.attr}") or f"{base}.{node.attr}"
            if f"{base}.{node.attr}" in LIBRARY_REEXPORTS:
                return LIBRARY_REEXPORTS[f"{base}.{node.attr}"]
            return f"{base}.{node.attr}"
        return None

    def reexported(self, qualified: str) -> str | None:
        """What a project module's name is when the module re-exports a library (:func:`project_reexports`):
        the longest prefix of ``qualified`` the table knows, replaced; None when none is."""
        parts = qualified.split(".")
        for k in range(len(parts), 0, -1):
            head = ".".join(parts[:k])
            target = self.reexports.get(head)
            if target is not None:
                return ".".join([target, *parts[k:]])
        return None

    # ------------------------------------------------------------------------------------- evaluation
    def evaluate(self, node, at, depth=0) -> Arg:
        """The values an expression can have at ``at``, and how they were found."""
        if node is None:
            return Arg.unknown("an assignment the linter does not follow")
        if depth > MAX_DEPTH:
            return Arg.unknown(f"`{_src(node)}` is defined too indirectly")
        if isinstance(node, ast.Constant):
            return Arg.known(node.value)
        if isinstance(node, (ast.Tuple, ast.List)):
            parts = [self.evaluate(e, at, depth + 1) for e in node.elts]
            if all(p.certain for p in parts):
                return Arg.known(tuple(p.value for p in parts))
            return Arg.unknown(f"`{_src(node)}`")
        if isinstance(node, ast.UnaryOp) and isinstance(node.operand, ast.Constant):
            try:
                return Arg.known(ast.literal_eval(node))
            except ValueError:
                return Arg.unknown(f"`{_src(node)}`")
        if isinstance(node, (ast.Name, ast.Attribute)):
            qualified = self.qualify(node, at)
            if qualified:
                found = apis.constant(qualified)
                if found:
                    return Arg.known(Const(*found))
            if isinstance(node, ast.Name):
                return self.lookup_name(node.id, at, depth)
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                return self.lookup_attr(node.attr, at, depth)
            return Arg.unknown(f"`{_src(node)}`")
        if isinstance(node, ast.IfExp):
            return _merge([self.evaluate(node.body, at, depth + 1), self.evaluate(node.orelse, at, depth + 1)],
                          f"`{_src(node)}`")
        if isinstance(node, ast.Subscript):
            table = self.container(node.value, at, depth + 1)
            if table is None and isinstance(node.value, ast.Name):
                spread = self.broadcast(node.value.id, at)
                if spread:  # `modes = [mode] * n_scales` ... `modes[i]`: the value it repeats
                    return _merge([self.evaluate(v, w, depth + 1) for v, w in spread], f"`{_src(node)}`")
            if table is None:
                return Arg.unknown(f"`{_src(node)}`")
            key = self.evaluate(node.slice, at, depth + 1)
            if key.certain and key.value in table:
                value, where = table[key.value]
                found = self.evaluate(value, where, depth + 1)
                if isinstance(node.value, ast.Name) and node.value.id in self.module_assigns \
                        and not self.is_local(node.value.id, at):
                    found = _with_how(found, "module-constant", f"`{_src(node)}`")
                return found
            if key.certain:
                return Arg.unknown(f"`{_src(node)}`: no such key")
            return _merge([self.evaluate(v, w, depth + 1) for v, w in table.values()],
                          f"one of the values of `{_src(node.value)}`")
        if isinstance(node, ast.Call):
            func = self.qualify(node.func, at)
            if func == "random.choice" and node.args:
                seq = node.args[0]
                if isinstance(seq, (ast.List, ast.Tuple)):
                    return _merge([self.evaluate(e, at, depth + 1) for e in seq.elts], f"`{_src(node)}`")
            if func and node.args and len(node.args) == 1 and (
                    func.endswith(("InterpolationMode", "Resampling")) or func == "bool"):
                return self.evaluate(node.args[0], at, depth + 1)
            return Arg.unknown(f"`{_src(node)}`")
        return Arg.unknown(f"`{_src(node)}`")

    def broadcast(self, name: str, at) -> list:
        """[(element, statement)] when every assignment of ``name`` in the function around ``at`` repeats one
        element (``name = [x] * n``, ``n * [x]``): deep-image-prior's ``upsample_mode = [upsample_mode] *
        n_scales`` read as ``upsample_mode[i]``."""
        for func in self.functions(at):
            assigns = self.function_assigns(func).get(name, [])
            if not assigns:
                continue
            out = []
            for value, stmt in assigns:
                if not (isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mult)):
                    return []
                listed = value.left if isinstance(value.left, (ast.List, ast.Tuple)) else value.right
                if not (isinstance(listed, (ast.List, ast.Tuple)) and len(listed.elts) == 1):
                    return []
                out.append((listed.elts[0], stmt))
            return out
        return []

    def lookup_name(self, name: str, at, depth: int) -> Arg:
        for func in self.functions(at):
            assigns = [(v, s) for v, s in self.function_assigns(func).get(name, []) if s is not at]
            if assigns:
                before = [(v, s) for v, s in assigns if _before(s, at)] or assigns
                return _merge([self.evaluate(v, s, depth + 1) for v, s in before], f"`{name}`")
            params = self.params(func)
            if name in params:
                default = params[name]
                if default is None:
                    return Arg.unknown(f"parameter `{name}` has no default")
                owner = getattr(func, "name", "lambda")
                if owner == "__init__":
                    cls = self.enclosing_class(func)
                    owner = cls.name if cls is not None else owner
                return _with_how(self.evaluate(default, func, depth + 1), "param-default",
                                 f"default of parameter `{name}` of `{owner}`")
        assigns = self.module_assigns.get(name)
        if assigns:
            return _with_how(_merge([self.evaluate(v, s, depth + 1) for v, s in assigns], f"`{name}`"),
                             "module-constant", f"module constant `{name}`")
        if name in self.imports:
            return Arg.unknown(f"`{name}` is imported from {self.imports[name].rsplit('.', 1)[0] or 'a module'}")
        return Arg.unknown(f"`{name}`")

    def lookup_attr(self, attr: str, at, depth: int) -> Arg:
        cls = self.enclosing_class(at)
        if cls is None:
            return Arg.unknown(f"`self.{attr}` outside a class")
        found = self.class_attrs(cls).get(attr)
        if not found:
            return Arg.unknown(f"`self.{attr}` is not set in class {cls.name}")
        return _with_how(_merge([self.evaluate(v, s, depth + 1) for v, s in found], f"`self.{attr}`"),
                         "init-attribute", f"`self.{attr}` set in class {cls.name}")

    def container(self, node, at, depth=0) -> dict | None:
        """A dict the code builds: {key: (value node, where)} (None when it is not one the linter can read)."""
        if depth > MAX_DEPTH:
            return None
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                if k is None:
                    inner = self.container(v, at, depth + 1)
                    if inner is None:
                        return None
                    out.update(inner)
                    continue
                key = self.evaluate(k, at, depth + 1)
                if not key.certain:
                    return None
                out[key.value] = (v, at)
            return out
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict" and not node.args:
            return {kw.arg: (kw.value, at) for kw in node.keywords if kw.arg}
        sources = []
        if isinstance(node, ast.Name):
            for func in self.functions(at):
                if node.id in self.function_assigns(func):
                    sources = self.function_assigns(func)[node.id]
                    break
                if node.id in self.params(func):
                    return None
            else:
                sources = self.module_assigns.get(node.id, [])
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            cls = self.enclosing_class(at)
            sources = self.class_attrs(cls).get(node.attr, []) if cls is not None else []
        tables = [self.container(v, s, depth + 1) for v, s in sources if v is not None]
        if len(tables) == 1 and tables[0] is not None:
            return tables[0]
        return None

    def conditional_items(self, name: str, at) -> dict:
        """``name["key"] = value`` statements in the enclosing function: keys a dict may or may not hold."""
        funcs = self.functions(at)
        scope = funcs[0] if funcs else self.tree
        key = (scope, name)
        if key in self._conditional:  # each scope's statements are read once per name
            return self._conditional[key]
        out = self._conditional[key] = {}
        for node in _statements(scope.body):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    if (isinstance(t, ast.Subscript) and isinstance(t.value, ast.Name) and t.value.id == name
                            and isinstance(t.slice, ast.Constant) and isinstance(t.slice.value, str)):
                        out[t.slice.value] = (node.value, node)
        return out

    # ---------------------------------------------------------------------------------------- the sites
    def candidate_calls(self):
        """The Call nodes whose callee is named one of ``self.callees``, found from the text and then the tree."""
        pattern = _called() if self.callees == callees() else _called_pattern(self.callees)
        starts = [0] + [m.end() for m in _LINE_END.finditer(self.text)]
        seen = set()
        for m in pattern.finditer(self.text):
            name = m.group(1)
            if name is None:
                continue
            offset = m.start(1)
            line = _bisect(starts, offset)
            col = self.byte_column(line, offset - starts[line - 1])
            call = self.call_named(line, col, len(name.encode("utf-8")))
            if call is not None and id(call) not in seen:
                seen.add(id(call))
                yield call

    def line_bytes(self, line: int):
        """None for an ASCII line (characters are bytes), else the UTF-8 length of the line before each
        character (computed once per line)."""
        if line not in self._line_bytes:
            text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
            self._line_bytes[line] = None if text.isascii() else np.concatenate(
                ([0], np.cumsum([len(ch.encode("utf-8", errors="replace")) for ch in text])))
        return self._line_bytes[line]

    def byte_column(self, line: int, chars: int) -> int:
        """UTF-8 bytes of the first ``chars`` characters of a line (what ast's col_offset counts)."""
        table = self.line_bytes(line)
        return chars if table is None else int(table[min(chars, len(table) - 1)])

    def char_column(self, line: int, byte: int) -> int:
        """Characters in the first ``byte`` UTF-8 bytes of a line (a character cut in the middle counts)."""
        table = self.line_bytes(line)
        if table is None:
            return min(byte, len(self.lines[line - 1]) if 0 < line <= len(self.lines) else 0)
        return int(np.searchsorted(table, byte, side="left"))

    def call_named(self, line: int, col: int, length: int):
        """The innermost Call whose callee name occupies (line, col .. col+length), or None."""
        target = (line, col, line, col + length)
        current, path = self.tree, []
        while True:
            child = self.child_containing(current, target)
            if child is None:
                break
            self.parent[child] = current
            current = child
            path.append(child)
        for node in reversed(path):
            if isinstance(node, ast.Call):
                func = node.func
                if isinstance(func, ast.Name) and (func.lineno, func.col_offset) == (line, col):
                    return node
                if isinstance(func, ast.Attribute) and (func.end_lineno, func.end_col_offset) == (line, col + length):
                    return node
        return None

    def sites(self) -> list[Site]:
        out = []
        for node in self.candidate_calls():
            site = self.site(node)
            if site is not None:
                out.append(site)
        out.sort(key=lambda s: (s.line, s.column))
        return out

    def site(self, call: ast.Call) -> Site | None:
        qualified = self.qualify(call.func, call)
        api = apis.lookup(qualified)
        args, keywords = list(call.args), list(call.keywords)
        if api is None and isinstance(call.func, ast.Name) and call.func.id in self.subclass_api \
                and not self.is_local(call.func.id, call):
            api = self.subclass_api[call.func.id]
        if api is None and qualified in apis.PARTIAL and call.args:
            api = apis.lookup(self.qualify(call.args[0], call))
            args = args[1:]
        if api is None and qualified in apis.ONNX_MAKE_NODE:
            return self.onnx_site(call, apis.ONNX_MAKE_NODE[qualified])
        if api is None and self.wrappers:
            api = self.wrapper_api(call, qualified)
        if api is None and isinstance(call.func, ast.Attribute) and call.func.attr in ("resize", "thumbnail"):
            api = self.pillow_method(call)
        if api is None:
            return None
        return self.make_site(call, api, args, keywords)

    def wrapper_api(self, call: ast.Call, qualified: str | None) -> apis.Api | None:
        """The Api of a project wrapper this call calls: defined in this module, or imported from the project
        (a relative import, or a module of the same top package)."""
        here = module_name(self.path)
        if isinstance(call.func, ast.Name) and call.func.id in self.local_defs:
            for module, api in self.wrappers.get(call.func.id, ()):
                if module == here and not self.is_local(call.func.id, call):
                    return api
            return None
        if not qualified:
            if isinstance(call.func, ast.Name) and self.project_stars and not self.is_local(call.func.id, call) \
                    and call.func.id not in self.imports and call.func.id not in self.module_assigns:
                stars = {_absolute(m, here, self.path.replace("\\", "/").endswith("__init__.py"))
                         for m in self.project_stars}
                for module, api in self.wrappers.get(call.func.id, ()):
                    if module in stars:
                        return api
            return None
        head, _, last = qualified.rpartition(".")
        head = _absolute(head, here, self.path.replace("\\", "/").endswith("__init__.py"))
        for module, api in self.wrappers.get(last, ()):
            if module == here:
                continue  # its own definition's module calls it by name (above)
            if _same_module(head, module):
                return api
        return None

    def wrapped(self, call: ast.Call, api: apis.Api, bound) -> tuple | None:
        """(function, parameters, {option: parameter}, {option: default}, api) when the call is in a
        module-level function and passes one of its parameters as the mode: a wrapper of ``api``."""
        funcs = self.functions(call)
        if len(funcs) != 1 or not isinstance(funcs[0], ast.FunctionDef) or funcs[0] not in self.tree.body:
            return None
        func = funcs[0]
        params = self.params(func)
        passes, defaults, mode_map = {}, {}, api.mode_map
        for option, param in (("mode", api.mode_param), ("align_corners", "align_corners"),
                              ("antialias", "antialias")):
            sources = bound.get(param) if param else None
            if not sources or not isinstance(sources[0][0], ast.Name):
                continue
            local = sources[0][0].id
            if local in params and not self.function_assigns(func).get(local):
                passes[option] = local
            elif option == "mode" and local not in params and not api.mode_map:
                mapped = self.parameter_map(func, local, params, api)
                if mapped is None:
                    continue
                passes[option], mode_map = mapped
            else:
                continue
            default = params[passes[option]]
            if default is not None:
                value = self.evaluate(default, func)
                if value.certain and not isinstance(value.value, Const):
                    defaults[option] = value.value
        if "mode" not in passes:
            return None
        names = tuple(p.arg for p in func.args.posonlyargs + func.args.args)
        return func.name, names, passes, defaults, api, mode_map

    def parameter_map(self, func, name: str, params: dict, api: apis.Api) -> tuple[str, tuple] | None:
        """(parameter, ((value, mode), ...)) when the local ``name`` is set only by an if/elif chain whose tests
        compare one parameter with constants, each branch setting a constant mode (a string or a library's
        constant: deeplab2's ``tf_method = tf.compat.v1.image.ResizeMethod.BILINEAR``) or none (that value
        makes no resize).  keras-unet-collection's ``decode_layer(X, channel, pool_size, unpool)``::

            if unpool is False: ...                                  # Conv2DTranspose: no resize
            elif unpool == 'nearest': interp = 'nearest'
            elif (unpool is True) or (unpool == 'bilinear'): interp = 'bilinear'
            else: raise ValueError(...)

        maps ``unpool`` False -> None, 'nearest' -> 'nearest', True and 'bilinear' -> 'bilinear'."""
        assigned = self.function_assigns(func).get(name, [])
        if not assigned:
            return None
        for node in ast.walk(func):
            if not isinstance(node, ast.If):
                continue
            branches, rest = [], node
            while True:
                branches.append((rest.test, rest.body))
                if len(rest.orelse) == 1 and isinstance(rest.orelse[0], ast.If):
                    rest = rest.orelse[0]
                    continue
                tail = rest.orelse
                break
            if tail and not all(isinstance(s, (ast.Raise, ast.Pass, ast.Expr)) for s in tail):
                continue  # an else that sets the mode for every other value: not a table
            pairs, param, found = [], None, 0
            for test, body in branches:
                compared = _compared(test, params)
                if compared is None or (param is not None and compared[0] != param):
                    break
                param = compared[0]
                sets = [s for s in body if isinstance(s, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == name for t in s.targets)]
                mode = self.mode_values(api, self.evaluate(sets[0].value, sets[0])) if len(sets) == 1 else None
                if len(sets) > 1 or (sets and not (mode.certain and isinstance(mode.value, str))):
                    break  # a constant string or a library constant (`ResizeMethod.BILINEAR`) in each branch
                found += len(sets)
                pairs += [(value, mode.value if sets else None) for value in compared[1]]
            else:
                before = [s for _, s in self.function_assigns(func).get(param, []) if s.lineno < node.lineno]
                if found == len(assigned) and found and not before:
                    return param, tuple(pairs)
        return None

    def pillow_method(self, call: ast.Call) -> apis.Api | None:
        """``img.resize(...)`` / ``img.thumbnail(...)`` when the code shows it is a PIL image."""
        if not self.imports_pil:
            return None
        receiver = call.func.value
        if self.qualify(receiver, call):  # a module's function (np.resize, cv2.resize ...)
            return None
        api = apis.api_table()[f"PIL.Image.Image.{call.func.attr}"]
        if any(kw.arg == "resample" for kw in call.keywords):
            return api  # only Pillow's resize and thumbnail take `resample`
        resample = self.bind(api, call.args, call.keywords, call).get("resample")
        if resample:
            value = self.evaluate(resample[0][0], resample[0][1])
            if any(isinstance(v, Const) and v.library == "pillow" for v in value.values):
                return api
        if self.kind_of(receiver, call) == "pil":
            return api
        return None

    def bind(self, api: apis.Api, args, keywords, at) -> dict[str, list]:
        """parameter -> [(expression, where, always)] from positional, keyword and ``**dict`` arguments."""
        params = api.params
        bound: dict[str, list] = {}
        for name, arg in zip(params, args):
            if isinstance(arg, ast.Starred):
                break
            bound[name] = [(arg, at, True)]
        for kw in keywords:
            if kw.arg is not None:
                bound[kw.arg] = [(kw.value, at, True)]
                continue
            table = self.container(kw.value, at)
            if table is None:
                bound.setdefault("**", []).append((kw.value, at, True))
                continue
            for key, (value, where) in table.items():
                bound.setdefault(key, []).append((value, where, True))
            if isinstance(kw.value, ast.Name):
                for key, (value, where) in self.conditional_items(kw.value.id, at).items():
                    bound.setdefault(key, []).append((value, where, False))
        return bound

    def argument(self, api: apis.Api, bound, name: str, param: str | None) -> Arg:
        """What the call passes for one of mode / align_corners / antialias."""
        if name in api.fixed:
            return Arg.known(api.fixed[name], "implied", f"{api.name.rsplit('.', 1)[-1]} implies it")
        sources = bound.get(param) if param else None
        default = api.defaults.get(name)
        if not sources:
            if "**" in bound:
                return Arg.unknown(f"`**{_src(bound['**'][0][0])}` may pass `{param}`")
            if name == "mode" and default is None:
                return Arg.unknown(f"`{param}` is not passed")
            if default == "downscale":
                return Arg((False, True), "unknown", "antialias=True acts only when downscaling")
            return Arg.known(default, "api-default")
        parts = [self.evaluate(expr, where) for expr, where, _ in sources]
        if not all(always for *_, always in sources):
            parts.append(Arg.known(default, "api-default"))
        arg = _merge(parts, f"`{param}`")
        if len(parts) > 1 and arg.how != "unknown":
            arg = Arg(arg.values, "conditional", arg.detail)
        return arg

    def make_site(self, call: ast.Call, api: apis.Api, args, keywords) -> Site:
        bound = self.bind(api, args, keywords, call)
        mode = self.argument(api, bound, "mode", api.mode_param)
        if api.mode_map:
            mode = _mapped(api, mode)
            if mode is None:
                return None  # every value the call passes makes no resize (the wrapper's other branch)
        mode = self.mode_values(api, mode)
        align = self.argument(api, bound, "align_corners", "align_corners")
        antialias = self.argument(api, bound, "antialias", "antialias")
        line, column = self.position(call)
        runs = api.runs
        if runs == "input":
            runs = "model" if self.input_kind(call, api, bound) == "tensor" else "host"
        elif runs == "model" and api.input and bound.get(api.input):
            expr, where, _ = bound[api.input][0]
            if self.kind_of(expr, where) in ("cpu", "pil"):
                runs = "host"  # a tensor made on the host and never moved to a device
        if api.defaults.get("antialias") == "downscale" and antialias.how == "unknown" and "antialias" not in bound:
            antialias = self.implicit_antialias(api, bound)
        elif api.defaults.get("antialias") == "downscale" and antialias.certain and antialias.value is True:
            implied = self.implicit_antialias(api, bound)  # JAX's antialias=True acts only when downscaling
            if not implied.certain or implied.value is False:
                antialias = implied
        extra = self.device_guard(call)
        fallback = self.fallback(call)
        if fallback:
            extra["fallback"] = fallback
        branch = self.off_default_branch(call)
        if branch:
            extra["branch"] = branch
        else:
            flag = self.default_flag(call)
            if flag:
                extra["flag"] = flag
                if not flag["on"]:
                    extra["branch"] = flag["test"]
        unused = self.unused_layer(call)
        if unused:
            extra["unused"] = unused
        wrapped = self.wrapped(call, api, bound)
        if wrapped and api.name == f"{module_name(self.path)}.{wrapped[0]}":
            wrapped = None  # a wrapper calling itself
        if wrapped:
            extra["wrapper"] = wrapped
        if api.mode_map:
            extra["mode_map"] = api.mode_map
        if api.antialias_modes is not None:
            extra["antialias_modes"] = api.antialias_modes
        if api.library == "keras" and ("KERAS_BACKEND" in self.text or "set_backend" in self.text):
            backends = tuple(dict.fromkeys(a or b for a, b in _KERAS_BACKEND.findall(self.text)))
            if backends:
                extra["keras_backends"] = backends
        if api.coordinates:
            coordinates = self.coordinates(api, bound, align)
            if coordinates:
                extra["coordinates"] = coordinates
        context = self.where(call)
        named = isinstance(context, tuple)  # said by the name of a function: callers in model code overrule it
        context = context[0] if named else context
        targets = self.from_targets(call, api, bound)
        if targets:
            extra["targets"] = targets
        training, exported, differentiated = self.gradients(call), self.exported(call), self.differentiates(call)
        in_model, function = self.in_model(call), None
        if named and in_model is None and not differentiated:
            extra["named_context"] = (training, exported)
        if named and context == "script" and in_model:  # a layer's weight loading (Keras `load_own_variables`)
            extra["loads_weights"] = next((f.name for f in reversed(self.functions(call))
                                           if function_context(getattr(f, "name", "")) == "script"), "")
        if in_model is None and not differentiated and (context == "model" or named):
            funcs = self.functions(call)
            if funcs and isinstance(funcs[-1], (ast.FunctionDef, ast.AsyncFunctionDef)) \
                    and funcs[-1] in self.tree.body:
                function = funcs[-1].name  # called from model code elsewhere? (lint follows, one level)
        top = next((f for f in self.functions(call)[-1:] if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                    and f in self.tree.body and not f.decorator_list), None)
        if context != "model" and not differentiated:
            training = False
        if context != "model":
            exported = False
        return Site(path=self.path, line=line, column=column, end_line=call.end_lineno, library=api.library,
                    api=api.name, mode=mode, align_corners=align, antialias=antialias,
                    rank=self.rank(api, bound), scale_factor=self.passes_scale(api, bound), runs=runs,
                    training=training, in_model=in_model, exported=exported,
                    differentiated=differentiated, snippet=self.snippet(line), extra=extra, context=context,
                    function=function, top_function=top.name if top is not None else None)

    # ------------------------------------------------------------------------------ what the call computes
    def implicit_antialias(self, api: apis.Api, bound) -> Arg:
        """JAX's antialias (True by default) acts only when downscaling: known when the code shows the
        direction (``(n, h // 2, w // 2, c)``, ``(n, h * 2, w * 2, c)``, a scale below or above 1)."""
        direction = None
        data = api.input or (api.params[0] if api.params else None)  # (the array resized: its first parameter)
        inputs = {e.id for e, _, _ in bound.get(data, []) if isinstance(e, ast.Name)}
        for param in ("shape", "scale"):
            for expr, where, _ in bound.get(param, []):
                direction = direction or self.direction(expr, where, param == "scale", inputs=inputs)
                if direction is None and param == "shape":
                    direction = self.asserted_direction(expr, where)
        if direction == "down":
            return Arg.known(True, "implied", f"{api.name.rsplit('.', 1)[-1]} antialiases a downscale by default")
        if direction == "up":
            return Arg.known(False, "implied", "the call upscales: antialias acts only when downscaling")
        return Arg((False, True), "unknown", "antialias=True acts only when downscaling")

    def direction(self, expr, at, is_scale: bool = False, depth: int = 0, inputs=frozenset()) -> str | None:
        """'down' or 'up' when a shape (or scale) expression shows the resize's direction: ``h // 2``, ``w * 2``,
        a scale below or above 1, or a length of the resized input (``inputs``: its names) floor-divided by a
        factor (``[c, n, h, w] = image.shape`` then ``(c, n, h // f, w // f)``: at most that length)."""
        if depth > 2:
            return None
        if isinstance(expr, ast.Name):
            for func in self.functions(at):
                assigns = self.function_assigns(func).get(expr.id)
                if assigns and len(assigns) == 1 and assigns[0][0] is not None:
                    return self.direction(assigns[0][0], assigns[0][1], is_scale, depth + 1, inputs)
            return None
        elements = list(expr.elts) if isinstance(expr, (ast.Tuple, ast.List)) else [expr]
        seen = set()
        for e in elements:
            if isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id in ("int", "round") and e.args:
                e = e.args[0]
            if is_scale and isinstance(e, ast.Constant) and isinstance(e.value, (int, float)):
                seen.add("down" if e.value < 1 else "up" if e.value > 1 else "same")
            elif isinstance(e, ast.BinOp) and isinstance(e.right, ast.Constant) \
                    and isinstance(e.right.value, (int, float)) and not isinstance(e.right.value, bool):
                k = e.right.value
                if isinstance(e.op, (ast.FloorDiv, ast.Div)) and k > 1:
                    seen.add("down")
                elif isinstance(e.op, ast.Mult):
                    seen.add("up" if k > 1 else "down" if k < 1 else "same")
            elif isinstance(e, ast.BinOp) and isinstance(e.op, ast.Mult) and isinstance(e.left, ast.Constant) \
                    and isinstance(e.left.value, (int, float)) and e.left.value > 1:
                seen.add("up")
            elif isinstance(e, ast.BinOp) and isinstance(e.op, ast.FloorDiv) and not is_scale \
                    and self.input_length(e.left, at, inputs):
                seen.add("down")
        if "down" in seen:
            return "down"
        return "up" if "up" in seen else None

    def input_length(self, expr, at, inputs) -> bool:
        """Whether ``expr`` is a length of one of the arrays named ``inputs``: ``x.shape[i]``, or a name
        unpacked from ``x.shape`` (or assigned ``x.shape[i]``) once in the function."""
        def of_input(e) -> bool:
            return isinstance(e, ast.Attribute) and e.attr == "shape" and isinstance(e.value, ast.Name) \
                and e.value.id in inputs
        if isinstance(expr, ast.Subscript) and of_input(expr.value):
            return True
        if not isinstance(expr, ast.Name) or not inputs:
            return False
        for func in self.functions(at):
            assigns = self.function_assigns(func).get(expr.id)
            if assigns:
                if len(assigns) != 1:
                    return False
                stmt = assigns[0][1]
                value = getattr(stmt, "value", None)
                return of_input(value) or (isinstance(value, ast.Subscript) and of_input(value.value))
        return False

    def asserted_direction(self, shape, at) -> str | None:
        """'down' when the function asserts, before the call, that a size the shape is built from is at most
        an input's ``.shape`` (``assert tuple(image_size) <= x.shape[1:3]``), 'up' for at least."""
        names = {n.id for n in ast.walk(shape) if isinstance(n, ast.Name)}
        funcs = self.functions(at)
        if not names or not funcs or isinstance(funcs[0], ast.Lambda):
            return None
        for stmt in _statements(funcs[0].body):
            if not isinstance(stmt, ast.Assert) or not _before(stmt, at) or not isinstance(stmt.test, ast.Compare) \
                    or len(stmt.test.ops) != 1:
                continue
            left, right, op = stmt.test.left, stmt.test.comparators[0], stmt.test.ops[0]
            if isinstance(op, (ast.Gt, ast.GtE)):
                left, right, op = right, left, ast.LtE()
            if not isinstance(op, (ast.Lt, ast.LtE)):
                continue
            def sizes(e):
                return {n.id for n in ast.walk(e) if isinstance(n, ast.Name)}
            def has_shape(e):
                return any(isinstance(n, ast.Attribute) and n.attr == "shape" for n in ast.walk(e))
            if sizes(left) & names and has_shape(right) and not has_shape(left):
                return "down"
            if sizes(right) & names and has_shape(left) and not has_shape(right):
                return "up"
        return None

    def coordinates(self, api: apis.Api, bound, align: Arg) -> str | None:
        """``repeat`` (nearest repeats pixels) or ``legacy`` (TensorFlow 1 coordinates) for the call, or None."""
        if api.coordinates == "repeat":
            return "repeat"
        if api.coordinates == "tf1":
            half = bound.get("half_pixel_centers")
            half_value = self.evaluate(half[0][0], half[0][1]) if half else Arg.known(False, "api-default")
            if half_value.certain and half_value.value is False and align.certain and align.value is False:
                return "legacy"
        return None

    def context(self, call) -> str:
        """Where the call runs (:meth:`where`), without how it was found."""
        found = self.where(call)
        return found[0] if isinstance(found, tuple) else found

    def where(self, call):
        """Where the call runs (:mod:`~explorer.advisor.lint.context`): from the path, a ``test_*`` function or
        ``Test*`` class around it, a function the code maps over a ``tf.data`` dataset, a script that does not
        train."""
        for node in self.ancestors(call):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
                return "test"
            if isinstance(node, ast.ClassDef) and (node.name.startswith("Test") or any(
                    _src(b).endswith("TestCase") for b in node.bases)):
                return "test"
        found = path_context(self.path)
        if found == "script" and TRAINS.search(self.text):
            return "model"
        if found == "test" and not _TEST_CODE.search(self.text):
            found = path_context(self.path, name_only=False)  # `diml_indoor_test.py`: a test split's dataset
        if found:
            return found
        for func in self.functions(call):
            name = getattr(func, "name", None)
            if name and self._mapped(name):
                return "preprocessing"
            if name and (said := function_context(name)):
                return said, "function"
        for node in self.ancestors(call):
            if isinstance(node, ast.ClassDef) and (said := class_context(node.name)):
                return said, "class"
        if self.foreign_pipeline(call):
            return "preprocessing"
        if _MAIN_GUARD.search(self.text) and not TRAINS.search(self.text) and self.enclosing_class(call) is None \
                and (_COMMAND_LINE.search(self.text) or self.gradients(call) is False):
            return "script"  # a program that does not train (a command line, or no_grad): its code runs around a model
        return "model"

    def unused_layer(self, call) -> str | None:
        """The attribute a layer is stored in when the module never reads it (TensorFlow-Advanced-Segmentation-
        Models' DeepLabV3plus builds ``self.upsampling2d_1`` and calls ``self.upsample2d_1``): a layer nothing
        calls never runs.  None when the call is not stored in ``self.<name>``, or the name is read anywhere
        in the module (an attribute load or a string, as ``getattr`` takes)."""
        parent = self.parent.get(call)
        if not (isinstance(parent, ast.Assign) and parent.value is call and len(parent.targets) == 1
                and _self_attribute(parent.targets[0])):
            return None
        name = parent.targets[0].attr
        if not hasattr(self, "_read_names"):
            self._read_names = {n.attr for n in ast.walk(self.tree) if isinstance(n, ast.Attribute)
                                and not isinstance(n.ctx, ast.Store)} | {
                n.value for n in ast.walk(self.tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
        return None if name in self._read_names else name

    def foreign_pipeline(self, call) -> bool:
        """True for a TensorFlow op in a module whose model is JAX or PyTorch (denoising-diffusion-flax's
        ``tf.image.resize`` of the dataset images in its ``train.py``): a traced JAX function or a torch module
        cannot run a TensorFlow op on its tensors, so the op runs in the input pipeline (``tf.data``)."""
        name = self.qualify(call.func, call) or ""
        if not name.startswith("tensorflow.") or name.startswith(("tensorflow.keras.", "tensorflow.python.keras.")):
            return False
        if not hasattr(self, "_top_imports"):  # the module's own imports (not one a function makes for a converter)
            self._top_imports = {alias.name for node in self.tree.body if isinstance(node, (ast.Import, ast.ImportFrom))
                                 for alias in node.names} | {node.module or "" for node in self.tree.body
                                                             if isinstance(node, ast.ImportFrom)}
        roots = {target.split(".")[0] for target in self._top_imports}
        return bool(roots & {"jax", "flax", "haiku", "torch"}) and not any("keras" in t for t in self._top_imports)

    def _mapped(self, name: str) -> bool:
        """True when the module maps a function over a dataset (``ds.map(name)``, ``.map(name, ...)``)."""
        if not hasattr(self, "_mapped_names"):
            self._mapped_names = set(re.findall(r"\.map\(\s*(?:lambda[^:]*:\s*)?(\w+)", self.text))
        return name in self._mapped_names

    def mode_values(self, api: apis.Api, arg: Arg) -> Arg:
        """Mode values in the spelling of the library whose rules judge the call."""
        if not arg.values:
            return arg
        out = []
        for value in arg.values:
            if isinstance(value, Const):
                if api.library == "torchvision" and value.library == "pillow":
                    value = apis.PILLOW_TO_TORCHVISION.get(value.name)
                else:
                    value = value.name
            elif isinstance(value, bool) or value is None:
                return Arg.unknown(f"mode {value!r}")
            elif isinstance(value, int):
                if api.codes is None:
                    return Arg.unknown(f"integer mode {value}")
                value = apis.code_mode(api.codes, value)
                if value and api.library == "torchvision":
                    value = apis.PILLOW_TO_TORCHVISION.get(value)
            elif isinstance(value, str):
                # UpSampling2D lowercases its interpolation (keras/src/layers/reshaping/up_sampling2d.py @ v3.15.1)
                lower = api.library in ("torch", "torchvision", "tensorflow", "jax") or api.coordinates == "repeat"
                value = value.lower() if lower else value
            else:
                return Arg.unknown(f"mode {value!r}")
            if value is None:
                return Arg.unknown("an integer code no mode has")
            out.append(value)
        return Arg(tuple(dict.fromkeys(out)), arg.how, arg.detail)

    def rank(self, api: apis.Api, bound) -> Arg:
        if api.rank is not None:
            return Arg.known(api.rank, "implied")
        for param in api.size_params:
            for expr, where, _ in bound.get(param, []):
                n = self.length(expr, where)
                if n is not None:
                    return Arg.known(n, "literal", f"`{param}` has {n} values")
        return Arg.unknown("the input's rank")

    def length(self, expr, at) -> int | None:
        """How many values a size or scale argument holds, when the code says it."""
        if isinstance(expr, (ast.Tuple, ast.List)):
            return len(expr.elts) if not any(isinstance(e, ast.Starred) for e in expr.elts) else None
        if isinstance(expr, ast.Subscript) and isinstance(expr.slice, ast.Slice):
            s = expr.slice
            if s.upper is None and s.step is None and isinstance(s.lower, ast.UnaryOp) \
                    and isinstance(s.lower.op, ast.USub) and isinstance(s.lower.operand, ast.Constant):
                return int(s.lower.operand.value)
            return None
        if isinstance(expr, ast.Name):
            value = self.evaluate(expr, at)
            if value.certain and isinstance(value.value, tuple):
                return len(value.value)
        return None

    def passes_scale(self, api: apis.Api, bound) -> Arg:
        """True for a scale factor other than whole numbers (whole factors give the same sizes everywhere)."""
        sources = bound.get(api.scale_param) if api.scale_param else None
        if not sources:
            return Arg.known(False, "api-default")
        for expr, where, _ in sources:
            value = self.evaluate(expr, where)
            if not value.certain and self.divides(expr, where):
                return Arg.known(True, "implied", f"the scale factor `{_src(expr)}` is a quotient")
            if not value.certain:
                return Arg.unknown(f"scale factor {value.detail or _src(expr)}")
            items = value.value if isinstance(value.value, tuple) else (value.value,)
            if any(v is not None and not (isinstance(v, (int, float)) and float(v).is_integer()) for v in items):
                return Arg.known(True, value.how)
        return Arg.known(False, "literal")

    def divides(self, expr, at, depth: int = 0) -> bool:
        """True when a scale factor is computed by a true division (``min(target / h, limit / w)``), followed
        through the names the function assigns once: a ratio of sizes, fractional in general."""
        if depth > 2:
            return False
        if isinstance(expr, ast.Name):
            for func in self.functions(at):
                assigns = self.function_assigns(func).get(expr.id)
                if assigns:
                    return len(assigns) == 1 and assigns[0][0] is not None \
                        and self.divides(assigns[0][0], assigns[0][1], depth + 1)
            return False
        return any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Div) for n in ast.walk(expr))

    # --------------------------------------------------------------------------------- where it runs
    def input_kind(self, call: ast.Call, api: apis.Api, bound) -> str | None:
        """'tensor' or 'pil' for what a torchvision resize is applied to, when the code shows it."""
        target = None
        if api.input and bound.get(api.input):
            target = bound[api.input][0]
        else:  # a transform object: applied inline, or inside an inline Compose([...])
            node, parent = call, self.parent.get(call)
            if isinstance(parent, (ast.List, ast.Tuple)):
                compose = self.parent.get(parent)
                if isinstance(compose, ast.Call):
                    node, parent = compose, self.parent.get(compose)
            if isinstance(parent, ast.Call) and parent.func is node and parent.args:
                target = (parent.args[0], parent, True)
            elif target is None:  # stored (`self.resize = transforms.Resize(...)`) and applied in a method
                kinds = {self.kind_of(arg, at) for arg, at in self.applications(call)}
                if len(kinds) == 1 and None not in kinds:
                    return kinds.pop()
        for func in self.functions(call):
            for deco in getattr(func, "decorator_list", []):
                if self.qualify(deco.func if isinstance(deco, ast.Call) else deco, func) in apis.ENABLE_GRAD:
                    return "tensor"
        if target is None:
            return None
        return self.kind_of(target[0], target[1])

    def applications(self, call) -> list:
        """[(argument, application)] of a transform object stored on ``self`` (``self.resize =
        transforms.Resize(size)``): each ``self.resize(x)`` in its class."""
        assign = next(iter(self.ancestors(call)), None)
        if not (isinstance(assign, ast.Assign) and len(assign.targets) == 1 and assign.value is call
                and _self_attribute(assign.targets[0])):
            return []
        cls, attr = self.enclosing_class(call), assign.targets[0].attr
        if cls is None:
            return []
        return [(node.args[0], node) for node in ast.walk(cls) if isinstance(node, ast.Call) and node.args
                and _self_attribute(node.func) and node.func.attr == attr]

    def method_kind(self, call: ast.Call, at, depth: int) -> str | None:
        """The kind of ``self.m(x)``: what the method returns (its ``return`` values), or for a transform
        stored on ``self`` that keeps its input's kind (a ``lambda x: x``, ``nn.Identity()``, a torchvision
        transform other than a conversion), the kind of ``x``."""
        cls = self.enclosing_class(at)
        if cls is None:
            return None
        name = call.func.attr
        method = next((f for f in cls.body if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
                       and f.name == name), None)
        if method is not None:
            if method not in self._method_kinds:  # once per method (None while it is read: no recursion)
                self._method_kinds[method] = None
                kinds = {self.kind_of(r.value, r) for r in ast.walk(method)
                         if isinstance(r, ast.Return) and r.value is not None}
                if kinds == {"cpu", "tensor"}:
                    kinds = {"tensor"}  # a tensor on every path, moved on some
                self._method_kinds[method] = kinds.pop() if len(kinds) == 1 else None
            return self._method_kinds[method]
        values = self.class_attrs(cls).get(name, [])
        if values and call.args and all(self.keeps_kind(v, where) for v, where in values):
            return self.kind_of(call.args[0], at, depth + 1)
        return None

    def keeps_kind(self, value, where) -> bool:
        if isinstance(value, ast.IfExp):
            return self.keeps_kind(value.body, where) and self.keeps_kind(value.orelse, where)
        if isinstance(value, ast.Lambda):
            args = value.args.args
            return len(args) == 1 and isinstance(value.body, ast.Name) and value.body.id == args[0].arg
        if isinstance(value, ast.Call):
            name = self.qualify(value.func, where) or ""
            return name == "torch.nn.Identity" or (name.startswith("torchvision.transforms.")
                                                   and name not in apis.CPU_TENSOR_MAKERS
                                                   and not name.endswith(("ToPILImage", "to_pil_image")))
        return False

    def kind_of(self, expr, at, depth=0) -> str | None:
        """What the code shows an expression holds: 'pil' (a PIL image), 'cpu' (a tensor made on the host from
        numpy or an image and never moved), 'tensor' (a tensor that may be on a device), or None."""
        if depth > MAX_DEPTH:
            return None
        if isinstance(expr, ast.Call):
            func = self.qualify(expr.func, at)
            if func in apis.PIL_MAKERS:
                return "pil"
            if func in apis.CPU_TENSOR_MAKERS or (isinstance(expr.func, ast.Call) and
                                                  self.qualify(expr.func.func, at) in apis.CPU_TENSOR_MAKERS):
                return "cpu"
            if func and func.startswith("torch.") and expr.args:
                inner = self.kind_of(expr.args[0], at, depth + 1)
                if inner == "cpu" and func.rsplit(".", 1)[-1] in apis.DEVICE_KEEPING:
                    return "cpu"
            if func and func.startswith(apis.TENSOR_MAKERS):
                return "tensor"
            if _self_attribute(expr.func):
                return self.method_kind(expr, at, depth)
            if isinstance(expr.func, ast.Attribute):
                method = expr.func.attr
                inner = self.kind_of(expr.func.value, at, depth + 1)
                if inner == "pil":
                    return "pil" if method in apis.PIL_METHODS else None
                if inner == "cpu":
                    if method in apis.DEVICE_KEEPING:
                        return "cpu"
                    if method == "to" and not expr.args and all(kw.arg == "dtype" for kw in expr.keywords):
                        return "cpu"
                    if method == "to" and expr.args and _src(expr.args[0]).startswith("torch.") \
                            and not expr.keywords:
                        return "cpu"  # .to(torch.float32)
                    return "tensor" if method in apis.TENSOR_METHODS else None
                if method in apis.TENSOR_METHODS:
                    return "tensor" if inner == "tensor" or method in ("clamp", "permute", "unsqueeze", "detach",
                                                                       "float", "half") else None
            return None
        if isinstance(expr, ast.BinOp):
            kinds = {self.kind_of(expr.left, at, depth + 1), self.kind_of(expr.right, at, depth + 1)}
            if "tensor" in kinds:
                return "tensor"
            return "cpu" if "cpu" in kinds else None
        if isinstance(expr, ast.Name):
            for func in self.functions(at):
                assigns = self.function_assigns(func).get(expr.id)
                if assigns:
                    return self._kind_of_assigned(assigns, at, depth)
                annotation = self.annotations(func).get(expr.id)
                if annotation is not None:
                    text = _src(annotation)
                    if "Tensor" in text:
                        return "tensor"
                    if "Image" in text:
                        return "pil"
                    return None
                if expr.id in self.params(func):
                    return None
            assigns = self.module_assigns.get(expr.id)
            if assigns:
                return self._kind_of_assigned(assigns, at, depth)
        return None

    def _kind_of_assigned(self, assigns, at, depth) -> str | None:
        """The kind of the last value assigned to a name before ``at``."""
        before = sorted(((v, s) for v, s in assigns if _before(s, at)), key=lambda item: item[1].lineno)
        if before and before[-1][0] is not None:
            return self.kind_of(before[-1][0], before[-1][1], depth + 1)
        return None

    def gradients(self, call) -> bool | None:
        """False inside ``torch.no_grad()`` / ``inference_mode()`` (a with block or a decorator), in the branch of
        ``if self.training:`` that runs at inference (its ``else``, or the body of ``if not self.training:``), and
        when the call's result is only compared or detached (:meth:`detached`)."""
        if self.detached(call):
            return False
        for node in self.ancestors(call):
            if isinstance(node, ast.If):
                training_test = _training_test(node.test)
                if training_test is not None:
                    in_body = any(_contains(stmt, (call.lineno, call.col_offset, call.end_lineno,
                                                   call.end_col_offset)) for stmt in node.body)
                    if in_body != training_test:
                        return False
            items = []
            if isinstance(node, (ast.With, ast.AsyncWith)):
                items = [item.context_expr for item in node.items]
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                items = list(node.decorator_list)
            for item in items:
                name = self.qualify(item.func if isinstance(item, ast.Call) else item, node)
                if name in apis.NO_GRAD:
                    return False
                if name in apis.ENABLE_GRAD:
                    return None
        return None

    def off_default_branch(self, call) -> str | None:
        """The test of a branch around the call that the constructor's defaults do not take (guided-diffusion's
        ``if self.dims == 3:`` with ``dims=2`` by default): the call runs only when a caller passes another
        value.  None when every branch around it is taken at the defaults, or is not known."""
        node = call
        for parent in self.ancestors(call):
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                return None
            data_format = self.data_format_test(parent)
            if data_format is not None:
                in_body = _in_body(parent, node)
                if in_body != data_format:
                    return _src(parent.test) if in_body else f"not ({_src(parent.test)})"
            if isinstance(parent, ast.If) and isinstance(parent.test, ast.Compare) and len(parent.test.ops) == 1 \
                    and isinstance(parent.test.ops[0], (ast.Eq, ast.NotEq, ast.Is, ast.IsNot, *_ORDER)) \
                    and isinstance(parent.test.comparators[0], ast.Constant) \
                    and parent.test.comparators[0].value is not None and _self_attribute(parent.test.left):
                # a configuration the constructor stores (`self.dims`), compared with a value other than None (`x is
                # not None` tests an option that is used; a runtime argument like forward's `scale_factor` is the
                # point of the call)
                value = self.evaluate(parent.test.left, parent)
                cls = self.enclosing_class(parent)
                fields = self.class_attrs(cls).get(parent.test.left.attr, []) if cls is not None else []
                field = bool(fields) and all(isinstance(stmt, ast.AnnAssign) and stmt in cls.body
                                             for _, stmt in fields)  # a dataclass or Flax field's default
                if value.certain and ("default" in (value.detail or "") or field):
                    op, other = parent.test.ops[0], parent.test.comparators[0].value
                    if isinstance(op, tuple(_ORDER)):  # `if self.clip_weight > 0:` with clip_weight=0.0
                        numbers = all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                      for v in (value.value, other))
                        equal = _ORDER[type(op)](value.value, other) if numbers else None
                    else:
                        equal = value.value == other
                        if isinstance(op, (ast.NotEq, ast.IsNot)):
                            equal = not equal
                    if equal is None:
                        node = parent
                        continue
                    in_body = _in_body(parent, node)
                    if in_body != equal:
                        test = _src(parent.test)
                        return test if in_body else f"not ({test})"
            node = parent
        return None

    def data_format_test(self, node) -> bool | None:
        """Whether Keras' default image data format takes an ``if`` that compares ``image_data_format()`` with
        a constant (``if K.image_data_format() == "channels_first":`` is not taken: the default is
        ``channels_last``, keras/src/backend/config.py @ v3.15.1, unless ``keras.json`` says otherwise); None
        for any other ``if``."""
        if not (isinstance(node, ast.If) and isinstance(node.test, ast.Compare) and len(node.test.ops) == 1
                and isinstance(node.test.ops[0], (ast.Eq, ast.NotEq)) and isinstance(node.test.left, ast.Call)
                and isinstance(node.test.comparators[0], ast.Constant)):
            return None
        name = self.qualify(node.test.left.func, node) or ""
        if not (name.endswith(".image_data_format") and "keras" in name):
            return None
        equal = node.test.comparators[0].value == "channels_last"
        return equal if isinstance(node.test.ops[0], ast.Eq) else not equal

    def flag_test(self, node):
        """(test, its value, negated) for an ``if`` that tests a flag's truth (``if self.aux:``, ``if not
        bilinear:``) whose value the linter reads, else None."""
        if not isinstance(node, ast.If):
            return None
        test, negate = node.test, False
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            test, negate = test.operand, True
        if not (_self_attribute(test) or isinstance(test, ast.Name)):
            return None
        value = self.evaluate(test, node)
        if not value.certain or not isinstance(value.value, (bool, int, type(None))):
            return None
        return test, value, negate

    def default_flag(self, call) -> dict | None:
        """The innermost ``if`` around the call that tests the truth of a parameter's default (``if self.aux:``
        with ``aux=True``, ``if self.downsample:`` with ``downsample=False``): {"test", "param", "owner",
        "value", "takes" (the truth that runs the call), "on" (whether the default runs it)}.  What callers pass
        decides (``overrides.apply``): Tramac's models default ``aux=True`` but its training script passes
        ``aux=args.aux``, off unless ``--aux``; karras_unet's blocks default ``downsample=False`` and its U-Net
        builds them with ``downsample = True``.  None when no such flag guards the call."""
        node = call
        for parent in self.ancestors(call):
            if isinstance(parent, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                return None
            flag = self.flag_test(parent)
            if flag is not None:
                test, value, negate = flag
                m = re.search(r"default of parameter `(\w+)` of `(\w+)`", value.detail or "")
                if m and m.group(2) not in _RUNTIME_METHODS:  # a forward pass's argument is data, not a setting
                    in_body = _in_body(parent, node)
                    takes = in_body != negate
                    return {"test": _src(parent.test) if in_body else f"not ({_src(parent.test)})",
                            "param": m.group(1), "owner": m.group(2), "value": value.value, "takes": takes,
                            "on": bool(value.value) == takes}
            node = parent
        return None

    def fallback(self, call) -> str | None:
        """The exception a call's ``except`` handler catches when the call is the fallback of a ``try`` whose
        body resizes too (``try: tf.image.resize(...)`` / ``except AttributeError: tf.image.resize_images(...)``):
        it runs only where the first call's name is missing (an older release)."""
        for node in self.ancestors(call):
            if isinstance(node, ast.ExceptHandler):
                caught = _src(node.type) if node.type is not None else ""
                if not re.search(r"\b(AttributeError|ImportError|ModuleNotFoundError)\b", caught):
                    return None
                handler = node
                try_node = self.parent.get(handler)
                if isinstance(try_node, ast.Try) and any(
                        isinstance(n, ast.Call) and (getattr(n.func, "attr", None) or getattr(n.func, "id", None))
                        in self.callees for stmt in try_node.body for n in ast.walk(stmt)):
                    return caught
                return None
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                return None
        return None

    def detached(self, call) -> bool:
        """True when the call's value (``m = F.interpolate(...)``, a method chained on it included) is next used
        only inside comparisons or ``.detach()`` (``m = (m.sigmoid() < 0.5).bool()``): no gradient reaches the
        call."""
        node, parent = call, self.parent.get(call)
        while isinstance(parent, ast.Attribute) and isinstance(self.parent.get(parent), ast.Call):
            node = self.parent.get(parent)  # `F.interpolate(...).view(...)`
            self.locate(node)
            parent = self.parent.get(node)
        if not (isinstance(parent, ast.Assign) and parent.value is node and len(parent.targets) == 1
                and isinstance(parent.targets[0], ast.Name)):
            return False
        name = parent.targets[0].id
        block = self.parent.get(parent)
        body = getattr(block, "body", None)
        if not isinstance(body, list) or parent not in body:
            return False
        for stmt in body[body.index(parent) + 1:]:
            loads = [n for n in ast.walk(stmt) if isinstance(n, ast.Name) and n.id == name
                     and isinstance(n.ctx, ast.Load)]
            if not loads:
                continue
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
                    and stmt.targets[0].id == name):
                return False
            cut = {id(n) for n in ast.walk(stmt.value) if isinstance(n, ast.Compare)
                   or (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "detach")}
            return all(any(id(a) in cut for a in _enclosing(stmt.value, load)) for load in loads)
        return False

    def in_model(self, call) -> bool | None:
        """True in a method of a model class (an ``nn.Module``): code that is trained and exported; False in a
        frozen one (it sets ``requires_grad = False``); None when the code does not show it."""
        for node in self.ancestors(call):
            if isinstance(node, ast.ClassDef):
                if not self.is_model_class(node):
                    return None
                return not self.segment_says(node, r"requires_grad\s*=\s*False|requires_grad_\(\s*False")
            if self.model_functions().get(node) == "model":
                return True
        return None

    def exported(self, call) -> bool | None:
        """Whether an export traces the call: True in ``forward`` and the methods it reaches through ``self.``
        (called or passed on, as to ``checkpoint(self._forward, x)``), and in ``__init__`` and what it reaches
        (the modules built there are the ones ``forward`` runs); False in the class's other methods and
        in loss modules (``losses/``, ``*loss*.py``: a loss is trained with the model, not exported with it);
        None outside a model class or when the class has no ``forward`` here (a mixin)::

            class VQ(nn.Module):
                def forward(self, x): return self.decode(x)      # forward, decode: exported
                def get_input(self, batch): ...                  # get_input: not exported
        """
        method = cls = None
        for node in self.ancestors(call):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                method = node
            elif isinstance(node, ast.ClassDef):
                cls = node
                break
        if cls is None or method is None or not self.is_model_class(cls):
            return None
        if _LOSS_MODULE.search(self.path):
            return False
        if cls not in self._reached:
            self._reached[cls] = _reached_from_forward(cls)
        reached = self._reached[cls]
        return None if reached is None else method.name in reached

    def differentiates(self, call) -> bool:
        """True in code that shows it computes gradients: ``torch.enable_grad()``, ``.backward()``, autograd.grad."""
        functions = self.model_functions()
        for node in self.ancestors(call):
            if functions.get(node) == "grad":
                return True
            if isinstance(node, (ast.With, ast.AsyncWith)):
                if any(self.qualify(i.context_expr.func if isinstance(i.context_expr, ast.Call) else i.context_expr,
                                    node) in apis.ENABLE_GRAD + apis.GRADIENT_TAPES for i in node.items):
                    return True
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for deco in node.decorator_list:
                    if self.qualify(deco.func if isinstance(deco, ast.Call) else deco, node) in apis.ENABLE_GRAD:
                        return True
                if self.segment_says(node, r"\.backward\s*\(|autograd\.grad\s*\("):
                    return True
        return False

    def from_targets(self, call: ast.Call, api: apis.Api, bound) -> str | None:
        """The ground-truth parameter (``gt_masks``, ``y_true``, ``targets``) the call's input is computed from,
        when it is computed from nothing else in its function (followed through the function's assignments):
        a resize of training targets carries no gradient."""
        parent = self.parent.get(call)
        data = api.input or (api.params[0] if api.params else None)
        if data in (*api.size_params, api.scale_param, "size", "shape", "height", "width", "scale_factor"):
            data = None  # a class whose first parameter is the output size (nn.Upsample, Resizing)
        if isinstance(parent, ast.Call) and parent.func is call and parent.args:
            expr = parent.args[0]  # a layer object applied where it is built: ``Resizing(h, w)(masks)``
        elif data and bound.get(data):
            expr = bound[data][0][0]
        else:
            expr = None
        funcs = self.functions(call)
        if expr is None or not funcs or isinstance(funcs[0], ast.Lambda):
            return None
        func = funcs[0]
        params, assigns = self.params(func), self.function_assigns(func)
        where = (call.lineno, call.col_offset, call.end_lineno, call.end_col_offset)
        reached, seen, stack, loaders = set(), set(), [(expr, 0)], set()
        while stack:
            node, depth = stack.pop()
            if depth > MAX_DEPTH:
                return None
            for name in _data_flow(node):
                if isinstance(name, ast.Name) and _LOADER_NAME.search(name.id) and name.id not in seen:
                    loaders.add(name.id)  # iterated from a data loader: a batch of data
                    seen.add(name.id)
                    continue
                if isinstance(name, ast.Attribute) and isinstance(name.value, ast.Name) and name.value.id == "self":
                    return None  # a module's own state (weights) may carry gradients
                if not isinstance(name, ast.Name) or name.id in seen or name.id in ("self", "cls"):
                    continue
                seen.add(name.id)
                if name.id in assigns:
                    for value, stmt in assigns[name.id]:
                        loop = isinstance(stmt, (ast.For, ast.AsyncFor)) and _contains(stmt, where)
                        if not loop and not _before(stmt, call):
                            continue  # the call's own result, or set after it (`imgs = interpolate(imgs, ...)`)
                        if value is None and isinstance(stmt, (ast.For, ast.AsyncFor)):
                            value = stmt.iter
                        elif value is None and isinstance(stmt, ast.Assign) and _TARGET_NAME.search(name.id):
                            reached.add(name.id)  # unpacked by its name: `preds, target = inputs` (a loss's forward)
                            continue
                        elif value is None and isinstance(stmt, ast.Assign):
                            value = stmt.value  # unpacked: `x, y = data`
                        if value is None:
                            return None
                        stack.append((value, depth + 1))
                elif name.id in params:
                    reached.add(name.id)
                elif name.id not in self.imports and name.id not in _BUILTINS:
                    return None  # a global or closure value the linter does not follow
        batch = set()
        if getattr(func, "name", None) in _STEP_METHODS and self.enclosing_class(func) is not None:
            names = [a.arg for a in func.args.posonlyargs + func.args.args]
            batch = set(names[1:2])  # Keras's train_step(self, data): the batch, read from the dataset
        if reached and all(_TARGET_NAME.search(p) or p in batch for p in reached):
            return ", ".join(sorted(reached | loaders))
        if loaders and not reached:
            return ", ".join(sorted(loaders))
        return None

    def _transform_of(self, node, at) -> str | None:
        """'model' / 'grad' when ``node`` (a decorator or a callee) is a model or gradient transform, also
        through ``functools.partial(jax.grad, ...)``."""
        if isinstance(node, ast.Call):
            node = node.func if self.qualify(node.func, at) not in apis.PARTIAL or not node.args else node.args[0]
        name = self.qualify(node, at)
        if name in apis.MODEL_TRANSFORMS:
            return "model"
        if name in apis.GRADIENT_TRANSFORMS:
            return "grad"
        return None

    def model_functions(self) -> dict:
        """{function node: 'model' | 'grad'} for the functions the module shows are model code or differentiated:

        * 'model': a function that builds a Keras model from its layers (it calls ``keras.Model(inputs,
          outputs)`` or ``keras.Sequential``), a function Haiku transforms (``hk.transform(f)``, ``@hk.transform``);
        * 'grad': a function JAX, Equinox or Flax NNX differentiates (``jax.grad(loss_fn)``,
          ``jax.value_and_grad``, ``@jax.grad``);

        and, one level, the module's functions that those, or the methods of its model classes, call by name
        (a ``conv_block(x)`` helper of a Keras builder, a ``_resize`` helper of a Flax module's ``__call__``)."""
        if self._model_functions is not None:
            return self._model_functions
        found: dict = {}
        defs: dict[str, list] = {}
        owners: list = []  # (function, kind) whose calls make their callees model code
        if not any(word in self.text for word in _MODEL_WORDS):
            self._model_functions = found
            return found
        for node in ast.walk(self.tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                defs.setdefault(node.name, []).append(node)
                for deco in node.decorator_list:
                    kind = self._transform_of(deco, node)
                    if kind:
                        found.setdefault(node, kind)
            elif isinstance(node, ast.ClassDef) and self.is_model_class(node):
                owners.extend((m, "model") for m in node.body if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)))
            elif isinstance(node, ast.Call):
                last = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)
                if last not in _transform_names():
                    continue
                name = self.qualify(node.func, node)
                if name in apis.MODEL_CONSTRUCTORS:
                    funcs = self.functions(node)
                    if funcs and not isinstance(funcs[0], ast.Lambda):
                        found.setdefault(funcs[0], "model")
                    continue
                kind = self._transform_of(node.func, node) if node.args else None
                if kind:
                    target = node.args[0]
                    if isinstance(target, ast.Call) and self.qualify(target.func, node) in apis.PARTIAL \
                            and target.args:
                        target = target.args[0]
                    if isinstance(target, ast.Lambda):
                        found.setdefault(target, kind)
                    elif isinstance(target, ast.Name):
                        found.setdefault(("name", target.id), kind)
        for key in [k for k in found if isinstance(k, tuple)]:
            kind = found.pop(key)
            for func in defs.get(key[1], ()):
                found.setdefault(func, kind)
        owners.extend(found.items())
        for owner, kind in owners:  # one level: the module's functions they call by name
            for node in ast.walk(owner):
                if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in defs:
                    for func in defs[node.func.id]:
                        if func is not owner:
                            found.setdefault(func, kind)
        self._model_functions = found
        return found

    def model_calls(self, names) -> list[tuple[str, str, str]]:
        """[(qualified callee, its last name, 'model' | 'grad')] for calls of ``names`` (functions of other
        modules of the project) in this module's model code or differentiated code."""
        functions = self.model_functions()
        out = []
        for node in ast.walk(self.tree):
            if not isinstance(node, ast.Call):
                continue
            last = node.func.id if isinstance(node.func, ast.Name) else (
                node.func.attr if isinstance(node.func, ast.Attribute) else None)
            if last not in names:
                continue
            qualified = self.qualify(node.func, node)
            if not qualified:
                continue
            kind = None
            for a in self.ancestors(node):
                if functions.get(a) == "grad" or (isinstance(a, (ast.With, ast.AsyncWith)) and any(
                        self.qualify(i.context_expr.func if isinstance(i.context_expr, ast.Call) else
                                     i.context_expr, a) in apis.GRADIENT_TAPES for i in a.items)):
                    kind = "grad"
                    break
                if functions.get(a) == "model" or (isinstance(a, ast.ClassDef) and self.is_model_class(a)):
                    kind = kind or "model"
            if kind:
                here = module_name(self.path)
                out.append((_absolute(qualified, here, self.path.replace("\\", "/").endswith("__init__.py")),
                            last, kind))
        return out

    def segment_says(self, node, pattern: str) -> bool:
        """Whether the source lines of a class or function match ``pattern`` (each node's text searched once)."""
        key = (node, pattern)
        if key not in self._segment_matches:
            segment = "\n".join(self.lines[node.lineno - 1:node.end_lineno])
            self._segment_matches[key] = re.search(pattern, segment) is not None
        return self._segment_matches[key]

    def block_facts(self, node, field_name):
        """({id(statement): its index}, (index, test) of the first ``if <device test>: ... return`` without an
        else) of one block of statements, computed once per block."""
        key = (node, field_name)
        if key not in self._blocks:
            block = getattr(node, field_name, None)
            if not isinstance(block, list):
                self._blocks[key] = None
            else:
                guard = None
                for k, stmt in enumerate(block):
                    test = _device_test(stmt.test) if isinstance(stmt, ast.If) and not stmt.orelse else None
                    if test is not None and stmt.body and isinstance(
                            stmt.body[-1], (ast.Return, ast.Raise, ast.Continue, ast.Break)):
                        guard = (k, test)
                        break
                self._blocks[key] = ({id(stmt): k for k, stmt in enumerate(block)}, guard)
        return self._blocks[key]

    def is_model_class(self, cls, depth: int = 0) -> bool:
        if depth > MAX_DEPTH:
            return False
        for base in cls.bases:
            qualified = self.qualify(base, cls) or ""
            last = qualified.rsplit(".", 1)[-1] or (base.id if isinstance(base, ast.Name) else
                                                    base.attr if isinstance(base, ast.Attribute) else "")
            if qualified.startswith(apis.MODEL_BASE_PREFIXES) or last in apis.MODEL_BASE_NAMES:
                return True
            if isinstance(base, ast.Name) and base.id in self.classes and self.classes[base.id] is not cls \
                    and self.is_model_class(self.classes[base.id], depth + 1):
                return True
        return False

    def device_guard(self, call) -> dict:
        """{"not_on": devices} / {"only_on": devices} when ``if x.device.type == "mps":`` decides the call: it is
        in the branch, in the other branch, or after a branch that returns."""
        child = call
        for node in self.ancestors(call):
            test = _device_test(node.test) if isinstance(node, ast.If) else None
            if test is not None:
                device, equal = test
                in_body = id(child) in self.block_facts(node, "body")[0]
                return {"only_on": (device,)} if in_body == equal else {"not_on": (device,)}
            for field_name in ("body", "orelse", "finalbody"):
                facts = self.block_facts(node, field_name)
                if facts is None or id(child) not in facts[0]:
                    continue
                guard = facts[1]
                if guard is not None and guard[0] < facts[0][id(child)]:
                    device, equal = guard[1]
                    return {"not_on": (device,)} if equal else {"only_on": (device,)}
            child = node
        return {}

    # ---------------------------------------------------------------------------------------- ONNX nodes
    def onnx_site(self, call: ast.Call, index: int) -> Site | None:
        op = call.args[index] if len(call.args) > index else next(
            (kw.value for kw in call.keywords if kw.arg == "op_type"), None)
        if op is None:
            return None
        op_type = self.evaluate(op, call)
        if not any(v in apis.ONNX_RESIZE_OPS for v in op_type.values):
            return None
        attrs = {}
        for kw in call.keywords:
            if kw.arg:
                attrs[kw.arg] = self.evaluate(kw.value, call)
        mode = attrs.get("mode", Arg.known("nearest", "api-default"))
        mode = Arg(tuple(v.decode() if isinstance(v, bytes) else v for v in mode.values), mode.how, mode.detail)
        extra = {}
        for key in ("coordinate_transformation_mode", "nearest_mode", "cubic_coeff_a", "exclude_outside"):
            if key in attrs:
                value = attrs[key]
                if not value.certain:
                    extra[key] = None
                    continue
                v = value.value
                extra[key] = v.decode() if isinstance(v, bytes) else v
        antialias = attrs.get("antialias", Arg.known(0, "api-default"))
        antialias = Arg(tuple(bool(v) for v in antialias.values), antialias.how, antialias.detail)
        line, column = self.position(call)
        return Site(path=self.path, line=line, column=column, end_line=call.end_lineno, library="onnx",
                    api="onnx.helper.make_node:Resize", mode=mode,
                    align_corners=Arg.known(extra.get("coordinate_transformation_mode") == "align_corners", "literal"),
                    antialias=antialias, rank=Arg.unknown("the input's rank"), runs="model", kind="node",
                    in_model=None,
                    snippet=self.snippet(line), extra=extra)

    # ------------------------------------------------------------------------------------------- places
    def position(self, call: ast.Call) -> tuple[int, int]:
        """(line, column), 1-based, of the called name: for ``a(...)\\n.resize(...)`` the line of ``resize``.
        The column counts characters (ast counts UTF-8 bytes)."""
        func = call.func
        if isinstance(func, ast.Attribute) and func.end_lineno is not None:
            line, byte = func.end_lineno, func.end_col_offset - len(func.attr.encode("utf-8"))
        else:
            line, byte = call.lineno, call.col_offset
        return line, self.char_column(line, byte) + 1

    def snippet(self, line: int) -> str:
        return snippet_of(self.lines[line - 1]) if 0 < line <= len(self.lines) else ""
