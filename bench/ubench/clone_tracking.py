#!/usr/bin/env python3
"""bench/ubench/clone_tracking.py — does a phase clone scale from two cores
to one as its program does when both are measured in the same minute?

    bench/ubench/clone_tracking.py --build build-test --params CLONES \
        --program PATH [--args '...'] [--rounds 5]

Each round measures the clones of CLONES ('UBENCH K:S[;K:S...]' lines,
phaseprobe-ubench run --params) on 1t ({0}) and 2t ({0},{1}), side by side
(--interleave, 3 rounds a configuration), then runs the plain PROGRAM once
on each, and prints per round each clone's 1t/2t work ratio (2 x tpi_1t /
tpi_2t) beside the program's (wall 1t / wall 2t). On the AMD EPYC VM how
NPB CG A scales moved 1.5-2.8x from hour to hour (runs hm, hn): a clone
measured an hour before the program cannot follow that; this shows which
clone follows it when measured beside it.
"""
import argparse
import os
import shlex
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONFIGS = {"1t": ("1", "{0}"), "2t": ("2", "{0},{1}")}


def wall(prog, args, threads, places):
    env = dict(os.environ, OMP_NUM_THREADS=threads, OMP_PLACES=places, OMP_PROC_BIND="close")
    t0 = time.perf_counter()
    subprocess.run([prog] + args, env=env, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--params", required=True)
    ap.add_argument("--program", required=True)
    ap.add_argument("--args", default="")
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    if a.rounds < 1:
        print("clone_tracking.py: --rounds takes a positive number", file=sys.stderr)
        sys.exit(2)
    ub = os.path.join(a.build, "bin", "phaseprobe-ubench")
    args = shlex.split(a.args)
    rows = []
    names = None
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(a.rounds):
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
            w1 = wall(a.program, args, *CONFIGS["1t"])
            w2 = wall(a.program, args, *CONFIGS["2t"])
            rows.append((time.strftime("%H:%M:%S"), w1 / w2, ratios))
    print("clone tracking: 1t/2t work ratio of phase clones and of their program, measured side by side")
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(ROOT, ["ubench", "bench/ubench"]))
    print("command : %s" % " ".join(shlex.quote(x) for x in sys.argv))
    print("program : %s %s (plain, wall time); clones: %s" % (a.program, a.args, a.params))
    print()
    for i, n in enumerate(names):
        print("c%d = %s" % (i + 1, n))
    print()
    print("%-9s %8s " % ("time", "program") + " ".join("%8s" % ("c%d" % (i + 1)) for i in range(len(names))))
    for t, p, rs in rows:
        print("%-9s %8.2f " % (t, p) + " ".join("%8.2f" % x for x in rs))
    print("%-9s %8.2f " % ("median", statistics.median(r[1] for r in rows)) +
          " ".join("%8.2f" % statistics.median(r[2][i] for r in rows) for i in range(len(names))))


if __name__ == "__main__":
    main()
