#!/usr/bin/env python3
"""bench/ubench/slice_copies.py — a strided clone's walk (blocks of SPAN
rows, column by column) over one slice sweep after sweep, as the uB kernels
do, against the same walk rotating over several copies of its slice
(bench/ubench/slice_copies.c), at one thread and at two.

    bench/ubench/slice_copies.py [--kib 34560] [--stride 3840] [--span 95]
                                 [--copies 1,2,4] [--rounds 2] [--pad W/E]

Builds slice_copies.c with the project's clang and runs every copy count at
one thread (CPU 0) and two (one per core) in rounds that alternate them;
prints per copy count and thread count the median time per access of one
thread over the rounds, its spread, and the ratio one thread / two (the
median of the per-round ratios). Defaults: bt 96 x 10's y sweep. --pad
W/E computes W padding steps every E accesses, as the clone +wW/E does.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402  (bench/provenance.py)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PLACES = {1: ("{0}", "close"), 2: ("cores", "spread")}


def fail(msg):
    """Bad input: one line, exit 2."""
    print("slice_copies.py: " + msg, file=sys.stderr)
    sys.exit(2)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kib", type=int, default=34560)
    ap.add_argument("--stride", type=int, default=3840, help="bytes")
    ap.add_argument("--span", type=int, default=95, help="rows a block")
    ap.add_argument("--copies", default="1,2,4")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--pad", default="0/1", help="W/E: W padding steps every E accesses")
    ap.add_argument("--cc", default="clang-14")
    args = ap.parse_args()
    try:
        copies = [int(c) for c in args.copies.split(",") if c]
    except ValueError:
        fail("--copies %s: expected whole numbers, comma-separated" % args.copies)
    w, _, e = args.pad.partition("/")
    if not (w.isdigit() and e.isdigit() and int(e) > 0):
        fail("--pad %s: expected W/E, two whole numbers, E above 0" % args.pad)
    if not copies or min(copies) < 1 or args.kib < 1 or args.stride < 8 or args.span < 1 or args.rounds < 1:
        fail("--kib, --span, --rounds and --copies must be positive, --stride at least 8 bytes")
    res = {(c, t): [] for c in copies for t in PLACES}
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "slice_copies")
        subprocess.run([args.cc, "-O2", "-fopenmp", os.path.join(HERE, "slice_copies.c"), "-o", exe],
                       check=True)
        for _ in range(args.rounds):
            for c in copies:
                for t, (places, bind) in PLACES.items():
                    env = dict(os.environ, OMP_NUM_THREADS=str(t), OMP_PLACES=places, OMP_PROC_BIND=bind)
                    out = subprocess.run([exe, str(args.kib), str(args.stride), str(args.span), str(c),
                                          args.pad],
                                         env=env, check=True, capture_output=True, text=True).stdout.split()
                    res[(c, t)].append(float(out[3]))
    print("slice copies: a blocked strided walk over one slice or rotating over several")
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(ROOT, ["bench/ubench"]))
    print("command : %s" % " ".join(sys.argv))
    print("stream  : update, private double, %d KiB (per thread: / threads), stride %d B, blocks of %d rows, "
          "padding %s steps an access" % (args.kib, args.stride, args.span, args.pad))
    print()
    print("%-7s %7s %12s %14s %8s" % ("copies", "threads", "ns/access", "spread", "1t/2t"))
    for c in copies:
        ratio = statistics.median(a / b for a, b in zip(res[(c, 1)], res[(c, 2)]))
        for t in PLACES:
            v = res[(c, t)]
            print("%-7d %7d %12.3f %14s %8s" % (c, t, statistics.median(v), "%.3f-%.3f" % (min(v), max(v)),
                                                "%.2f" % ratio if t == 1 else ""))


if __name__ == "__main__":
    main()
