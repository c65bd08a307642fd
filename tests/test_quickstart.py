"""The README quick start works in a clean environment: a new virtual environment (no system site packages,
nothing inherited from the test runner), ``pip install -e '.[lab]'``, then the five-line API example, the two
commands' entry points, and the explorer notebook executed by that environment's own kernel.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

# The README's API example, verbatim.
API_SNIPPET = textwrap.dedent("""\
    import numpy as np, explorer
    x = np.random.rand(1, 3, 37, 53).astype(np.float32)
    y = explorer.interpolate(x, scale_factor=1.7, mode="bicubic")
    gx = explorer.interpolate_backward(np.ones_like(y), x.shape, scale_factor=1.7, mode="bicubic")
    """)

CHECK = textwrap.dedent("""\
    import sys, os
    assert y.shape == (1, 3, 62, 90), y.shape
    assert gx.shape == x.shape and gx.dtype == np.float32, (gx.shape, gx.dtype)
    assert abs(float(gx.sum()) - y.size) < 1e-2 * y.size   # each output spreads a total weight of one
    assert explorer.__file__.startswith(os.environ["REPO"]), explorer.__file__   # the editable checkout
    assert sys.prefix == os.environ["VENV"] and not sys.flags.no_site, sys.prefix
    print("quickstart ok", y.shape, gx.shape)
    """)

RUN_NOTEBOOK = textwrap.dedent("""\
    import nbformat, sys
    from nbclient import NotebookClient
    nb = nbformat.read(sys.argv[1], as_version=4)
    NotebookClient(nb, timeout=180, kernel_name="python3",
                   resources={"metadata": {"path": sys.argv[2]}}).execute()
    print("notebook ok")
    """)


def _clean_env(tmp: Path, venv: Path) -> dict:
    """Only what a new shell would have: no PYTHONPATH, no virtual environment, private Jupyter dirs."""
    keep = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "PIP_CONFIG_FILE", "PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL",
            "PIP_FIND_LINKS", "PIP_CONSTRAINT", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy",
            "https_proxy", "no_proxy", "SSL_CERT_FILE", "REQUESTS_CA_BUNDLE")
    env = {k: v for k, v in os.environ.items() if k in keep}
    env["PATH"] = os.pathsep.join([str(venv / "bin"), env.get("PATH", "/usr/bin:/bin")])
    env["VIRTUAL_ENV"] = str(venv)
    env["VENV"] = str(venv)
    env["REPO"] = str(REPO)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR", "IPYTHONDIR", "MPLCONFIGDIR"):
        (tmp / name.lower()).mkdir(exist_ok=True)
        env[name] = str(tmp / name.lower())
    return env


def _run(cmd, env, cwd, timeout):
    result = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, (f"{' '.join(map(str, cmd))} failed ({result.returncode}):\n"
                                    f"{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result.stdout


@pytest.mark.slow
def test_readme_quickstart_in_a_fresh_venv(tmp_path):
    base = getattr(sys, "_base_executable", None) or sys.executable
    venv = tmp_path / "venv"
    env = _clean_env(tmp_path, venv)
    started = time.monotonic()
    _run([base, "-m", "venv", str(venv)], env, tmp_path, 120)
    python = venv / "bin" / "python"
    cfg = (venv / "pyvenv.cfg").read_text()
    assert "include-system-site-packages = false" in cfg, cfg

    # the README's install command, from the repository root
    _run([python, "-m", "pip", "install", "-q", "-e", ".[lab]"], env, REPO, 600)

    out = _run([python, "-c", API_SNIPPET + CHECK], env, tmp_path, 120)
    assert "quickstart ok" in out

    # the two commands exist in this environment (JupyterLab, and Voila for the standalone page)
    _run([venv / "bin" / "jupyter", "lab", "--version"], env, tmp_path, 120)
    _run([venv / "bin" / "voila", "--version"], env, tmp_path, 120)

    # what `jupyter lab notebooks/explorer.ipynb` opens runs in this environment's own kernel
    out = _run([python, "-c", RUN_NOTEBOOK, REPO / "notebooks" / "explorer.ipynb", REPO / "notebooks"],
               env, tmp_path, 300)
    assert "notebook ok" in out
    print(f"fresh venv quick start: {time.monotonic() - started:.1f} s")
