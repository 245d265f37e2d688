#!/usr/bin/env python3
"""bench/accuracy/handoff_drift.py — does the node keep its shape? A cache
line's round trip between two CPUs, probed right before and right after
each two-thread run of a program on those CPUs.

    bench/accuracy/handoff_drift.py --program '/tmp/pubn/npb-bt.W/plain' \\
        [--cpus 0,1] [--rounds 20] [--one-thread] [--trips 2000] \\
        [--bursts 5] [--cc clang-14] [--out FILE]

Per round: the probe (handoff.c: ROUND_TRIPS round trips a burst, the
median of BURSTS bursts, about a millisecond), the program on two threads
(OMP_PLACES={a},{b}, OMP_PROC_BIND=close), the probe again; with
--one-thread the program also on one thread pinned to the first CPU. A
round is "near" when both probes are under twice the fastest probe of
the run, "far" when both are over, "mixed" when the two disagree (the
shape changed during the run or between the probes).

On one L3 a round trip takes tens of nanoseconds, between two L3s (two
CCDs of an AMD EPYC, two sockets) several times that: a VM whose host
moves its vCPUs between them is two nodes taking turns, and a two-thread
run's time depends on which one it met. The probes only read the CPUs'
distance; what a run meets in between is inferred from the two.
"""
import argparse
import datetime
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402  (bench/provenance.py)
import textout  # noqa: E402  (bench/textout.py)
from apps import clean_env, wall_s  # noqa: E402  (bench/apps.py)
from handoff_probe import HandoffProbe, ProbeError, near_limit, shape  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROG = "handoff_drift.py"


def fail(msg):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--program", required=True, help="the program's path and arguments")
    ap.add_argument("--cpus", default="0,1", help="the two CPUs of the two-thread runs (default 0,1)")
    ap.add_argument("--rounds", type=int, default=20, help="rounds (default 20)")
    ap.add_argument("--one-thread", action="store_true",
                    help="also run the program on one thread (the first CPU) every round")
    ap.add_argument("--trips", type=int, default=2000, help="round trips a burst (default 2000)")
    ap.add_argument("--bursts", type=int, default=5, help="bursts a probe, median taken (default 5)")
    ap.add_argument("--cc", default="clang-14", help="C compiler for the probe (default clang-14)")
    ap.add_argument("--out", help="also write the table here (atomically)")
    args = ap.parse_args()
    if args.out and textout.out_dir_problem(args.out):
        fail(textout.out_dir_problem(args.out))
    argv = args.program.split()
    if not argv or not os.access(argv[0], os.X_OK):
        fail("--program %r: %s: not an executable" % (args.program, argv[0] if argv else ""))
    try:
        cpus = [int(c) for c in args.cpus.split(",")]
        if len(cpus) != 2 or cpus[0] == cpus[1] or min(cpus) < 0:
            raise ValueError
    except ValueError:
        fail("--cpus %r: two different CPU numbers, comma-separated" % args.cpus)
    for name in ("rounds", "trips", "bursts"):
        if getattr(args, name) < 1:
            fail("--%s %d: one or more" % (name, getattr(args, name)))
    two = clean_env({"OMP_NUM_THREADS": "2", "OMP_PLACES": "{%d},{%d}" % tuple(cpus),
                     "OMP_PROC_BIND": "close"})
    one = clean_env({"OMP_NUM_THREADS": "1", "OMP_PLACES": "{%d}" % cpus[0], "OMP_PROC_BIND": "close"})

    rounds = []
    with tempfile.TemporaryDirectory(prefix="pp-handoff-") as tmp:
        try:
            probe = HandoffProbe(tmp, cpus, args.cc, args.trips, args.bursts)
            start = time.time()
            for _ in range(args.rounds):
                at = time.time() - start
                t2, (before, after) = probe.around(lambda: wall_s(argv, two, PROG, argv[0]))
                t1 = wall_s(argv, one, PROG, argv[0]) if args.one_thread else None
                rounds.append((at, before, t2, after, t1))
        except ProbeError as ex:
            fail(str(ex))

    limit = near_limit((r[1], r[3]) for r in rounds)
    lines = ["phaseprobe handoff drift: a cache line's round trip between CPUs %d and %d around each "
             "two-thread run" % tuple(cpus),
             "machine : %s" % provenance.machine(),
             "commit  : %s" % provenance.commit(ROOT, ["bench/accuracy"]),
             "date    : %s" % datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ"),
             "command : %s" % " ".join(sys.argv),
             "probe   : median of %d bursts of %d round trips; near < %.1f ns (twice the fastest probe), "
             "far above; mixed: the probes disagree" % (args.bursts, args.trips, limit),
             ""]
    head = ["round", "at_s", "before_ns", "2t_s", "after_ns", "shape"] + (["1t_s", "1t/2t"] if args.one_thread else [])
    rows = []
    for i, (at, before, t2, after, t1) in enumerate(rounds, 1):
        row = [str(i), "%.0f" % at, "%.1f" % before, "%.3f" % t2, "%.1f" % after, shape(before, after, limit)]
        if args.one_thread:
            row += ["%.3f" % t1, "%.2f" % (t1 / t2)]
        rows.append(row)
    lines += textout.table(head, rows)
    lines.append("")
    head = ["shape", "rounds", "2t median_s", "2t spread_s"] + (["1t/2t median", "1t/2t spread"] if args.one_thread else [])
    rows = []
    for kind in ("near", "mixed", "far"):
        sel = [r for r in rounds if shape(r[1], r[3], limit) == kind]
        if not sel:
            continue
        t2 = [r[2] for r in sel]
        row = [kind, str(len(sel)), "%.3f" % statistics.median(t2), "%.3f-%.3f" % (min(t2), max(t2))]
        if args.one_thread:
            q = [r[4] / r[2] for r in sel]
            row += ["%.2f" % statistics.median(q), "%.2f-%.2f" % (min(q), max(q))]
        rows.append(row)
    lines += textout.table(head, rows)
    textout.emit(PROG, lines, args.out)


if __name__ == "__main__":
    main()
