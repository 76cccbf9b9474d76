"""A POS's Python suite running the certification suite through the fixture (docs/certify.md):
sim.certify(capabilities, on_step), on_step sending each step's order over TCP as the POS
would: read the reply, retry with the same id when none came. Prints the report as JSON."""
import json
import socket
import sys
import time

from kds_sim_fixture import KdsSim


def pos_send(host, port, order):
    message = json.dumps({"command": "create-order", "order": order}).encode("utf-8")
    for attempt in range(5):
        try:
            with socket.create_connection((host, port), timeout=3) as conn:
                conn.sendall(message)
                conn.shutdown(socket.SHUT_WR)
                reply = b"".join(iter(lambda: conn.recv(65536), b"")).decode("utf-8").strip()
        except OSError:
            reply = ""
        if reply:
            return reply
        time.sleep(0.2 * 2**attempt)
    raise RuntimeError("no reply after 5 tries")


def on_step(step):
    if step["id"] == "KDS-CERT-TCP-004":
        return {"skip": "no rush orders at our counter"}
    tcp = step["target"]["tcp"]
    pos_send(tcp["host"], tcp["port"], {
        "id": f"PY-{step['index']}",
        "name": "Zoë 陳",
        "time": int(time.time() * 1000),
        "mode": "ToGo",
        "items": [{"lineId": "1", "name": "寿司 Sushi 🍣", "qty": 2, "mods": [{"name": "No wasabi"}]}],
    })


sim = KdsSim.attach(sys.argv[1])
report = sim.certify(
    ["tcp"],
    on_step,
    seed=3,
    scenarios=["KDS-CERT-TCP-001", "KDS-CERT-TCP-004", "KDS-CERT-BAD-001"],
)
junit = sim.certify_report("junit")
print(json.dumps({"report": report, "junit": junit}))
