"""Drive kds-sim from Python, standard library only.

    with Simulator() as sim:                      # starts the installed kds-sim on free ports
        sim.send_tcp("kds-1", {"command": "create-order", "order": {...}})   # -> "A-17"
        sim.send_http("POST", "/integrators/kds-orders", order, screens=["kds-1"])
        sim.screen("kds-1")["cards"]              # what the screen shows, as JSON
        sim.reset()                               # forget every order (between tests)
        sim.add_fault(kind="lost-reply", screen="kds-1", count=1)   # a bad day on cue
        sim.fault_report()                        # what your POS did next (docs/faults.md)

The simulator is started with --ready-file: it writes where it listens (the HTTP URL, each
screen's TCP host and port) once every port is up, so nothing here guesses ports or reads the
banner. The command: KDS_SIM_COMMAND when set; else the kds-sim installed in this project
(node_modules/.bin/kds-sim here or in a folder above), or in a clone of kds-sim its own
bin/kds-sim.js (the launcher: on a Node older than kds-sim needs, it runs on Node 24); never a
kds-sim fetched from the public npm registry. Leaving the `with` block sends SIGTERM and waits for
a clean stop. To attach to a simulator that is already running, or to run the image, use
python/kds_sim_fixture.py (KdsSim.attach, KdsSim.run_image; docs/ci.md#python).
"""

import json
import os
import shlex
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request

DEMO_TOKEN = "kds-demo-token"


def local_command(start=None):
    """node_modules/.bin/kds-sim in this folder or above, else a kds-sim clone's bin/kds-sim.js."""
    folder = os.path.abspath(start or os.getcwd())
    while True:
        installed = os.path.join(folder, "node_modules", ".bin", "kds-sim")
        if os.path.exists(installed):
            return [installed]
        manifest = os.path.join(folder, "package.json")
        launcher = os.path.join(folder, "bin", "kds-sim.js")
        if os.path.exists(launcher) and os.path.exists(manifest):
            with open(manifest, encoding="utf-8") as f:
                if json.load(f).get("name") == "kds-sim":
                    return ["node", launcher]
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent


class Simulator:
    def __init__(self, command=None, args=(), start_timeout=120.0):
        command = command or os.environ.get("KDS_SIM_COMMAND")
        self.command = shlex.split(command) if command else local_command()
        if not self.command:
            raise RuntimeError(
                f"kds-sim is not installed here (no node_modules/.bin/kds-sim in {os.getcwd()} or "
                "above): install it in this project with `npm install -D ./kds-sim-0.1.0.tgz` (the "
                "tarball `npm pack` makes in a clone of kds-sim), or set KDS_SIM_COMMAND to the "
                "command that runs it."
            )
        self.args = list(args)
        self.start_timeout = start_timeout
        self.process = None
        self.ready = None

    def __enter__(self):
        self._folder = tempfile.TemporaryDirectory(prefix="kds-sim-")
        ready_file = os.path.join(self._folder.name, "ready.json")
        argv = self.command + [
            "--memory", "--http-port", "0", "--tcp-port", "0",
            "--ready-file", ready_file, "--log-level", "warn",
        ] + self.args
        self._log = open(os.path.join(self._folder.name, "output.log"), "w+")
        self.process = subprocess.Popen(argv, stdout=self._log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + self.start_timeout
        while not os.path.exists(ready_file):
            if self.process.poll() is not None:
                self._log.seek(0)
                raise RuntimeError(f"kds-sim exited with {self.process.returncode}:\n{self._log.read()}")
            if time.monotonic() > deadline:
                self.stop()
                raise TimeoutError(f"kds-sim did not say it was ready within {self.start_timeout} s")
            time.sleep(0.05)
        with open(ready_file, encoding="utf-8") as f:
            self.ready = json.load(f)
        return self

    def __exit__(self, *exc):
        self.stop()
        self._log.close()
        self._folder.cleanup()

    def stop(self, timeout=10.0):
        """SIGTERM, then wait until the simulator has closed its ports (and its store).

        Started through npx, the process here is npx: the simulator stops when npx does, a moment
        later, so this waits for the ports rather than for the process alone. Its exit code.
        """
        if self.process is None or self.process.poll() is not None:
            return self.process and self.process.returncode
        self.process.terminate()
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()
        deadline = time.monotonic() + timeout
        while self.ready and self._listening() and time.monotonic() < deadline:
            time.sleep(0.05)
        return code

    def _listening(self):
        host, port = self.ready["screens"][0]["tcp"]["host"], self.ready["screens"][0]["tcp"]["port"]
        try:
            socket.create_connection((host, port), timeout=1).close()
            return True
        except OSError:
            return False

    @property
    def http_url(self):
        return self.ready["http"]["url"]

    def tcp_endpoint(self, screen_id):
        for screen in self.ready["screens"]:
            if screen["id"] == screen_id:
                return screen["tcp"]["host"], screen["tcp"]["port"]
        raise KeyError(f"no screen {screen_id!r}; the simulator has {[s['id'] for s in self.ready['screens']]}")

    def send_tcp(self, screen_id, message, timeout=10.0):
        """One message on its own connection, as most POS clients send: write, half-close, read."""
        host, port = self.tcp_endpoint(screen_id)
        payload = message if isinstance(message, bytes) else json.dumps(message).encode("utf-8")
        with socket.create_connection((host, port), timeout=timeout) as conn:
            conn.sendall(payload)
            conn.shutdown(socket.SHUT_WR)
            chunks = []
            while chunk := conn.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode("utf-8").strip()

    def send_http(self, method, path, body=None, screens=(), location="loc-1", token=DEMO_TOKEN):
        """A call to the integrator API: (status, parsed JSON body or None)."""
        headers = {"x-integration-token": token, "x-location-id": location}
        if screens:
            headers["x-device-ids"] = ",".join(screens)
        return self._request(method, path, body, headers)

    def screen(self, screen_id):
        """What the screen shows: its cards in display order (GET /api/admin/screens/<id>)."""
        status, view = self._request("GET", f"/api/admin/screens/{screen_id}")
        if status != 200:
            raise RuntimeError(f"GET /api/admin/screens/{screen_id}: {status} {view}")
        return view

    def reset(self, screen_id=None):
        """Forget the orders of one screen, or of every screen."""
        body = {"screen": screen_id} if screen_id else {}
        status, answer = self._request("POST", "/api/admin/reset", body)
        if status != 200:
            raise RuntimeError(f"POST /api/admin/reset: {status} {answer}")
        return answer

    # Faults on cue (docs/faults.md), through the admin API.

    def add_fault(self, **spec):
        """Add one fault, e.g. add_fault(kind="lost-reply", screen="kds-1", count=1); returns it."""
        status, answer = self._request("POST", "/api/admin/faults", spec)
        if status != 201:
            raise RuntimeError(f"POST /api/admin/faults: {status} {answer}")
        return answer["added"][0]

    def faults(self):
        """Every fault, with how often each fired."""
        return self._request("GET", "/api/admin/faults")[1]["faults"]

    def reset_faults(self):
        """Remove every fault (between tests)."""
        self._request("POST", "/api/admin/faults/reset")

    def fault_report(self):
        """What each client did after each fault: {"clients": [{client, verdict, findings}]}."""
        return self._request("GET", "/api/admin/faults/report")[1]

    def _request(self, method, path, body=None, headers=None):
        data = None if body is None else json.dumps(body).encode("utf-8")
        request = urllib.request.Request(self.http_url + path, data=data, method=method)
        for name, value in (headers or {}).items():
            request.add_header(name, value)
        if data is not None:
            request.add_header("content-type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, _json(response.read())
        except urllib.error.HTTPError as error:
            return error.code, _json(error.read())


def _json(raw):
    return json.loads(raw) if raw else None
