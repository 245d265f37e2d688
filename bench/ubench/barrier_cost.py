#!/usr/bin/env python3
"""bench/ubench/barrier_cost.py — the cost of one barrier per node and work
size, as the estimator reads it from an NPPDB.

    bench/ubench/barrier_cost.py NPPDB [NPPDB ...] [--build DIR]

For every node and thread count with bar1p and its mbw1p twin at unit
stride (phaseprobe-ubench puts both in every grid), prints per footprint the
work between barriers (one sweep of one thread's slice, mbw1p's time) and
the cost of a barrier there: (tpi_bar1p - tpi_mbw1p) x iterations per sweep,
the rule of estimator/src/sync.cpp. Reads the profiles with `phaseprobe-db
export`; measures nothing itself, so its numbers are those of the NPPDBs
given (their provenance is theirs).
"""
import argparse
import csv
import io
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402  (bench/provenance.py)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fail(msg):
    print("barrier_cost.py: " + msg, file=sys.stderr)
    sys.exit(2)


def profiles(build, db):
    if not os.path.exists(db):
        fail("%s: no such database" % db)
    p = subprocess.run([os.path.join(build, "bin", "phaseprobe-db"), "export", "--db", db],
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail("%s: phaseprobe-db export: %s" % (db, p.stderr.strip()))
    return list(csv.DictReader(io.StringIO(p.stdout)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("db", nargs="+", help="NPPDB files")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    tables = [(db, profiles(args.build, db)) for db in args.db]  # every input checked first
    print("phaseprobe barrier cost per node and work between barriers (bar1p - mbw1p)")
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(ROOT, ["estimator", "ubench"]))
    print("command : %s" % " ".join(["bench/ubench/barrier_cost.py"] + sys.argv[1:]))
    for db, rows_of_db in tables:
        tpi = {}
        for r in rows_of_db:
            parts = r["streams"].split(":")
            if r["ubench"] in ("bar1p", "mbw1p") and len(parts) == 4 and parts[1] == parts[2]:
                tpi[(r["node"], int(r["threads"]), float(parts[0]), int(parts[2]), r["ubench"])] = \
                    float(r["tpi_us"])
        print()
        print("== %s" % db)
        print("%-14s %7s %12s %14s %16s" % ("node", "threads", "footprint_kib", "sweep_us", "barrier_cost_us"))
        rows = 0
        for (node, th, kib, elem, ub), bar in sorted(tpi.items()):
            ref = tpi.get((node, th, kib, elem, "mbw1p"))
            if ub != "bar1p" or ref is None:
                continue
            iters = kib * 1024 / elem / th
            print("%-14s %7d %12g %14.2f %16.2f" % (node, th, kib, ref * iters, (bar - ref) * iters))
            rows += 1
        if not rows:
            print("(no bar1p/mbw1p pairs)")


if __name__ == "__main__":
    main()
