#!/usr/bin/env python3
"""bench/ubench/barrier_cost.py — the cost of one barrier (or one spin-wait
round) per node and work size, as the estimator reads it from an NPPDB.

    bench/ubench/barrier_cost.py NPPDB [NPPDB ...] [--build DIR] [--ubench spin1p|inv1p]

For every node and thread count with the sync uB (bar1p, the default,
spin1p, or inv1p: a worksharing loop's invocation) and its mbw1p twin
at unit stride (phaseprobe-ubench puts both in every grid), prints per
footprint the work between synchronizations (one sweep of one thread's
slice, mbw1p's time) and the cost of one there: (tpi_sync - tpi_mbw1p) x
iterations per sweep, the rule of estimator/src/sync.cpp; then per node
and thread count the short sweeps' cost (`--sync-sweeps short`, and what
`--invocations priced` charges an invocation): the costs of the sweeps up
to 100 us weighted by 1 / sweep time^2, never below 0. Reads the profiles with `phaseprobe-db
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


class ExportError(Exception):
    """An NPPDB whose profiles cannot be read: one line saying why."""


def profiles(build, db):
    """The profiles of NPPDB \p db as `phaseprobe-db export` rows."""
    if not os.path.exists(db):
        raise ExportError("%s: no such database" % db)
    p = subprocess.run([os.path.join(build, "bin", "phaseprobe-db"), "export", "--db", db],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise ExportError("%s: phaseprobe-db export: %s" % (db, p.stderr.strip()))
    return list(csv.DictReader(io.StringIO(p.stdout)))


def sync_costs(rows, ubench="bar1p"):
    """{(node, threads, footprint KiB, element bytes): (sweep us, cost us)}
    for every profile of the sync uB \p ubench in \p rows (profiles())
    with its mbw1p twin at unit stride: one sweep of a thread's slice, and
    (tpi_sync - tpi_mbw1p) x iterations per sweep (estimator/src/sync.cpp)."""
    tpi = {}
    for r in rows:
        parts = r["streams"].split(":")
        if r["ubench"] in (ubench, "mbw1p") and len(parts) == 4 and parts[1] == parts[2]:
            tpi[(r["node"], int(r["threads"]), float(parts[0]), int(parts[2]), r["ubench"])] = \
                float(r["tpi_us"])
    out = {}
    for (node, th, kib, elem, ub), sync in tpi.items():
        ref = tpi.get((node, th, kib, elem, "mbw1p"))
        if ub == ubench and ref is not None:
            iters = kib * 1024 / elem / th
            out[(node, th, kib, elem)] = (ref * iters, (sync - ref) * iters)
    return out


def short_costs(costs):
    """{(node, threads): cost us} as estimator/src/sync.cpp's
    syncCostShortUs weighs the pairs of sync_costs()."""
    sums = {}
    for (node, th, _, _), (sweep, cost) in costs.items():
        if 0 < sweep <= 100:
            w = 1 / sweep ** 2
            s, ws = sums.get((node, th), (0.0, 0.0))
            sums[(node, th)] = (s + w * cost, ws + w)
    return {k: max(0.0, s / ws) for k, (s, ws) in sums.items() if ws > 0}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("db", nargs="+", help="NPPDB files")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--ubench", default="bar1p", choices=["bar1p", "spin1p", "inv1p"],
                    help="the sync uB: bar1p (a barrier), spin1p (a spin-wait round) or inv1p "
                         "(an omp for invocation)")
    args = ap.parse_args()
    what = {"bar1p": "barrier", "spin1p": "spin_round", "inv1p": "invocation"}[args.ubench]
    try:
        tables = [(db, profiles(args.build, db)) for db in args.db]  # every input checked first
    except ExportError as ex:
        fail(str(ex))
    print("phaseprobe %s cost per node and work between them (%s - mbw1p)"
          % (what.replace("_", "-"), args.ubench))
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(ROOT, ["estimator", "ubench"]))
    print("command : %s" % " ".join(["bench/ubench/barrier_cost.py"] + sys.argv[1:]))
    for db, rows_of_db in tables:
        print()
        print("== %s" % db)
        print("%-14s %7s %12s %14s %16s" % ("node", "threads", "footprint_kib", "sweep_us",
                                             what + "_cost_us"))
        costs = sync_costs(rows_of_db, args.ubench)
        for (node, th, kib, _), (sweep, cost) in sorted(costs.items()):
            print("%-14s %7d %12g %14.2f %16.2f" % (node, th, kib, sweep, cost))
        if not costs:
            print("(no %s/mbw1p pairs)" % args.ubench)
            continue
        print("short sweeps (weights 1 / sweep time^2, sweeps up to 100 us):")
        for (node, th), cost in sorted(short_costs(costs).items()):
            print("%-14s %7d %12s %14s %16.2f" % (node, th, "", "short", cost))


if __name__ == "__main__":
    main()
