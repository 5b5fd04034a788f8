"""The hosting recipes of docs/hosting.md, for real (issue 13): ``rollem serve``
behind Debian's Caddy (HTTPS from Caddy's internal certificate authority,
the private-network block; HTTPS and WSS) and behind nginx with its default headers (Host
rewritten to the upstream's).  In each, a browser creates a table from the
public address, sits, and plays a hand against a computer player (on a phone's
screen behind Caddy, a desktop's behind nginx), its network dropped and back in
the middle (the websocket reopened through the proxy); the invite link shows the
public address.  The configurations are the ones in
docs/hosting.md, with the test's ports and folders filled in."""

from __future__ import annotations

import os
import re
import shutil
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from table_ui import DESKTOP, PHONE, create_via_form, sit, wait_until
from test_browser import shot, take_turn
from web_harness import ROOT, free_port, wait_port, wait_served

pytestmark = pytest.mark.browser

DOCS = ROOT / "docs" / "hosting.md"
CONN = "() => document.querySelector('#conn').innerText"


def recipe(name: str) -> str:
    """The fenced block after ``<!-- recipe: name -->`` in docs/hosting.md."""
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(rf"<!-- recipe: {name} -->\s*```\w*\n(.*?)```", text, re.S)
    assert found, f"docs/hosting.md has no recipe {name!r}"
    return found.group(1)


def serve(tmp: Path, port: int, public_url: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, ROLLEM_PORT=str(port), ROLLEM_DB=str(tmp / "club.db"),
               ROLLEM_PUBLIC_URL=public_url, ROLLEM_LOG_LEVEL="warning", ROLLEM_NO_NUMBA="1")
    proc = subprocess.Popen([sys.executable, "-m", "rollem", "serve"], env=env, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wait_served(port)
    return proc


def stop(*procs: subprocess.Popen[bytes]) -> None:
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def play_a_hand(browser: Any, base: str, name: str, viewport: dict[str, int],
                **context: Any) -> str:
    """Create a table at ``base``, sit, deal, play the hand out with the network
    dropped and back after the first decision (the websocket reopened through the
    proxy, the hand carried on); return the invite link."""
    ctx = browser.new_context(viewport=viewport, **context)
    try:
        page = ctx.new_page()
        create_via_form(page, base, "sdr", seats=2, stack=None)
        sit(page, "Ann")
        invite = page.input_value("#invite-link")
        page.click("#start-btn")
        deadline = time.time() + 60
        dropped = False
        while time.time() < deadline:
            if page.locator("#result:not(.hidden)").count():
                break
            if not take_turn(page, None):
                page.wait_for_timeout(80)
            elif not dropped:
                dropped = True
                ctx.set_offline(True)
                wait_until(page, CONN + " === 'reconnecting…'", timeout=15)
                ctx.set_offline(False)
                wait_until(page, CONN + " === 'connected'", timeout=30)
        else:
            shot(page, f"proxy-{name}-stuck")
            raise AssertionError(f"the hand did not finish behind {name}")
        assert dropped, f"no decision was made behind {name}"
        assert "Hand 1" in page.inner_text("#result")
        shot(page, f"proxy-{name}-result")
        return invite
    finally:
        ctx.close()


@pytest.fixture
def tmp(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path


def test_a_hand_through_caddy_over_https(browser: Any, tmp: Path) -> None:
    if shutil.which("caddy") is None:
        pytest.skip("Debian's caddy is not installed (scripts/test.sh installs it)")
    app_port, https_port, http_port = free_port(), free_port(), free_port()
    public = f"https://localhost:{https_port}"
    # The private-network block hosts copy (the LAN address made localhost on the
    # test's port), with the global options a test needs: its own ports and folder,
    # the machine's trust store left alone.
    site = recipe("caddy-lan")
    assert "https://192.168.1.23 {" in site and "127.0.0.1:8000" in site, site
    caddyfile = ("{\n\tadmin off\n\tlocal_certs\n\tskip_install_trust\n"
                 f"\thttp_port {http_port}\n\thttps_port {https_port}\n"
                 f"\tstorage file_system {tmp}\n}}\n"
                 + site.replace("https://192.168.1.23", public)
                 .replace("127.0.0.1:8000", f"127.0.0.1:{app_port}"))
    (tmp / "Caddyfile").write_text(caddyfile)
    app = serve(tmp, app_port, public)
    env = dict(os.environ, HOME=str(tmp), XDG_DATA_HOME=str(tmp), XDG_CONFIG_HOME=str(tmp))
    caddy = subprocess.Popen(["caddy", "run", "--config", str(tmp / "Caddyfile"),
                              "--adapter", "caddyfile"], env=env, cwd=tmp,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_port(https_port)
        root = tmp / "pki" / "authorities" / "local" / "root.crt"
        end = time.time() + 20
        while time.time() < end:  # Caddy issues its certificate in the background
            try:
                trust = _trusting(root) if root.exists() else False
                r = httpx.get(public + "/healthz", verify=trust)
                if r.status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        # The certificate chains to Caddy's own authority (checked, not ignored).
        assert httpx.get(public + "/healthz", verify=_trusting(root)).json()["ok"] is True
        invite = play_a_hand(browser, public, "caddy", PHONE, ignore_https_errors=True)
        assert invite.startswith(public + "/t/")
        # The cookies are Secure (HTTPS).
        r = httpx.post(public + "/api/tables", json={"game": "sdr"},
                       verify=_trusting(root))
        assert "secure" in r.headers["set-cookie"].lower()
    finally:
        stop(caddy, app)


def _trusting(root: Path) -> ssl.SSLContext:
    """A TLS context that trusts only the authority in ``root`` (Caddy's own)."""
    return ssl.create_default_context(cafile=str(root))


def test_a_hand_through_nginx(browser: Any, tmp: Path) -> None:
    if shutil.which("nginx") is None and not Path("/usr/sbin/nginx").exists():
        pytest.skip("Debian's nginx is not installed (scripts/test.sh installs it)")
    app_port, web_port = free_port(), free_port()
    public = f"http://127.0.0.1:{web_port}"
    site = (recipe("nginx-site").replace("listen 80;", f"listen 127.0.0.1:{web_port};")
            .replace("127.0.0.1:8000", f"127.0.0.1:{app_port}"))
    for folder in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp / folder).mkdir()
    conf = f"""worker_processes 1;
error_log {tmp}/error.log;
pid {tmp}/nginx.pid;
events {{}}
http {{
    access_log {tmp}/access.log;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
{site}
}}
"""
    (tmp / "nginx.conf").write_text(conf)
    app = serve(tmp, app_port, public)
    nginx = subprocess.Popen([shutil.which("nginx") or "/usr/sbin/nginx", "-c",
                              str(tmp / "nginx.conf"), "-p", str(tmp), "-g", "daemon off;"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_port(web_port)
        invite = play_a_hand(browser, public, "nginx", DESKTOP)
        assert invite.startswith(public + "/t/")
        # nginx passed the browser's address on; the app logged no refused websocket.
        assert " 101 " in (tmp / "access.log").read_text()
    finally:
        stop(nginx, app)
