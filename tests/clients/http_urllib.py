"""A POS on the HTTP integrator API with nothing but urllib.request (no third-party packages).

usage: python3 http_urllib.py BASE_URL TOKEN ORDER_ID
BASE_URL ends with "/" as integrators' settings often do; paths are joined onto it.
Prints one JSON object per request: {"step", "status", "body"}.
"""
import json
import sys
import urllib.error
import urllib.request
from datetime import datetime

base, token, order_id = sys.argv[1], sys.argv[2], sys.argv[3]
HEADERS = {
    "x-integration-token": token,
    "x-location-id": "loc-1",
    "x-device-ids": "kds-1",
    "Content-Type": "application/json",
}


def call(step, method, path, body=None, raw=None):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(base + path, data=data, headers=HEADERS, method=method)
    try:
        with urllib.request.urlopen(req, timeout=30) as res:
            status, text = res.status, res.read().decode()
    except urllib.error.HTTPError as err:
        status, text = err.code, err.read().decode()
    print(json.dumps({"step": step, "status": status, "body": json.loads(text) if text else None}))


call("health", "GET", "health")
now = datetime.now()
print(json.dumps({"step": "time", "sent": now.isoformat(), "epochMs": now.timestamp() * 1000}))
call(
    "create",
    "POST",
    "integrators/kds-orders/",
    {
        "id": order_id,
        "name": "Python urllib",
        "time": now.isoformat(),
        "mode": "Pickup",
        "pickupTime": None,
        "phoneNumber": None,
        "server": "Ana",  # not in the contract
        "items": [{"lineId": "1", "name": "Soup", "qty": 2, "mods": [], "price": "$4.50", "id": 7}],
    },
)
call("partial", "PUT", "integrators/kds-orders/partial/", {"id": order_id, "name": "Python urllib 2", "items": None})
call("devices", "GET", "integrators/kds-information/locations/loc-1/devices/")
call("too-large", "POST", "integrators/kds-orders/", raw=b'{"id":"' + b"x" * (8 << 20) + b'"}')
call("after", "GET", "integrators/kds-orders/active/")
