"""A whole certification run through the Python fixture (docs/certify.md) with a sample POS
client of tests/clients doing each step: sim.certify(capabilities, on_step), on_step running the
client's command as `kds-sim certify --exec` does (the step as JSON in CERTIFY_STEP, the
simulator's URL in CERTIFY_URL; exit 3 skips it, its last line of output the reason). Prints the
report as JSON.

    python3 certify_clients.py <simulator url> <capabilities,comma-separated> <command...>
"""
import json
import os
import subprocess
import sys

from kds_sim_fixture import KdsSim

url, capabilities, command = sys.argv[1], sys.argv[2].split(","), sys.argv[3:]


def on_step(step):
    told = {key: step[key] for key in ("index", "id", "title", "instruction", "step", "simulator")}
    env = dict(
        os.environ,
        CERTIFY_URL=url,
        CERTIFY_STEP=json.dumps(dict(told, run=step["runId"], target=step["target"])),
    )
    done = subprocess.run(command, env=env, stdout=subprocess.PIPE, text=True)
    sys.stderr.write(done.stdout)
    if done.returncode == 3:
        lines = [line for line in done.stdout.strip().split("\n") if line]
        return {"skip": (lines[-1][:500] if lines else "") or "skipped by the POS"}
    return None


sim = KdsSim.attach(url)
print(json.dumps(sim.certify(capabilities, on_step, seed=44)))
