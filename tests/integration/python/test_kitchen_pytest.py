"""A POS team's pytest suite, as python/conftest.py gives it the `kds` fixture.

tests/integration/python-fixture.spec.ts runs it beside the shipped kds_sim_fixture.py and
conftest.py: attached to a running simulator (KDS_SIM_URL), and started from the installed
package (node_modules/.bin/kds-sim). KDS_EXPECT_WAY says which way the fixture must have taken.
"""
import os
from datetime import datetime, timezone


def order(order_id, name):
    return {
        "id": order_id,
        "name": name,
        "time": datetime.now(timezone.utc).isoformat(),
        "mode": "ToGo",
        "items": [
            {"lineId": "1", "name": "Bánh mì 🥖", "qty": 2, "mods": [{"name": "No chili"}]},
            {"lineId": "2", "name": "味噌汁", "qty": 1, "mods": []},
        ],
    }


def test_the_way_taken(kds_session):
    way = os.environ["KDS_EXPECT_WAY"]
    if way == "attach":
        assert kds_session.url == os.environ["KDS_SIM_URL"].rstrip("/")
        assert kds_session._stopper is None
    else:
        assert kds_session._stopper is not None


def test_tcp_create_is_answered_with_its_id_and_shows(kds):
    assert kds.send_tcp("kds-1", {"command": "create-order", "order": order("P-1", "Zoë 寿司")}) == "P-1"
    assert [c["title"] for c in kds.screen("kds-1")["cards"]] == ["Zoë 寿司"]


def test_each_test_starts_empty(kds):
    assert kds.screen("kds-1")["cards"] == []


def test_http_create_with_the_token_then_its_duplicate(kds):
    status, body = kds.send_http("POST", "/integrators/kds-orders", order("H-1", "Web"), screens=["kds-2"])
    assert status == 201, body
    assert body["orderId"] == "H-1"
    status, body = kds.send_http("POST", "/integrators/kds-orders", order("H-1", "Web"), screens=["kds-2"])
    assert status == 409, body


def test_a_fault_on_cue_and_its_report(kds):
    fault = kds.add_fault(kind="lost-reply", screen="kds-1", count=1)
    assert fault["kind"] == "lost-reply"
    assert len(kds.faults()) == 1
    kds.reset_faults()
    assert kds.faults() == []
