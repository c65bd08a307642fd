"""JupyterHub for a class on one machine: each student logs in with the class password and gets their own Jupyter
server, opened on the explorer (Voila) with JupyterLab one click away.

    pip install -e '.[lab,hub]' && npm install -g configurable-http-proxy
    EXPLORER_HUB_PASSWORD='a class password' jupyterhub -f deploy/jupyterhub_config.py

Then students open http://HOST:8000 (``EXPLORER_HUB_URL``; the default listens on 127.0.0.1 only: set
``EXPLORER_HUB_URL=http://0.0.0.0:8000`` for a classroom network, and put TLS in front of it or set
``c.JupyterHub.ssl_cert``/``ssl_key``).  What this file chooses, each overridable on the command line:

* **Log-in**: JupyterHub's ``SharedPasswordAuthenticator``: any name with the class password
  (``EXPLORER_HUB_PASSWORD``, at least 8 characters), which suits a lab session.  A course with accounts uses
  another authenticator (OAuth through ``oauthenticator``, an LMS through ``ltiauthenticator``).
* **Servers**: ``SimpleLocalProcessSpawner``: every student's server is a process of the hub's own user with its
  own home folder (``EXPLORER_HUB_HOMES/<name>``, default ``/tmp/<name>``), holding a copy of the notebooks made
  at the first start.  Students are not isolated from one another (same Unix user): for that, use system users
  (``LocalProcessSpawner`` with PAM, e.g. The Littlest JupyterHub) or one container per student (Zero to
  JupyterHub, ``deploy/z2jh/``).
* **Memory and CPU**: each student's server reads ``deploy/jupyter_server_config.py`` (kernels of closed pages
  culled after 10 minutes; explorers prepare only the tabs they have shown); at most ``EXPLORER_HUB_MAX_SERVERS``
  servers run at once (default 40), at most 10 start at the same moment; a server nobody has used for an hour is
  stopped by jupyterhub-idle-culler (``EXPLORER_HUB_IDLE_TIMEOUT`` seconds) when it is installed.
* **State** (user database, cookie secret, proxy pid): in ``EXPLORER_HUB_STATE`` (default: the current folder).

``python -m pytest tests/test_jupyterhub.py`` starts this hub on local ports with two students.
"""

import importlib.util
import os
import shutil
import sys
from pathlib import Path

c = get_config()  # noqa: F821 - defined by the configuration loader

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
NOTEBOOKS = REPO / "notebooks"
STATE = Path(os.environ.get("EXPLORER_HUB_STATE") or os.getcwd())
BIN = Path(sys.executable).parent  # the hub's environment holds the explorer's: jupyterhub-singleuser runs from it


def _number(name: str, default: int) -> int:
    text = os.environ.get(name, "")
    try:
        return int(text) if text.strip() else default
    except ValueError:
        raise ValueError(f"{name}={text!r} is not a whole number (default {default})") from None


# ---------------------------------------------------------------------------------------------- the hub
c.JupyterHub.bind_url = os.environ.get("EXPLORER_HUB_URL", "http://127.0.0.1:8000")
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")
if os.environ.get("EXPLORER_HUB_PROXY"):  # configurable-http-proxy when it is not on PATH (npm install --prefix)
    c.ConfigurableHTTPProxy.command = [os.environ["EXPLORER_HUB_PROXY"]]
c.JupyterHub.active_server_limit = _number("EXPLORER_HUB_MAX_SERVERS", 40)
c.JupyterHub.concurrent_spawn_limit = 10

# ---------------------------------------------------------------------------------------------- log-in
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = os.environ.get("EXPLORER_HUB_PASSWORD") or None
c.Authenticator.allow_all = True  # anyone with the class password, under any name

# ---------------------------------------------------------------------------------------------- servers
c.JupyterHub.spawner_class = "simple"  # jupyterhub.spawner.SimpleLocalProcessSpawner
c.SimpleLocalProcessSpawner.home_dir_template = str(Path(os.environ.get("EXPLORER_HUB_HOMES", "/tmp")) / "{username}")
c.Spawner.cmd = [str(BIN / "jupyterhub-singleuser")]
c.Spawner.args = [f"--config={HERE / 'jupyter_server_config.py'}"]
c.Spawner.default_url = "/voila/render/explorer.ipynb"  # the explorer first; /lab for the notebooks
c.Spawner.environment = {"EXPLORER_PREPARE_HIDDEN": "opened"}
c.Spawner.start_timeout = 120  # a busy machine starting ten servers at once
c.Spawner.http_timeout = 120


def copy_notebooks(spawner):
    """Give a student their own copy of the notebooks at their server's first start (later edits are kept)."""
    home = Path(getattr(spawner, "home_dir", "") or Path("~" + spawner.user.name).expanduser())
    home.mkdir(parents=True, exist_ok=True)
    for notebook in sorted(NOTEBOOKS.glob("*.ipynb")):
        if not (home / notebook.name).exists():
            shutil.copy(notebook, home / notebook.name)


c.Spawner.pre_spawn_hook = copy_notebooks

# ---------------------------------------------------------------------------------------------- idle servers
if importlib.util.find_spec("jupyterhub_idle_culler") is not None:
    c.JupyterHub.services = [{
        "name": "idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler",
                    f"--timeout={_number('EXPLORER_HUB_IDLE_TIMEOUT', 3600)}", "--cull-every=300"],
    }]
    c.JupyterHub.load_roles = [{
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }]
