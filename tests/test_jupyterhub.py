"""JupyterHub with the shipped configuration (deploy/jupyterhub_config.py) and two students, on local ports only:
the class password lets a student in and a wrong one does not, each student gets their own server that opens the
explorer in Voila on their own kernel (with the classroom settings), and stopping a server ends its processes.

Needs JupyterHub (``pip install -e '.[browser]'``) and configurable-http-proxy (npm; ``.ci/run`` installs it, or
set ``EXPLORER_HUB_PROXY`` to its path).
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
import servers

pytest.importorskip("jupyterhub", reason="JupyterHub is not installed (pip install -e '.[browser]')")
psutil = pytest.importorskip("psutil")

REPO = Path(__file__).resolve().parents[1]
CONFIG = REPO / "deploy" / "jupyterhub_config.py"
PASSWORD = "class-password-" + secrets.token_hex(4)
STUDENTS = ("alice", "bob")

TEST_CONFIG = """
import os
c = get_config()
load_subconfig({config!r})
c.JupyterHub.services.append({{"name": "classroom-test", "api_token": os.environ["HUB_TEST_TOKEN"]}})
c.JupyterHub.load_roles.append({{"name": "classroom-test", "services": ["classroom-test"],
    "scopes": ["admin:users", "admin:servers", "access:servers", "list:users", "read:users"]}})
if os.geteuid() == 0:  # CI runs as root; a Jupyter server refuses to unless told (a real hub runs as a user)
    c.Spawner.args.append("--ServerApp.allow_root=True")
"""


def proxy_command() -> str | None:
    return os.environ.get("EXPLORER_HUB_PROXY") or shutil.which("configurable-http-proxy")


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Hub:
    def __init__(self, base: str, token: str, process, log_path: Path):
        self.base, self.token, self.process, self.log_path = base, token, process, log_path

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def api(self, method: str, path: str, body=None):
        request = urllib.request.Request(f"{self.base}/hub/api{path}", method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=60) as response:
            text = response.read().decode()
            return response.status, (json.loads(text) if text.strip() else None)

    def get(self, path: str, timeout: float = 300) -> tuple[int, str]:
        request = urllib.request.Request(f"{self.base}{path}", headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, response.read().decode(errors="replace")

    def login(self, name: str, password: str) -> int:
        """The log-in form, as a browser posts it: the status of the answer (302 when let in)."""
        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirect)
        with opener.open(f"{self.base}/hub/login", timeout=60) as response:
            page = response.read().decode()
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page)
        form = {"username": name, "password": password, **({"_xsrf": xsrf.group(1)} if xsrf else {})}
        try:
            with opener.open(f"{self.base}/hub/login", data=urllib.parse.urlencode(form).encode(), timeout=60) as r:
                return r.status
        except urllib.error.HTTPError as error:
            return error.code

    def wait_ready(self, name: str, timeout: float = 240) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            _, user = self.api("GET", f"/users/{name}")
            server = user.get("servers", {}).get("")
            if server and server.get("ready"):
                return server
            assert self.process.poll() is None, self.log()[-4000:]
            time.sleep(0.5)
        raise TimeoutError(f"{name}'s server did not start within {timeout:.0f} s:\n{self.log()[-4000:]}")


def _up(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, OSError):
        return False


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    proxy = proxy_command()
    if proxy is None:
        pytest.skip("configurable-http-proxy is not installed (npm install configurable-http-proxy; see .ci/run)")
    home = tmp_path_factory.mktemp("hub")
    (home / "homes").mkdir()
    config = home / "test_config.py"
    config.write_text(TEST_CONFIG.format(config=str(CONFIG)))
    token = secrets.token_hex(24)
    env = servers.isolated_env(home)
    env.update(EXPLORER_HUB_STATE=str(home), EXPLORER_HUB_HOMES=str(home / "homes"), EXPLORER_HUB_PASSWORD=PASSWORD,
               EXPLORER_HUB_PROXY=proxy, HUB_TEST_TOKEN=token)
    port, hub_port, api_port = servers.free_port(), servers.free_port(), servers.free_port()
    base = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "jupyterhub", "-f", str(config), f"--JupyterHub.bind_url={base}",
           f"--JupyterHub.hub_bind_url=http://127.0.0.1:{hub_port}",
           f"--ConfigurableHTTPProxy.api_url=http://127.0.0.1:{api_port}"]
    log_path = home / "hub.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(cmd, cwd=home, env=env, stdout=log, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, start_new_session=True)
        instance = Hub(base, token, process, log_path)
        try:
            deadline = time.monotonic() + 120
            while not _up(f"{base}/hub/api/"):
                assert process.poll() is None, instance.log()[-4000:]
                assert time.monotonic() < deadline, instance.log()[-4000:]
                time.sleep(0.3)
            yield instance
        finally:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)  # the hub stops the students' servers and its proxy
                with contextlib.suppress(subprocess.TimeoutExpired):
                    process.wait(30)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(10)


def _kernels(pid: int) -> list:
    try:
        children = psutil.Process(pid).children(recursive=True)
    except psutil.Error:
        return []
    return [p for p in children if "ipykernel_launcher" in " ".join(p.cmdline())]


def _alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_the_class_password_lets_students_in_and_a_wrong_one_does_not(hub):
    assert hub.login("alice", "not-the-password") == 403
    for name in STUDENTS:
        assert hub.login(name, PASSWORD) == 302, hub.log()[-3000:]
    _, users = hub.api("GET", "/users")
    assert {u["name"] for u in users} >= set(STUDENTS)


def test_each_student_gets_their_own_server_and_explorer_kernel_and_stopping_ends_them(hub):
    for name in STUDENTS:
        status, _ = hub.api("POST", f"/users/{name}/server")
        assert status in (201, 202), status
    found = {}
    for name in STUDENTS:
        server = hub.wait_ready(name)
        assert server["url"] == f"/user/{name}/"
        status, page = hub.get(f"/user/{name}/voila/render/explorer.ipynb")  # the server's default page
        assert status == 200 and "application/vnd.jupyter.widget-view+json" in page, page[-3000:]
        assert "Traceback" not in page, page[-3000:]
        kernels = json.loads(hub.get(f"/user/{name}/api/kernels")[1])
        assert len(kernels) == 1, kernels
        pid = server["state"]["pid"]
        (kernel,) = _kernels(pid)
        found[name] = (pid, kernel.pid)
        assert kernel.environ().get("EXPLORER_PREPARE_HIDDEN") == "opened"  # the classroom settings reached it
        assert Path(kernel.cwd()).name == name  # in the student's own home, with their copy of the notebooks
        rss = psutil.Process(pid).memory_info().rss + kernel.memory_info().rss
        print(f"{name}: server + explorer kernel {rss / 2**20:.0f} MiB")
    assert found["alice"][0] != found["bob"][0] and found["alice"][1] != found["bob"][1]
    log = hub.log()
    assert log.count("Culling kernels with idle durations > 600 seconds") >= 2, log[-4000:]  # the server config
    for name in STUDENTS:
        status, _ = hub.api("DELETE", f"/users/{name}/server")
        assert status in (202, 204), status
    deadline = time.monotonic() + 120
    while any(_alive(pid) for pair in found.values() for pid in pair):  # the servers and their kernels
        assert time.monotonic() < deadline, hub.log()[-4000:]
        time.sleep(0.5)
    for name in STUDENTS:
        _, user = hub.api("GET", f"/users/{name}")
        assert not user.get("servers"), user
