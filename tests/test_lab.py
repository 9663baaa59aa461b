"""make lab: JupyterLab with jupytext opens notebooks/<slug>.py as a notebook and saves it back to the .py.

The pairing is ``jupytext.toml`` at the repository root. The server test needs the optional ``lab`` group
(``make lab`` installs it; ``.ci/run`` does too, so CI runs it); without it the test is skipped, and says so.
"""

from __future__ import annotations

import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest

from repro import pipeline

ROOT = pipeline.ROOT
SLUG = "sampled-softmax-bias"


def test_jupytext_pairs_the_sources_as_percent_notebooks_without_an_ipynb():
    config = tomllib.loads((ROOT / "jupytext.toml").read_text())
    assert config["formats"] == "py:percent", "a source is its own notebook: no .ipynb beside it"
    assert "kernelspec" in config["notebook_metadata_filter"]
    assert "jupytext_version" in config["notebook_metadata_filter"], "saving must not stamp jupytext's version"


def test_make_lab_installs_the_optional_group_and_starts_jupyterlab_on_the_sources():
    makefile = (ROOT / "Makefile").read_text()
    assert "lab:" in makefile and '".[lab]"' in makefile
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert any(d.startswith("jupyterlab==") for d in pyproject["project"]["optional-dependencies"]["lab"])
    assert not any(d.startswith("jupyterlab") for d in pyproject["project"]["dependencies"]), "make book/test need no lab"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=5) as r:  # noqa: S310 - loopback only
        return json.loads(r.read())


def test_the_server_starts_headless_lists_and_opens_a_source_as_a_notebook_and_saves_it_back(tmp_path):
    jupyter = Path(sys.executable).with_name("jupyter")
    if not (jupyter.exists() and shutil.which("jupyter-lab", path=str(jupyter.parent))):
        if os.environ.get("REPRO_REQUIRE_LAB"):
            pytest.fail("the lab group is not installed (make lab-install)")
        pytest.skip("JupyterLab is not installed (the optional group: make lab)")
    shutil.copy(ROOT / "jupytext.toml", tmp_path / "jupytext.toml")
    (tmp_path / "notebooks").mkdir()
    source = tmp_path / "notebooks" / f"{SLUG}.py"
    shutil.copy(ROOT / "notebooks" / f"{SLUG}.py", source)
    token = "repro-test"
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"), "JUPYTER_CONFIG_DIR": str(tmp_path / "cfg")}
    # a port found free can be taken before the server binds it (another test's Dask cluster, say: then a binary
    # protocol answers); the server is told not to move to another port, and a lost race starts over on a new one
    for _attempt in range(3):
        port = _free_port()
        cmd = [str(jupyter), "lab", "--no-browser", f"--port={port}", "--ServerApp.port_retries=0",
               "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={tmp_path}",
               "--ServerApp.open_browser=False"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            cmd.append("--allow-root")
        server = subprocess.Popen(cmd, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  text=True)
        base = f"http://127.0.0.1:{port}/api/contents"
        listing, lost_port = None, False
        for _ in range(120):
            try:
                listing = _get(f"{base}/notebooks?token={token}")
                break
            except http.client.HTTPException:  # something else answers on this port
                lost_port = True
                break
            except OSError:
                if server.poll() is not None:
                    err = server.stderr.read()
                    lost_port = "already in use" in err or "no available port" in err
                    if not lost_port:
                        pytest.fail(f"jupyter lab exited: {err[-2000:]}")
                    break
                time.sleep(0.5)
        if listing is not None:
            break
        _stop(server)
        if not lost_port:
            pytest.fail("jupyter lab did not answer within 60 s")
    else:
        pytest.fail("three ports in a row were taken before jupyter lab could bind them")
    try:
        names = {c["name"]: c["type"] for c in listing["content"]}
        assert names.get(f"{SLUG}.py") == "notebook", f"the source is not listed as a notebook: {names}"
        model = _get(f"{base}/notebooks/{SLUG}.py?type=notebook&token={token}")
        cells = model["content"]["cells"]
        assert any("parameters" in c["metadata"].get("tags", []) for c in cells)
        before = source.read_text()
        body = json.dumps({"type": "notebook", "format": "json", "content": model["content"]}).encode()
        request = urllib.request.Request(f"{base}/notebooks/{SLUG}.py?token={token}", data=body, method="PUT",
                                         headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request, timeout=10).read()  # noqa: S310 - loopback only
        assert source.read_text() == before, "saving from the notebook view must write the same .py back"
        assert not list((tmp_path / "notebooks").glob("*.ipynb")), "no .ipynb is written beside the source"
    finally:
        _stop(server)


def _stop(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=15)
    except subprocess.TimeoutExpired:
        server.kill()
