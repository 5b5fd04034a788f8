"""docs/hosting.md's nginx lines that bound a flood of websocket openings at the
proxy (try-out of stop 52: a refused opening still cost rollem the upgrade's
parse), for real in Debian's nginx: the site recipe with the ``limit_req`` /
``limit_conn`` recipes added, as the docs say. One address's upgrade attempts
to ``/ws/<id>`` pass nginx 64 at once and are answered 429 by nginx after that
(nothing listens upstream here: a passed attempt is nginx's 502); any other
path is not limited."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import httpx
import pytest
from test_proxy_browser import recipe, stop
from web_harness import free_port, wait_port

UPGRADE = {"Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
           "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}


def test_nginx_refuses_a_flood_of_websocket_openings(tmp_path: Path) -> None:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        pytest.skip("Debian's nginx is not installed (scripts/test.sh installs it)")
    app_port, web_port = free_port(), free_port()  # (nothing listens on app_port)
    site = recipe("nginx-site")
    assert "    location / {" in site
    site = (site.replace("    location / {", recipe("nginx-limit-ws") + "    location / {")
            .replace("listen 80;", f"listen 127.0.0.1:{web_port};")
            .replace("127.0.0.1:8000", f"127.0.0.1:{app_port}"))
    for folder in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (tmp_path / folder).mkdir()
    (tmp_path / "nginx.conf").write_text(f"""worker_processes 1;
error_log {tmp_path}/error.log;
pid {tmp_path}/nginx.pid;
events {{}}
http {{
    access_log off;
    client_body_temp_path {tmp_path}/body;
    proxy_temp_path {tmp_path}/proxy;
    fastcgi_temp_path {tmp_path}/fastcgi;
    uwsgi_temp_path {tmp_path}/uwsgi;
    scgi_temp_path {tmp_path}/scgi;
{recipe("nginx-limit-zones")}
{site}
}}
""")
    proc = subprocess.Popen([nginx, "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path),
                             "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_port(web_port)
        base = f"http://127.0.0.1:{web_port}"
        with httpx.Client(timeout=10) as client:
            codes = [client.get(f"{base}/ws/t{i}", headers=UPGRADE).status_code
                     for i in range(200)]
            other = [client.get(f"{base}/api/tables").status_code for _ in range(80)]
        # the burst of 64 passes (to nothing: 502), then nginx refuses; the one a
        # second refilled while the loop ran may let a few more through
        assert codes[:64] == [502] * 64
        assert set(codes) == {502, 429}
        assert codes.count(429) >= 100, codes
        assert 429 not in other  # (only the websocket path is limited)
    finally:
        stop(proc)
