"""Every failure of kds_sim_fixture.py says why (issue 45): unittest, standard library only.

tests/integration/python-fixture.spec.ts runs it with KDS_FAKE_ENGINE, a stand-in container
engine that prints what podman prints for an image it cannot pull and exits 125 as podman does.
"""
import os
import socket
import tempfile
import unittest

from kds_sim_fixture import KdsSim, KdsSimError


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Failures(unittest.TestCase):
    def setUp(self):
        for name in ("KDS_SIM_URL", "KDS_SIM_COMMAND", "KDS_ENGINE", "KDS_IMAGE"):
            os.environ.pop(name, None)

    def test_attach_without_a_url_names_the_setting(self):
        with self.assertRaisesRegex(KdsSimError, r"set KDS_SIM_URL"):
            KdsSim.attach()

    def test_attach_to_nothing_says_nothing_answered(self):
        url = f"http://127.0.0.1:{free_port()}"
        with self.assertRaisesRegex(KdsSimError, rf"no simulator answered {url}/health within 1 s"):
            KdsSim.attach(url, timeout=1)

    def test_no_installed_package_says_how_to_install_it(self):
        with tempfile.TemporaryDirectory() as empty:
            cwd = os.getcwd()
            os.chdir(empty)
            try:
                with self.assertRaisesRegex(KdsSimError, r"kds-sim is not installed here .*npm install -D"):
                    KdsSim.start_package()
            finally:
                os.chdir(cwd)

    def test_no_engine_says_so(self):
        os.environ["KDS_ENGINE"] = "/nonexistent/podman"
        with self.assertRaisesRegex(KdsSimError, r"cannot run the container engine '/nonexistent/podman'"):
            KdsSim.run_image()

    def test_the_engines_own_message_and_how_to_build_a_missing_image(self):
        os.environ["KDS_ENGINE"] = os.environ["KDS_FAKE_ENGINE"]
        with self.assertRaises(KdsSimError) as caught:
            KdsSim.run_image(image="kds-sim-missing:1")
        message = str(caught.exception)
        self.assertIn("run kds-sim-missing:1 failed (exit 125)", message)
        self.assertIn("initializing source docker://kds-sim-missing:1", message)
        self.assertIn("The image kds-sim-missing:1 is not there: build it in a clone of kds-sim", message)


if __name__ == "__main__":
    unittest.main()
