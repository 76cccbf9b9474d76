"""kds-sim for a Python test suite, three ways: standard library only (docs/ci.md#python).

Copy this file (and conftest.py beside it, for pytest) into your tests: the npm package has both
(node_modules/kds-sim/python/), and so has each GitHub release, beside the tarball.

    kds = KdsSim.attach()          # a simulator already running: `npm start`, a CI service, a Pi.
                                   # KDS_SIM_URL, KDS_SIM_TOKEN, KDS_SIM_ADMIN_TOKEN, KDS_SIM_TCP as
                                   # docs/ci.md's recipes set them (or pass url=..., token=...)
    kds = KdsSim.start_package()   # start one from the installed npm package (node_modules/.bin/
                                   # kds-sim here or above; KDS_SIM_COMMAND names another command)
    kds = KdsSim.run_image()       # run the image with docker (KDS_ENGINE=podman for podman);
                                   # KDS_IMAGE names it (default ghcr.io/kds-sim/kds-sim:0.1)
    kds = KdsSim.from_env()        # the first that applies: KDS_SIM_URL set -> attach; the
                                   # package installed -> start it; else the image

Then, whichever way: kds.url (the base URL), kds.token, kds.tcp_endpoint("kds-1") -> (host, port),
kds.tcp_ports["kds-1"], kds.send_tcp(...), kds.send_http(...), kds.screen("kds-1"), kds.reset(),
kds.add_fault(...), kds.fault_report(), and kds.stop() (stops what this file started; an attached
simulator is left running). Every failure says why: the engine's own message, the image missing
and how to build it, the command missing and how to install it.

    class KitchenTest(unittest.TestCase):
        @classmethod
        def setUpClass(cls):
            cls.kds = KdsSim.from_env()
            cls.addClassCleanup(cls.kds.stop)

        def setUp(self):
            self.kds.reset()                  # every test starts with empty screens
"""
import json
import os
import secrets
import shlex
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

# The published image of the release this file came with (docs/release.md); KDS_IMAGE or
# run_image(image=...) names another, e.g. one built from the Containerfile (kds-sim:latest).
DEFAULT_IMAGE = "ghcr.io/kds-sim/kds-sim:0.1"
BUILD_HINT = (
    "build it in a clone of kds-sim with `podman build -t kds-sim -f Containerfile .` "
    "(or docker build; docs/container.md) and set KDS_IMAGE=kds-sim"
)
INSTALL_HINT = (
    "install it in this project with `npm install -D ./kds-sim-0.1.0.tgz` (the tarball "
    "`npm pack` makes in a clone of kds-sim), or set KDS_SIM_COMMAND to the command that runs it"
)


class KdsSimError(RuntimeError):
    """A simulator could not be reached, started or run; the message says why."""


def local_command(start=None):
    """The kds-sim command installed here, as an argv list, or None.

    node_modules/.bin/kds-sim in this folder or one above it (a project that installed the
    package), else bin/kds-sim.js of the kds-sim clone this folder is in.
    """
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


class KdsSim:
    """One simulator: attached to, started from the package, or run as a container."""

    def __init__(self, url, token, admin_token=None, tcp_ports=None, tcp_host=None, stopper=None):
        self.url = url.rstrip("/")
        self.token = token
        self.admin_token = admin_token
        # screen id -> the port its TCP listener is reached on, from this machine
        self.tcp_ports = dict(tcp_ports or {})
        self.tcp_host = tcp_host or urllib.parse.urlsplit(self.url).hostname
        self._stopper = stopper

    # --- the three ways -------------------------------------------------------------------

    @classmethod
    def attach(cls, url=None, token=None, admin_token=None, tcp=None, timeout=30):
        """A simulator that is already running (it is not stopped by stop()).

        url: KDS_SIM_URL; token: KDS_SIM_TOKEN (else the first brand's, as the simulator reports
        it); admin_token: KDS_SIM_ADMIN_TOKEN; tcp: KDS_SIM_TCP, "host:port" of the first screen
        where the simulator's own view of its ports does not hold here (a container's mapping).
        """
        url = url or os.environ.get("KDS_SIM_URL")
        if not url:
            raise KdsSimError(
                "no simulator to attach to: pass KdsSim.attach(url) or set KDS_SIM_URL "
                "(e.g. http://127.0.0.1:8104 for `npm start`; docs/ci.md)"
            )
        admin_token = admin_token or os.environ.get("KDS_SIM_ADMIN_TOKEN") or None
        kds = cls(url, token or os.environ.get("KDS_SIM_TOKEN"), admin_token)
        kds._wait_healthy(timeout, lambda: "")
        status, view = kds.request("GET", "/api/admin/integration", admin=True)
        if status != 200:
            raise KdsSimError(
                f"{kds.url}/api/admin/integration answered {status} ({view}): the admin API needs "
                "the simulator's admin token (off loopback, or once it has one): set "
                "KDS_SIM_ADMIN_TOKEN to its KDS_ADMIN_TOKEN"
            )
        brand = view["brands"][0]
        kds.token = kds.token or brand["token"]
        kds.tcp_ports = {
            screen["id"]: screen["tcp"]["port"]
            for location in brand["locations"]
            for screen in location["screens"]
        }
        tcp = tcp or os.environ.get("KDS_SIM_TCP")
        if tcp and kds.tcp_ports:
            host, _, port = tcp.rpartition(":")
            first = next(iter(kds.tcp_ports))
            kds.tcp_host = host or kds.tcp_host
            kds.tcp_ports[first] = int(port)
        return kds

    @classmethod
    def start_package(cls, command=None, args=(), timeout=120):
        """Start the installed package's `kds-sim` (in memory, free ports) and wait for it."""
        if command is None:
            command = os.environ.get("KDS_SIM_COMMAND")
        argv = shlex.split(command) if isinstance(command, str) else command or local_command()
        if not argv:
            raise KdsSimError(
                f"kds-sim is not installed here (no node_modules/.bin/kds-sim in {os.getcwd()} or "
                f"above): {INSTALL_HINT}"
            )
        folder = tempfile.TemporaryDirectory(prefix="kds-sim-")
        ready_file = os.path.join(folder.name, "ready.json")
        log = open(os.path.join(folder.name, "output.log"), "w+", encoding="utf-8")
        full = list(argv) + [
            "--memory", "--http-port", "0", "--tcp-port", "0",
            "--ready-file", ready_file, "--log-level", "warn",
        ] + list(args)
        try:
            process = subprocess.Popen(full, stdout=log, stderr=subprocess.STDOUT)
        except OSError as err:
            log.close()
            folder.cleanup()
            raise KdsSimError(f"cannot run {argv[0]} ({err.strerror}): {INSTALL_HINT}") from None

        def output():
            log.seek(0)
            return log.read()[-3000:]

        def stop():
            if process.poll() is None:
                process.terminate()
                try:
                    process.wait(10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            log.close()
            folder.cleanup()

        deadline = time.monotonic() + timeout
        while not os.path.exists(ready_file):
            if process.poll() is not None:
                text = output()
                stop()
                raise KdsSimError(f"{shlex.join(full)} exited with {process.returncode}:\n{text}")
            if time.monotonic() > deadline:
                text = output()
                stop()
                raise KdsSimError(f"kds-sim wrote no ready file within {timeout} s:\n{text}")
            time.sleep(0.05)
        with open(ready_file, encoding="utf-8") as f:
            ready = json.load(f)
        screens = ready["screens"]
        return cls(
            ready["http"]["url"],
            ready["brands"][0]["token"],
            None,
            {s["id"]: s["tcp"]["port"] for s in screens},
            screens[0]["tcp"]["host"] if screens else None,
            stop,
        )

    @classmethod
    def run_image(cls, image=None, screens=("kds-1", "kds-2"), first_tcp_port=9104, timeout=60):
        """Run the image (KDS_ENGINE: docker or podman), ports published on 127.0.0.1."""
        engine = os.environ.get("KDS_ENGINE", "docker")
        image = image or os.environ.get("KDS_IMAGE", DEFAULT_IMAGE)
        token = "pos-" + secrets.token_hex(8)
        admin_token = "admin-" + secrets.token_hex(8)
        container_ports = [first_tcp_port + i for i in range(len(screens))]
        args = [engine, "run", "-d", "--rm", "-p", "127.0.0.1::8104"]
        for port in container_ports:
            args += ["-p", f"127.0.0.1::{port}"]
        args += ["-e", f"KDS_TOKEN={token}", "-e", f"KDS_ADMIN_TOKEN={admin_token}", image]
        try:
            run = subprocess.run(args, capture_output=True, text=True)
        except OSError as err:
            raise KdsSimError(
                f"cannot run the container engine {engine!r} ({err.strerror}): install docker or "
                "podman (KDS_ENGINE=podman), or use KdsSim.attach / KdsSim.start_package"
            ) from None
        if run.returncode != 0:
            why = run.stderr.strip() or run.stdout.strip() or "(it printed nothing)"
            missing = any(
                s in why.lower()
                for s in ("not found", "manifest unknown", "pull access denied", "unable to find",
                          "no such image", "initializing source", "repository does not exist")
            )
            hint = f" The image {image} is not there: {BUILD_HINT}." if missing else ""
            raise KdsSimError(f"{engine} run {image} failed (exit {run.returncode}): {why}{hint}")
        container = run.stdout.strip()

        def stop():
            subprocess.run([engine, "rm", "-f", "-t", "2", container], capture_output=True)

        def logs():
            out = subprocess.run([engine, "logs", container], capture_output=True, text=True)
            return (out.stdout + out.stderr)[-2000:]

        try:
            http_port = cls._host_port(engine, container, 8104)
            tcp_ports = {
                screen: cls._host_port(engine, container, port)
                for screen, port in zip(screens, container_ports)
            }
            kds = cls(f"http://127.0.0.1:{http_port}", token, admin_token, tcp_ports, "127.0.0.1", stop)
            kds.container = container
            kds.engine = engine
            kds._wait_healthy(timeout, logs)
            return kds
        except BaseException:
            stop()
            raise

    # The name of earlier versions of this file: the image.
    start = run_image

    @classmethod
    def from_env(cls):
        """attach() when KDS_SIM_URL is set; else start_package() when kds-sim is installed (or
        KDS_SIM_COMMAND names it); else run_image()."""
        if os.environ.get("KDS_SIM_URL"):
            return cls.attach()
        if os.environ.get("KDS_SIM_COMMAND") or local_command():
            return cls.start_package()
        return cls.run_image()

    # --- where it listens (the getters of the Testcontainers module, docs/testcontainers.md) ---

    def base_url(self):
        return self.url

    def tcp_endpoint(self, screen_id):
        """(host, port) of a screen's TCP order interface, as reached from here."""
        if screen_id not in self.tcp_ports:
            raise KeyError(f"no screen {screen_id!r}; the simulator has {list(self.tcp_ports)}")
        return self.tcp_host, self.tcp_ports[screen_id]

    # --- talking to it ---------------------------------------------------------------------

    @staticmethod
    def _host_port(engine, container, port):
        out = subprocess.run([engine, "port", container, f"{port}/tcp"], capture_output=True, text=True)
        if out.returncode != 0 or not out.stdout.strip():
            raise KdsSimError(
                f"{engine} port {container[:12]} {port}/tcp failed (exit {out.returncode}): "
                f"{out.stderr.strip() or 'no binding'}"
            )
        # "127.0.0.1:40123" (one line per binding)
        return int(out.stdout.strip().splitlines()[0].rsplit(":", 1)[1])

    def _wait_healthy(self, timeout, logs):
        deadline = time.monotonic() + timeout
        last = None
        while True:
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=2) as res:
                    if res.status == 200:
                        return
                    last = f"status {res.status}"
            except urllib.error.HTTPError as err:
                last = f"status {err.code}"
            except (urllib.error.URLError, ConnectionError, OSError) as err:
                last = getattr(err, "reason", err)
            if time.monotonic() > deadline:
                break
            time.sleep(0.2)
        text = logs()
        raise KdsSimError(
            f"no simulator answered {self.url}/health within {timeout} s (last: {last})"
            + (f":\n{text}" if text else "")
        )

    def request(self, method, path, body=None, headers=None, admin=False, timeout=10):
        """(status, parsed JSON body or text) of one HTTP request."""
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(self.url + path, data=data, method=method)
        if body is not None:
            req.add_header("Content-Type", "application/json")
        if admin and self.admin_token:
            req.add_header("x-admin-token", self.admin_token)
        for key, value in (headers or {}).items():
            req.add_header(key, value)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as res:
                status, raw = res.status, res.read()
        except urllib.error.HTTPError as err:
            status, raw = err.code, err.read()
        except (urllib.error.URLError, ConnectionError, OSError) as err:
            raise KdsSimError(f"{method} {self.url}{path}: {getattr(err, 'reason', err)}") from None
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

    def send_tcp(self, screen_id, message, timeout=10.0):
        """One message on its own connection, as most POS clients send: write, half-close, read."""
        payload = message if isinstance(message, bytes) else json.dumps(message).encode("utf-8")
        with socket.create_connection(self.tcp_endpoint(screen_id), timeout=timeout) as conn:
            conn.sendall(payload)
            conn.shutdown(socket.SHUT_WR)
            chunks = []
            while chunk := conn.recv(65536):
                chunks.append(chunk)
        return b"".join(chunks).decode("utf-8").strip()

    def send_http(self, method, path, body=None, screens=(), location="loc-1"):
        """A call to the integrator API with this simulator's token: (status, body)."""
        headers = {"x-integration-token": self.token, "x-location-id": location}
        if screens:
            headers["x-device-ids"] = ",".join(screens)
        return self.request(method, path, body, headers)

    def _admin(self, method, path, body=None, ok=(200,), timeout=10):
        status, answer = self.request(method, path, body, admin=True, timeout=timeout)
        if status not in ok:
            raise KdsSimError(f"{method} {path} answered {status}: {answer}")
        return answer

    def reset(self, screen_id=None):
        """Empty one screen, or every screen (and the message log): POST /api/admin/reset."""
        return self._admin("POST", "/api/admin/reset", {"screen": screen_id} if screen_id else {})

    def screen(self, screen_id):
        """What a screen shows, as JSON: GET /api/admin/screens/{id}."""
        return self._admin("GET", f"/api/admin/screens/{urllib.parse.quote(screen_id)}")

    # Faults on cue (docs/faults.md), through the admin API.

    def add_fault(self, **spec):
        """Add one fault, e.g. add_fault(kind="lost-reply", screen="kds-1", count=1); returns it."""
        return self._admin("POST", "/api/admin/faults", spec, ok=(201,))["added"][0]

    def faults(self):
        """Every fault, with how often each fired."""
        return self._admin("GET", "/api/admin/faults")["faults"]

    def reset_faults(self):
        """Remove every fault (between tests)."""
        self._admin("POST", "/api/admin/faults/reset")

    def fault_report(self):
        """What each client did after each fault: {"clients": [{client, verdict, findings}]}."""
        return self._admin("GET", "/api/admin/faults/report")

    # Certification (docs/certify.md): the suite run on this simulator, each step done by the POS.

    def certify(self, capabilities, on_step, seed=None, scenarios=None, screen=None):
        """Run the certification suite: on_step(step) performs each step with the POS's own code
        (step["step"] says what: interface, actions, needs; step["target"] where); return
        {"skip": reason} to skip it; an exception is the POS failing the step. Returns the
        report (JSON): report["verdict"] is PASS, WARN or FAIL."""
        body = {"capabilities": list(capabilities)}
        if seed is not None:
            body["seed"] = seed
        if scenarios:
            body["scenarios"] = list(scenarios)
        if screen:
            body["screen"] = screen
        state = self._admin("POST", "/api/admin/certify", body, ok=(201,))
        while state["state"] == "running" and state["current"]:
            step = dict(state["current"], runId=state["runId"], target=state["target"])
            try:
                outcome = on_step(step)
            except Exception:  # the POS failed the step: the judge says what was missing
                outcome = None
            if isinstance(outcome, dict) and outcome.get("skip"):
                state = self._admin("POST", "/api/admin/certify/skip", {"reason": outcome["skip"]}, timeout=60)
            else:
                state = self._admin("POST", "/api/admin/certify/advance", timeout=60)
        return self._admin("GET", "/api/admin/certify/report")

    def certify_report(self, format="junit"):
        """The last run's report as text: "junit" (XML for the CI) or "html" (printable)."""
        return self._admin("GET", f"/api/admin/certify/report?format={format}")

    def stop(self):
        """Stop what this file started (a process, a container); an attached simulator runs on."""
        if self._stopper:
            self._stopper()
            self._stopper = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
