#!/usr/bin/env python3
"""bench/ubench/partition_flip.py — what two threads pay for lines the other
wrote last, with the vCPUs on one L3 and on two (bench/ubench/partition_flip.c).

    bench/ubench/partition_flip.py [--rounds 20] [--n 1048576] [--block 512] [--reps 21]

Each round probes the node's shape (a cache line's round trip between CPUs
0 and 1: bench/accuracy/handoff_probe.py), runs partition_flip on two
threads ({0},{1}) and on one ({0}), and probes again. Per round it prints
the shape and, per configuration, ns per element of the sweep split as the
previous one ("same") and of the one split another way ("flipped"), and
flipped / same; then the medians over the near rounds, the far rounds and
all. Defaults: 8 MiB of doubles (NPB BT W's lhs and fjac are 8 and 3 MiB),
blocks of a 4 KiB page. No uB walks data another thread wrote: a phase that
does pays what its clones do not (README, "Limits").
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(1, os.path.join(HERE, "..", "accuracy"))
import handoff_probe  # noqa: E402
import provenance  # noqa: E402  (bench/provenance.py)

ROOT = os.path.dirname(os.path.dirname(HERE))
# One place per vCPU (run hk: libomp reads this VM's two vCPUs as one core).
CONFIGS = (("2t", {"OMP_NUM_THREADS": "2", "OMP_PLACES": "{0},{1}", "OMP_PROC_BIND": "close"}),
           ("1t", {"OMP_NUM_THREADS": "1", "OMP_PLACES": "{0}", "OMP_PROC_BIND": "close"}))


def fail(msg):
    print("partition_flip.py: %s" % msg, file=sys.stderr)
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--n", type=int, default=1 << 20, help="doubles in the array")
    ap.add_argument("--block", type=int, default=512, help="doubles a block")
    ap.add_argument("--reps", type=int, default=21, help="timed repetitions of each mode per run (median)")
    ap.add_argument("--cc", default="clang-14")
    a = ap.parse_args()
    if min(a.rounds, a.n, a.block, a.reps) < 1 or a.block > a.n:
        fail("--rounds, --n, --block and --reps take positive numbers, --block at most --n")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        try:
            exe, probe = handoff_probe.program_and_probe(a.cc, os.path.join(HERE, "partition_flip.c"), tmp)
        except handoff_probe.ProbeError as ex:
            fail(str(ex))
        for _ in range(a.rounds):
            before = probe.ns()
            ns = {}
            for label, env in CONFIGS:
                out = subprocess.run([exe, str(a.n), str(a.block), str(a.reps)], env=dict(os.environ, **env),
                                     check=True, capture_output=True, text=True).stdout.split()
                ns[label] = (float(out[1]), float(out[2]))
            rows.append((time.strftime("%H:%M:%S"), (before + probe.ns()) / 2, ns))
    print("partition flip: two sweeps split the same way or another, one L3 or two")
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(ROOT, ["bench/ubench"]))
    print("command : %s" % " ".join(sys.argv))
    print("array   : %d doubles (%.1f MiB), blocks of %d; %d repetitions a run, median" % (
        a.n, a.n * 8 / 2**20, a.block, a.reps))
    print("(handoff: ns of a cache line's round trip between CPUs 0 and 1, the mean of a probe before and "
          "after the round; near: under twice the fastest round's, far: the others; ns per element of "
          "the two sweeps, wall time of the team)")
    print()
    cols = ["%-9s %8s" % ("time", "handoff")]
    for label, _ in CONFIGS:
        cols.append("%9s %9s %8s" % ("same_" + label, "flip_" + label, "flip/same"))
    print("  ".join(cols))

    def line(name, h, ns):
        cells = ["%-9s %8.0f" % (name, h)]
        for label, _ in CONFIGS:
            s, f = ns[label]
            cells.append("%9.3f %9.3f %8.2f" % (s, f, f / s))
        print("  ".join(cells))

    for t, h, ns in rows:
        line(t, h, ns)
    for name, group in handoff_probe.shape_groups(rows, lambda r: r[1]):
        med = {label: tuple(statistics.median(r[2][label][k] for r in group) for k in (0, 1))
               for label, _ in CONFIGS}
        line(name, statistics.median(r[1] for r in group), med)


if __name__ == "__main__":
    main()
