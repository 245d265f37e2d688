#!/usr/bin/env python3
"""bench/ubench/clone_tracking.py — does a phase clone scale from two cores
to one as its program does when both are measured in the same minute?

    bench/ubench/clone_tracking.py --build build-test --params CLONES \
        --program PATH [--args '...'] [--rounds 5] [--phase ID ...]

Each round measures the clones of CLONES ('UBENCH K:S[;K:S...]' lines,
phaseprobe-ubench run --params) on 1t ({0}) and 2t ({0},{1}), side by side
(--interleave, 3 rounds a configuration), then runs the plain PROGRAM once
on each, and prints per round each clone's 1t/2t work ratio (2 x tpi_1t /
tpi_2t) beside the program's (wall 1t / wall 2t). On the AMD EPYC VM how
NPB CG A scales moved 1.5-2.8x from hour to hour (runs hm, hn): a clone
measured an hour before the program cannot follow that; this shows which
clone follows it when measured beside it.

With --phase ID (repeatable), PROGRAM is the instrumented build: it runs
with PHASEPROBE_SAMPLING=off (timing only) and the column of each phase is
its own time at 1t over its time at 2t, read from the phase file, instead
of the program's wall time, which carries its setup and every other phase.
"""
import argparse
import json
import os
import shlex
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "accuracy"))
import handoff_probe  # noqa: E402
import provenance  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONFIGS = {"1t": ("1", "{0}"), "2t": ("2", "{0},{1}")}


def wall(prog, args, threads, places):
    env = dict(os.environ, OMP_NUM_THREADS=threads, OMP_PLACES=places, OMP_PROC_BIND="close")
    t0 = time.perf_counter()
    subprocess.run([prog] + args, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def phase_times(prog, args, threads, places, ids, out):
    """{id: time_s} of the phases \p ids in one timing-only run of the
    instrumented \p prog (its phase file written to \p out)."""
    env = dict(os.environ, OMP_NUM_THREADS=threads, OMP_PLACES=places, OMP_PROC_BIND="close",
               PHASEPROBE_SAMPLING="off", PHASEPROBE_OUT=out)
    subprocess.run([prog] + args, env=env, check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        times = {p["id"]: p["time_s"] for p in json.load(f)["phases"]}
    missing = [i for i in ids if i not in times]
    if missing:
        print("clone_tracking.py: %s: no phase %s in its phase file" % (prog, missing[0]), file=sys.stderr)
        sys.exit(2)
    return {i: times[i] for i in ids}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--params", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--args", default="")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--phase", action="append", default=[], metavar="ID",
                    help="PROGRAM is instrumented: compare this phase's time (repeatable)")
    a = ap.parse_args()
    if a.rounds < 1:
        print("clone_tracking.py: --rounds takes a positive number", file=sys.stderr)
        sys.exit(2)
    ub = os.path.join(a.build, "bin", "phaseprobe-ubench")
    args = shlex.split(a.args)
    rows = []
    names = None
    with tempfile.TemporaryDirectory() as tmp:
        # The node's shape in each round (a cache line's round trip between
        # CPUs 0 and 1: one L3 or two), beside the ratios it may explain.
        try:
            probe = handoff_probe.HandoffProbe(tmp, [0, 1])
        except handoff_probe.ProbeError as ex:
            print("clone_tracking.py: %s" % ex, file=sys.stderr)
            sys.exit(2)
        for r in range(a.rounds):
            handoff = probe.ns()
            db = os.path.join(tmp, "r%d.sqlite" % r)
            subprocess.run([ub, "run", "--db", db, "--params", a.params, "--rounds", "3",
                            "--interleave"] + ["n%s:%s:%s" % (k, t, p) for k, (t, p) in CONFIGS.items()],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            tpi = {}
            con = sqlite3.connect(db)
            for node, u, st, t in con.execute(
                    "SELECT n.label, p.ubench, p.streams_text, p.tpi_us FROM profiles p "
                    "JOIN nodes n ON n.id = p.node_id"):
                tpi[(u + " " + st.split(":")[0], node)] = t
            con.close()
            names = names or sorted({k for k, _ in tpi})
            ratios = [2 * tpi[(k, "n1t")] / tpi[(k, "n2t")] for k in names]
            if a.phase:
                out = os.path.join(tmp, "phases.json")
                p1 = phase_times(a.program, args, *CONFIGS["1t"], a.phase, out)
                p2 = phase_times(a.program, args, *CONFIGS["2t"], a.phase, out)
                prog = [p1[i] / p2[i] for i in a.phase]
            else:
                prog = [wall(a.program, args, *CONFIGS["1t"]) / wall(a.program, args, *CONFIGS["2t"])]
            rows.append((time.strftime("%H:%M:%S"), prog, ratios, (handoff + probe.ns()) / 2))
    print("clone tracking: 1t/2t work ratio of phase clones and of their program, measured side by side")
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(ROOT, ["ubench", "bench/ubench"]))
    print("command : %s" % " ".join(shlex.quote(x) for x in sys.argv))
    if a.phase:
        print("program : %s %s (instrumented, PHASEPROBE_SAMPLING=off: phase times); clones: %s" % (
            a.program, a.args, a.params))
    else:
        print("program : %s %s (plain, wall time); clones: %s" % (a.program, a.args, a.params))
    print()
    heads = ["p%d" % (i + 1) for i in range(len(a.phase))] or ["program"]
    for i, ph in enumerate(a.phase):
        print("p%d = phase %s" % (i + 1, ph))
    for i, n in enumerate(names):
        print("c%d = %s" % (i + 1, n))
    print()
    print("(handoff: ns of a cache line's round trip between CPUs 0 and 1, the mean of a probe before and after "
          "the round; near: under twice the fastest round's, far: the others)")
    print()
    print("%-9s %8s " % ("time", "handoff") + " ".join("%8s" % h for h in heads) + " " +
          " ".join("%8s" % ("c%d" % (i + 1)) for i in range(len(names))))
    for t, ps, rs, h in rows:
        print("%-9s %8.0f " % (t, h) + " ".join("%8.2f" % x for x in ps) + " " +
              " ".join("%8.2f" % x for x in rs))
    for label, rs in handoff_probe.shape_groups(rows, lambda r: r[3]):
        print("%-9s %8.0f " % (label, statistics.median(r[3] for r in rs)) +
              " ".join("%8.2f" % statistics.median(r[1][i] for r in rs) for i in range(len(heads))) + " " +
              " ".join("%8.2f" % statistics.median(r[2][i] for r in rs) for i in range(len(names))))


if __name__ == "__main__":
    main()
