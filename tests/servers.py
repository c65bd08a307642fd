"""Start and stop JupyterLab and Voila for the browser tests.

Each server runs on 127.0.0.1 with a random free port and a random token, in its own process group, with
every Jupyter directory (config, data, runtime, settings, workspaces, IPython) inside a temporary folder, so
a test never reads or writes the user's Jupyter state.  Kernels inherit the environment, including a
``PYTHONPATH`` that puts the repository root first, so they import this checkout's ``explorer``.

>>> with jupyter_lab(notebooks) as server:          # doctest: +SKIP
...     page.goto(server.url("lab/tree/explorer.ipynb"))
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# JupyterLab user settings written before the server starts (see the recipe: no toasts, no news, no update
# checks, and every cell rendered even when off screen).
LAB_SETTINGS = {
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings":
        {"fetchNews": "false", "checkForUpdates": False, "doNotDisturbMode": True},
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
}


@dataclass
class Server:
    """A running server: where it is, how to reach it, and its log."""

    kind: str
    port: int
    token: str
    root: Path
    process: subprocess.Popen
    log_path: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def url(self, path: str = "") -> str:
        sep = "&" if "?" in path else "?"
        return f"{self.base}/{path.lstrip('/')}{sep}token={self.token}"

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def isolated_env(home: Path) -> dict:
    """The environment of a server and its kernels: private Jupyter dirs, this checkout on the path."""
    env = dict(os.environ)
    for name, sub in [("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                      ("JUPYTER_RUNTIME_DIR", "runtime"), ("JUPYTERLAB_SETTINGS_DIR", "lab-settings"),
                      ("JUPYTERLAB_WORKSPACES_DIR", "lab-workspaces"), ("IPYTHONDIR", "ipython")]:
        path = home / sub
        path.mkdir(parents=True, exist_ok=True)
        env[name] = str(path)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO)] + [p for p in [env.get("PYTHONPATH")] if p])
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    env.pop("JUPYTER_PATH", None)
    env.pop("MPLBACKEND", None)  # a test runner's Agg must not reach the kernels
    return env


def _write_lab_settings(settings_dir: Path):
    for rel, content in LAB_SETTINGS.items():
        path = settings_dir / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(content))


def _ready(url: str, any_answer: bool) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except urllib.error.HTTPError:
        return any_answer  # Voila answers 403/404 for a missing static file: it is up
    except (urllib.error.URLError, ConnectionError, OSError):
        return False


def _stop(process: subprocess.Popen):
    """SIGTERM the server (it shuts its kernels down), then SIGKILL whatever is left in its own group."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            pass
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(5)


@contextlib.contextmanager
def _serve(kind: str, notebooks: list[Path], timeout: float = 60.0, keep_log: Path | None = None,
           args: tuple = (), config: Path | None = None):
    home = Path(tempfile.mkdtemp(prefix=f"explorer-{kind}-"))
    root = home / "nb"
    root.mkdir()
    for nb in notebooks:
        shutil.copy(nb, root / Path(nb).name)  # the server may write outputs or checkpoints: never the repo
    env = isolated_env(home)
    port, token = free_port(), secrets.token_hex(16)
    if kind == "lab":
        _write_lab_settings(Path(env["JUPYTERLAB_SETTINGS_DIR"]))
        cmd = [sys.executable, "-m", "jupyterlab", f"--port={port}", "--ServerApp.port_retries=0",
               "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
               "--ServerApp.open_browser=False", "--ServerApp.allow_root=True", f"--ServerApp.root_dir={root}",
               "--LabApp.news_url=None", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
               "--LabApp.extension_manager=readonly", "--LabApp.expose_app_in_browser=True"]
        if config is not None:
            cmd.append(f"--config={config}")
        probe, any_answer = f"http://127.0.0.1:{port}/api/status?token={token}", False
    elif kind == "voila":
        name = Path(notebooks[0]).name
        cmd = [sys.executable, "-m", "voila", name, f"--port={port}", "--no-browser", "--Voila.ip=127.0.0.1",
               f"--token={token}", f"--Voila.root_dir={root}"]
        if config is not None:  # the folder holding voila.py (Voila reads no --config file)
            cmd.append(f"--Voila.config_file_paths={config}")
        # any HTTP answer means "up"; asking for the page itself would execute the notebook
        probe, any_answer = f"http://127.0.0.1:{port}/voila/static/no-such-file-{token[:6]}.js", True
    else:
        raise ValueError(f"unknown server kind {kind!r}")
    cmd += list(args)
    log_path = home / f"{kind}.log"
    log = open(log_path, "wb")
    process = subprocess.Popen(cmd, cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT,
                               stdin=subprocess.DEVNULL, start_new_session=True)
    server = Server(kind, port, token, root, process, log_path)
    try:
        deadline = time.monotonic() + timeout
        while not _ready(probe, any_answer):
            if process.poll() is not None:
                raise RuntimeError(f"{kind} exited with code {process.returncode}:\n{server.log()[-4000:]}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"{kind} did not answer within {timeout:.0f} s:\n{server.log()[-4000:]}")
            time.sleep(0.2)
        yield server
    finally:
        _stop(process)
        log.close()
        if keep_log is not None:
            with contextlib.suppress(OSError):
                keep_log.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(log_path, keep_log)
        shutil.rmtree(home, ignore_errors=True)


def jupyter_lab(*notebooks: Path, timeout: float = 60.0, keep_log: Path | None = None, args: tuple = (),
                config: Path | None = None):
    """``with jupyter_lab(path, ...) as server``: JupyterLab serving copies of the given notebooks.

    ``keep_log``: where to copy the server's log when it stops (the temporary folder is removed); ``config``: a
    Jupyter server configuration file (``deploy/jupyter_server_config.py``); ``args``: more command-line options
    (they win over the file's)."""
    return _serve("lab", list(notebooks), timeout, keep_log, args, config)


def voila(notebook: Path, timeout: float = 60.0, keep_log: Path | None = None, args: tuple = (),
          config: Path | None = None):
    """``with voila(path) as server``: Voila serving a copy of one notebook at ``server.url()``.

    ``config``: the folder of a ``voila.py`` (``deploy/``, the classroom configuration); ``args``: more
    command-line options, which win over the file's (``--MappingKernelManager.cull_idle_timeout=20``)."""
    return _serve("voila", [notebook], timeout, keep_log, args, config)
