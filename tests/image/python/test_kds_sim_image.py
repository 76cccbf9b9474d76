"""A Python POS team's tests against the kds-sim image: unittest, standard library only.

    KDS_IMAGE=ghcr.io/kds-sim/kds-sim:0.1 python3 -m unittest -v test_kds_sim_image.py

beside kds_sim_fixture.py (python/ of the package; KDS_ENGINE=podman where podman is the engine).
tests/image/python.spec.ts runs this file with the fixture taken out of `npm pack`'s tarball.
"""
import json
import socket
import unittest
from datetime import datetime

from kds_sim_fixture import KdsSim


def tcp_send(port, message):
    """One create-order over TCP as a POS sends it: write, half-close, read the reply."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(json.dumps(message).encode("utf-8"))
        sock.shutdown(socket.SHUT_WR)
        chunks = []
        while True:
            chunk = sock.recv(4096)
            if not chunk:
                break
            chunks.append(chunk)
    return b"".join(chunks).decode("utf-8")


def order(order_id, name="Ticket"):
    return {
        "id": order_id,
        "name": name,
        "time": datetime.now().isoformat(),
        "mode": "For Here",
        "items": [{"lineId": "1", "name": "Bánh mì 🥖", "qty": 2, "mods": ["no chili"]}],
    }


class KitchenScreenTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.kds = KdsSim.start()
        cls.addClassCleanup(cls.kds.stop)

    def setUp(self):
        self.kds.reset()

    def test_tcp_create_order_is_answered_with_its_id_and_shown(self):
        reply = tcp_send(self.kds.tcp_ports["kds-1"], {"command": "create-order", "order": order("py-1")})
        self.assertEqual(reply, "py-1")
        cards = self.kds.screen("kds-1")["cards"]
        self.assertEqual([c["id"] for c in cards], ["py-1"])

    def test_http_create_with_the_token_then_a_duplicate_is_refused(self):
        headers = self.kds.integrator_headers()
        status, body = self.kds.request("POST", "/integrators/kds-orders", order("py-2"), headers)
        self.assertEqual(status, 201, body)
        status, body = self.kds.request("POST", "/integrators/kds-orders", order("py-2"), headers)
        self.assertEqual(status, 409)
        self.assertEqual(body["code"], "DUPLICATE_ORDER_ID")

    def test_a_bad_order_is_refused_naming_the_field(self):
        bad = order("py-3")
        bad["items"][0]["qty"] = "two"
        status, body = self.kds.request(
            "POST", "/integrators/kds-orders", bad, self.kds.integrator_headers()
        )
        self.assertEqual(status, 422)
        self.assertIn("items[0].qty", json.dumps(body))

    def test_reset_empties_the_screens(self):
        tcp_send(self.kds.tcp_ports["kds-2"], {"command": "create-order", "order": order("py-4")})
        self.assertEqual(len(self.kds.screen("kds-2")["cards"]), 1)
        self.kds.reset()
        self.assertEqual(self.kds.screen("kds-2")["cards"], [])


if __name__ == "__main__":
    unittest.main()
