"""An integrator's tests in Python against kds-sim (standard library unittest only).

    python3 -m unittest -v        # in a clone or a project that installed kds-sim (KDS_SIM_COMMAND: another command)

One simulator for the whole class, reset between tests.
"""

import datetime
import socket
import unittest

from kds_sim import Simulator


def ticket(order_id, name, **extra):
    return {
        "id": order_id,
        "name": name,
        "time": int(datetime.datetime.now().timestamp() * 1000),
        "mode": "ToGo",
        "items": [{"lineId": "1", "name": "Cheeseburger", "qty": 2, "mods": [{"name": "No onion"}]}],
        **extra,
    }


class KitchenTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.sim = Simulator().__enter__()

    @classmethod
    def tearDownClass(cls):
        host, port = cls.sim.tcp_endpoint("kds-1")
        cls.sim.__exit__(None, None, None)
        # Stopped cleanly: its ports are free again (through the launcher on an older Node, its exit code).
        try:
            socket.create_connection((host, port), timeout=2).close()
            raise AssertionError(f"kds-sim still listens on {host}:{port} after SIGTERM")
        except ConnectionRefusedError:
            pass

    def setUp(self):
        self.sim.reset()
        self.sim.reset_faults()

    def titles(self, screen_id):
        return [card["title"] for card in self.sim.screen(screen_id)["cards"]]

    def test_tcp_order_shows_on_the_screen(self):
        reply = self.sim.send_tcp("kds-1", {"command": "create-order", "order": ticket("A-17", "Zoë 寿司 🍣")})
        self.assertEqual(reply, "A-17")
        card = self.sim.screen("kds-1")["cards"][0]
        self.assertEqual(card["title"], "Zoë 寿司 🍣")
        labels = [e["item"]["label"] for s in card["sections"] for e in s["entries"] if e["kind"] == "item"]
        self.assertEqual(labels, ["2 × Cheeseburger (No onion)"])

    def test_http_order_reaches_both_screens(self):
        order = ticket("H-1", "Sam")
        order["time"] = datetime.datetime.now(datetime.timezone.utc).isoformat()
        status, body = self.sim.send_http("POST", "/integrators/kds-orders", order, screens=["kds-1", "kds-2"])
        self.assertEqual(status, 201, body)
        self.assertEqual([s["status"] for s in body["deliveryStatuses"]], ["SUCCESS", "SUCCESS"])
        self.assertEqual(self.titles("kds-1"), ["Sam"])
        self.assertEqual(self.titles("kds-2"), ["Sam"])

    def test_duplicate_id_is_refused_and_bad_input_named(self):
        self.sim.send_tcp("kds-1", {"command": "create-order", "order": ticket("D-1", "Ann")})
        self.assertEqual(
            self.sim.send_tcp("kds-1", {"command": "create-order", "order": ticket("D-1", "Ann")}),
            "DUPLICATE_ORDER_ID",
        )
        status, body = self.sim.send_http("POST", "/integrators/kds-orders", {"id": "X"}, screens=["kds-1"])
        self.assertEqual(status, 422, body)
        self.assertIn({"path": "name", "message": "required (a string)"}, body["errors"])
        self.assertEqual(self.titles("kds-1"), ["Ann"])

    def test_reset_starts_clean(self):
        self.sim.send_tcp("kds-2", {"command": "create-order", "order": ticket("R-1", "Kim")})
        self.assertEqual(self.titles("kds-2"), ["Kim"])
        self.sim.reset()
        self.assertEqual(self.titles("kds-2"), [])

    def test_pos_retry_after_a_lost_reply(self):
        # The POS under test: its send with retries (here, the one of docs/faults.md).
        def pos_send(order):
            message = {"command": "create-order", "order": order}
            for _ in range(5):
                try:
                    reply = self.sim.send_tcp("kds-1", message, timeout=2)
                except OSError:
                    reply = ""
                if reply in (order["id"], "DUPLICATE_ORDER_ID"):
                    return reply  # DUPLICATE_ORDER_ID: the first one arrived
            raise AssertionError("no reply after 5 tries")

        self.sim.add_fault(kind="lost-reply", screen="kds-1", count=1)
        self.assertEqual(pos_send(ticket("L-1", "Zoë 寿司 🍣")), "DUPLICATE_ORDER_ID")
        # One ticket in the kitchen, and the simulator's verdict on the POS.
        self.assertEqual(self.titles("kds-1"), ["Zoë 寿司 🍣"])
        (client,) = self.sim.fault_report()["clients"]
        self.assertEqual(client["verdict"], "ok")
        self.assertEqual([f["rule"] for f in client["findings"]], ["KDS-FAULT-RESENT-SAME-ID"])


if __name__ == "__main__":
    unittest.main()
