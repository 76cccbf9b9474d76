"""pytest fixtures for kds-sim, ready to copy beside kds_sim_fixture.py (docs/ci.md#python).

    def test_order_reaches_the_grill(kds):
        assert kds.send_tcp("kds-1", {"command": "create-order", "order": {...}}) == "A-17"
        assert [c["title"] for c in kds.screen("kds-1")["cards"]] == ["Maria"]

`kds_session` is one simulator for the whole run, found the first way that applies
(KdsSim.from_env): KDS_SIM_URL set -> attach to it (with KDS_SIM_TOKEN, KDS_SIM_ADMIN_TOKEN,
KDS_SIM_TCP as docs/ci.md's recipes set them); kds-sim installed in this project (or
KDS_SIM_COMMAND) -> start it; else run the image (KDS_IMAGE, KDS_ENGINE). `kds` is the same
simulator with every screen emptied and every fault removed before each test.
"""
import pytest

from kds_sim_fixture import KdsSim


@pytest.fixture(scope="session")
def kds_session():
    sim = KdsSim.from_env()
    yield sim
    sim.stop()


@pytest.fixture
def kds(kds_session):
    kds_session.reset()
    kds_session.reset_faults()
    return kds_session
