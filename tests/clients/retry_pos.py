"""A POS that survives a bad day: it retries the way the contract makes safe.

usage: python3 retry_pos.py tcp HOST PORT ORDER_ID
       python3 retry_pos.py http BASE_URL TOKEN ORDER_ID

TCP: send, half-close, read the reply with a timeout; on a closed connection, a reset, a refused
connection or a timeout, wait (backing off) and send the SAME order again. DUPLICATE_ORDER_ID means
the first one arrived: done.
HTTP: on 5xx or a dropped connection, the same again; on 429, wait Retry-After first; 409
(duplicate) means the first one arrived.
Prints one JSON line per attempt, then {"done": ...}.
"""
import json
import socket
import sys
import time
import urllib.error
import urllib.request
from datetime import datetime, timezone

mode = sys.argv[1]


def order(order_id):
    return {
        "id": order_id,
        "name": "Zoë 🍜",
        "time": datetime.now(timezone.utc).isoformat(),
        "mode": "ToGo",
        "items": [
            {"lineId": "1", "name": "牛肉麺 Beef noodle soup", "qty": 2, "mods": [{"name": "Extra chili 🌶"}]},
            {"lineId": "2", "name": "Iced tea", "qty": 1, "mods": []},
        ],
    }


def tcp(host, port, order_id):
    payload = json.dumps({"command": "create-order", "order": order(order_id)}).encode()
    delay = 0.2
    for attempt in range(1, 9):
        try:
            with socket.create_connection((host, port), timeout=2) as sock:
                sock.sendall(payload)
                sock.shutdown(socket.SHUT_WR)
                reply = b""
                while True:
                    chunk = sock.recv(4096)
                    if not chunk:
                        break
                    reply += chunk
            reply = reply.decode()
            print(json.dumps({"attempt": attempt, "reply": reply}), flush=True)
            if reply in (order_id, "DUPLICATE_ORDER_ID"):
                return reply
            if reply == "":
                raise ConnectionError("closed without a reply")
            return reply
        except (OSError, ConnectionError) as err:
            print(json.dumps({"attempt": attempt, "error": type(err).__name__}), flush=True)
        time.sleep(delay)
        delay = min(delay * 2, 2)
    return None


def http(base, token, order_id):
    body = json.dumps(order(order_id)).encode()
    headers = {"x-integration-token": token, "x-location-id": "loc-1", "x-device-ids": "kds-1",
               "Content-Type": "application/json"}
    delay = 0.2
    for attempt in range(1, 9):
        req = urllib.request.Request(base + "/integrators/kds-orders", data=body, headers=headers, method="POST")
        wait = delay
        try:
            with urllib.request.urlopen(req, timeout=3) as res:
                print(json.dumps({"attempt": attempt, "status": res.status}), flush=True)
                return res.status
        except urllib.error.HTTPError as err:
            print(json.dumps({"attempt": attempt, "status": err.code}), flush=True)
            if err.code == 409:
                return 409  # a duplicate: the first one arrived
            if err.code == 429 or err.code == 503:
                wait = max(wait, float(err.headers.get("Retry-After", "1")))
            elif err.code < 500:
                return err.code
        except (OSError, urllib.error.URLError) as err:
            print(json.dumps({"attempt": attempt, "error": type(err).__name__}), flush=True)
        time.sleep(wait)
        delay = min(delay * 2, 2)
    return None


if mode == "tcp":
    done = tcp(sys.argv[2], int(sys.argv[3]), sys.argv[4])
else:
    done = http(sys.argv[2].rstrip("/"), sys.argv[3], sys.argv[4])
print(json.dumps({"done": done}))
