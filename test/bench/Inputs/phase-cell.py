# Exercises run.py's phase_cell on hand-written estimate documents: which
# time the per-phase table compares with the measured one. Prints one line
# per case for FileCheck.
import os
import sys

sys.path.insert(0, os.path.join(sys.argv[1], "bench", "accuracy"))
from run import phase_cell  # noqa: E402


def est(phase_s, region_s, regions=("r.c:1:1",)):
    """An estimate of node n with phase r.c:1:1 (its time phase_s, None:
    unmatched) and top-level regions `regions`, each region_s long."""
    ests = {} if phase_s is None else {"n": {"time_s": phase_s, "status": "chosen"}}
    return {"phases": [{"id": "r.c:1:1", "estimates": ests}],
            "nodes": [{"node": "n", "regions": [{"id": r, "time_s": region_s} for r in regions]}]}


cases = {
    # a `parallel for`: its own region, fork/join and barriers included
    "region": (est(1.0, 1.25), est(2.0, 2.5)),
    # a loop inside a larger region: the loop's own estimate
    "loop": (est(1.0, 1.25, regions=("r.c:0:1",)), est(2.0, 2.5, regions=("r.c:0:1",))),
    # unmatched: no estimate, even though its region has a (carried) time
    "unmatched": (est(None, 1.25), est(None, 2.5)),
    # no alternative estimate
    "no-alt": (est(1.0, 1.25), None),
}
for name, (main, alt) in cases.items():
    e_s, a_s, whole, _ = phase_cell(main, alt, "n", "r.c:1:1")
    print("%s %s %s %s" % (name, e_s, a_s, whole))
print("other node", phase_cell(est(1.0, 1.25), None, "m", "r.c:1:1")[:3])
