#!/usr/bin/env python3
"""bench/ubench/column_span.py — a strided clone's columns over its whole
slice against columns confined to blocks of one loop execution's accesses
(`+c<N>`), at one thread and at two.

    bench/ubench/column_span.py [--build build] [--kib 10240] [--stride 2560]
                                [--span 63] [--kernel update] [--rounds 7]

Feeds phaseprobe-ubench-kernels one private double stream (the example bt's
y sweep by default: 10 MiB, 2560 B apart, 63 accesses an execution), both
walks in rounds that alternate them and the thread counts (1 thread on CPU
0; 2 threads, one per core), so a drift of the machine moves all alike.
Prints per walk and thread count the median time per access of one thread
over the rounds (each round: the median of its repetitions), the spread
(min-max) and the ratio of one thread's time per access to two threads'
(the median of the per-round ratios): 1.0 where a thread walks as fast
alone as beside another, as the loop the clone stands for does.
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402  (bench/provenance.py)
import ubenchkernels  # noqa: E402  (bench/ubenchkernels.py)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PLACES = {1: ("{0}", "close"), 2: ("cores", "spread")}


def fail(msg):
    """Bad input or a kernel's refusal: one line, exit 2."""
    print("column_span.py: " + msg, file=sys.stderr)
    sys.exit(2)


def run(kernels, threads, lines):
    """ns per access of one thread for each configuration line."""
    places, bind = PLACES[threads]
    try:
        return ubenchkernels.median_tpis_ns(kernels, lines, threads, places, bind=bind)
    except ubenchkernels.RunError as ex:
        fail(str(ex))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--kib", type=float, default=10240)
    ap.add_argument("--stride", type=int, default=2560, help="bytes")
    ap.add_argument("--span", type=int, default=63, help="accesses a column inside a block")
    ap.add_argument("--kernel", default="update", help="update, sum or store")
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    kernels = os.path.join(args.build, "bin", "phaseprobe-ubench-kernels")
    if not os.access(kernels, os.X_OK):
        fail("%s: not built (cmake --build %s)" % (kernels, args.build))
    # 9 repetitions of at least 20 ms each; the optional fields WORK 0, REP 1,
    # no windows, WORK_EVERY 1, the span on the one stream.
    def walk(ident, span):
        return ubenchkernels.line(ident, args.kernel, "double", "p", "s", [(args.kib, args.stride)],
                                  (9, 9, 100, 10, 0.02), tail=(0, 1, 0, 0, 0, 1, span, 0, 0))
    walks = {"whole slice": walk(1, 0), "+c%d" % args.span: walk(2, args.span)}
    res = {(w, t): [] for w in walks for t in PLACES}
    for _ in range(args.rounds):
        for t in PLACES:
            got = run(kernels, t, list(walks.values()))
            for w, ns in zip(walks, got):
                res[(w, t)].append(ns)
    print("column spans: a strided clone's columns over the whole slice or in blocks")
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(ROOT, ["ubench/kernels", "bench/ubench"]))
    print("command : %s" % " ".join(sys.argv))
    print("stream  : %s, private double, %g KiB, stride %d B (per thread: the slice / threads)"
          % (args.kernel, args.kib, args.stride))
    print()
    print("%-12s %7s %12s %14s %10s" % ("walk", "threads", "ns/access", "spread", "1t/2t"))
    for w in walks:
        ratio = statistics.median(a / b for a, b in zip(res[(w, 1)], res[(w, 2)]))
        for t in PLACES:
            v = res[(w, t)]
            print("%-12s %7d %12.3f %14s %10s" % (w, t, statistics.median(v),
                                                  "%.3f-%.3f" % (min(v), max(v)),
                                                  "%.2f" % ratio if t == 1 else ""))


if __name__ == "__main__":
    main()
