"""A kds-sim container for a Python test suite: standard library only (docs/ci.md).

Copy this file into your tests: the npm package has it (node_modules/kds-sim/python/), and so
has each GitHub release, beside the tarball. It starts the image with `docker run` (or podman:
set KDS_ENGINE=podman), publishes the HTTP port and the screens' TCP ports on 127.0.0.1 with
ports the engine chooses, waits for /health, and gives the test the URLs, the ports and a reset.

    class KitchenTest(unittest.TestCase):
        @classmethod
        def setUpClass(cls):
            cls.kds = KdsSim.start()          # image: KDS_IMAGE or ghcr.io/kds-sim/kds-sim:0.1
            cls.addClassCleanup(cls.kds.stop)

        def setUp(self):
            self.kds.reset()                  # every test starts with empty screens

pytest users: wrap the same class in a fixture (`yield KdsSim.start()` then `.stop()`).
"""
import json
import os
import secrets
import subprocess
import time
import urllib.error
import urllib.request

# The published image of the release this file came with (docs/release.md); KDS_IMAGE or
# start(image=...) names another, e.g. one built from the Containerfile (kds-sim:latest).
DEFAULT_IMAGE = "ghcr.io/kds-sim/kds-sim:0.1"


class KdsSim:
    """One running simulator container."""

    def __init__(self, engine, container, token, admin_token, http_port, tcp_ports):
        self.engine = engine
        self.container = container
        self.token = token
        self.admin_token = admin_token
        self.url = f"http://127.0.0.1:{http_port}"
        # screen id -> the host port its TCP listener is published on
        self.tcp_ports = tcp_ports

    @classmethod
    def start(cls, image=None, screens=("kds-1", "kds-2"), first_tcp_port=9104, timeout=60):
        engine = os.environ.get("KDS_ENGINE", "docker")
        image = image or os.environ.get("KDS_IMAGE", DEFAULT_IMAGE)
        token = "pos-" + secrets.token_hex(8)
        admin_token = "admin-" + secrets.token_hex(8)
        container_ports = [first_tcp_port + i for i in range(len(screens))]
        args = [engine, "run", "-d", "--rm", "-p", "127.0.0.1::8104"]
        for port in container_ports:
            args += ["-p", f"127.0.0.1::{port}"]
        args += ["-e", f"KDS_TOKEN={token}", "-e", f"KDS_ADMIN_TOKEN={admin_token}"]
        args += [image]
        container = subprocess.run(args, check=True, capture_output=True, text=True).stdout.strip()
        try:
            http_port = cls._host_port(engine, container, 8104)
            tcp_ports = {
                screen: cls._host_port(engine, container, port)
                for screen, port in zip(screens, container_ports)
            }
            kds = cls(engine, container, token, admin_token, http_port, tcp_ports)
            kds._wait_healthy(timeout)
            return kds
        except BaseException:
            subprocess.run([engine, "rm", "-f", container], capture_output=True)
            raise

    @staticmethod
    def _host_port(engine, container, port):
        out = subprocess.run(
            [engine, "port", container, f"{port}/tcp"], check=True, capture_output=True, text=True
        ).stdout
        # "127.0.0.1:40123" (one line per binding)
        return int(out.strip().splitlines()[0].rsplit(":", 1)[1])

    def _wait_healthy(self, timeout):
        deadline = time.monotonic() + timeout
        last = None
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=2) as res:
                    if res.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, OSError) as err:
                last = err
            time.sleep(0.2)
        logs = subprocess.run(
            [self.engine, "logs", self.container], capture_output=True, text=True
        )
        raise RuntimeError(f"kds-sim not healthy after {timeout} s ({last}): {logs.stderr[-2000:]}")

    def request(self, method, path, body=None, headers=None, admin=False):
        """(status, parsed JSON body or text) of one HTTP request."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if body is not None:
            req.add_header("Content-Type", "application/json")
        if admin:
            req.add_header("x-admin-token", self.admin_token)
        for key, value in (headers or {}).items():
            req.add_header(key, value)
        try:
            with urllib.request.urlopen(req, timeout=10) as res:
                status, raw = res.status, res.read()
        except urllib.error.HTTPError as err:
            status, raw = err.code, err.read()
        text = raw.decode("utf-8")
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text

    def integrator_headers(self, location="loc-1", devices="kds-1"):
        return {
            "x-integration-token": self.token,
            "x-location-id": location,
            "x-device-ids": devices,
        }

    def reset(self):
        """Empty every screen (and the message log): POST /api/admin/reset."""
        status, body = self.request("POST", "/api/admin/reset", {}, admin=True)
        if status != 200:
            raise RuntimeError(f"reset answered {status}: {body}")

    def screen(self, screen_id):
        """What a screen shows, as JSON: GET /api/admin/screens/{id}."""
        status, body = self.request("GET", f"/api/admin/screens/{screen_id}", admin=True)
        if status != 200:
            raise RuntimeError(f"screen {screen_id} answered {status}: {body}")
        return body

    def stop(self):
        subprocess.run([self.engine, "rm", "-f", "-t", "2", self.container], capture_output=True)
