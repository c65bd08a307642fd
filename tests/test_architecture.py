"""The package layout is the architecture: imports go one way, ui -> advisor -> conventions -> engine.

Every import in ``explorer/`` (module level and inside functions) is read with ``ast``; a module may import
from its own layer and the layers below it, never above, and never another module's underscore names.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "explorer"

# lower number = lower layer; a module imports only from layers <= its own
LAYERS = {
    "errors": 0, "validate": 0, "limits": 0, "versions": 0, "reading": 0,
    "engine": 1,
    "images": 2, "conventions": 2,
    "advisor": 3,
    "ui": 4,
    "probe": 4,
    "__init__": 5, "__main__": 5,
}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> int:
    parts = module.split(".")
    if parts == ["explorer"]:
        return LAYERS["__init__"]
    return LAYERS[parts[1]]


def _imports(path: Path):
    """(line, absolute module, imported names) of every import of an explorer module in ``path``."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(), str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target == "explorer" or target.startswith("explorer."):
                yield node.lineno, target, [a.name for a in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("explorer"):
                    yield node.lineno, alias.name, []


FILES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_belongs_to_a_layer():
    for path in FILES:
        _layer(_module_name(path))  # raises KeyError for a module outside LAYERS


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_go_one_way(path):
    module = _module_name(path)
    own = _layer(module)
    for line, target, names in _imports(path):
        if target == "explorer":  # `from .. import x` at the top: the layer of x
            for name in names:
                assert _layer(f"explorer.{name}") <= own, f"{module}:{line} imports explorer.{name} (a higher layer)"
            continue
        assert _layer(target) <= own, f"{module}:{line} imports {target}, a higher layer"


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_module_imports_another_modules_private_names(path):
    module = _module_name(path)
    for line, target, names in _imports(path):
        if target == module:
            continue
        private = [n for n in names if n.startswith("_")]
        assert not private, f"{module}:{line} imports private names {private} from {target}"


def test_the_checker_sees_a_violation(tmp_path):
    """The import reader is not vacuous: a module importing upward is reported."""
    path = PACKAGE / "engine" / "plan.py"
    assert any(t.startswith("explorer.engine") for _, t, _ in _imports(path))
    assert _layer("explorer.ui.app.app") > _layer("explorer.engine.plan")
