"""A POS that talks to the screen's TCP port the way Python's standard library makes easy.

usage: python3 tcp_socket.py HOST PORT ORDER_ID read|close

read:  send, shutdown(SHUT_WR), one recv(4096), print the reply.
close: send, then close() at once without reading (a full close, not a half-close).
Prints one JSON object: what was sent and what came back.
"""
import json
import socket
import sys
from datetime import datetime

host, port, order_id, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]

now = datetime.now()  # local time: the POS and the screen are in the same kitchen
message = {
    "command": "create-order",
    "order": {
        "id": order_id,
        "name": "Python socket",
        "time": now.isoformat(),  # 2026-11-24T02:00:59.729233: no offset, microseconds
        "mode": "For Here",
        "source": "python-pos",  # not in the contract
        "pickupTime": None,
        "items": [
            {"lineId": "1", "name": "Fries", "qty": 1, "mods": [], "id": 42, "specialInstructions": None}
        ],
    },
}

sock = socket.create_connection((host, port), timeout=10)
sock.sendall(json.dumps(message).encode("utf-8"))
reply = None
if mode == "read":
    sock.shutdown(socket.SHUT_WR)
    reply = sock.recv(4096).decode("utf-8")
sock.close()
print(json.dumps({"sent": now.isoformat(), "epochMs": now.timestamp() * 1000, "reply": reply}))
