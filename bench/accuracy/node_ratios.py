#!/usr/bin/env python3
"""bench/accuracy/node_ratios.py — how one node's uB profiles compare with
another's in an NPPDB: the median ratio of their times per iteration over
the configurations both have, all of them and the compute-only uBs apart.

    bench/accuracy/node_ratios.py NPPDB --pair A:B [--pair C:D ...] [--out FILE]

Between configurations of one machine (1t and 2t) the compute-only ratio
says whether two threads got two cores' worth of arithmetic while the
uBs were measured (1.0: they did; 2.0: they shared one): what run hk's
characterization did not (bench/results/accuracy-2026-11-28-quiet-hk-*).
Python 3 standard library; reads the NPPDB read-only; bad input: one line,
exit 2, nothing written.
"""
import argparse
import os
import sqlite3
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402  (bench/provenance.py)
import textout  # noqa: E402  (bench/textout.py)

PROG = "node_ratios.py"
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The uBs that touch no memory stream (ubench/README.md, "The uBs").
COMPUTE = ("cadd", "cmul", "cfma", "cdiv", "csqrt", "tadd", "tmul")


def fail(msg):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(2)


def node_profiles(con, node):
    """{(ubench, streams_text): tpi_us} of \p node's profiles in the open
    NPPDB \p con (also throughput_probe.nppdb_ratios)."""
    rows = con.execute("SELECT p.ubench, p.streams_text, p.tpi_us FROM profiles p "
                       "JOIN nodes n ON n.id = p.node_id WHERE n.label = ?", (node,)).fetchall()
    return {(u, s): t for u, s, t in rows}


def ratios(pa, pb, keep=lambda key: True):
    """pb's tpi over pa's for every configuration (key) both have that
    \p keep accepts."""
    return [pb[k] / pa[k] for k in pa if k in pb and pa[k] > 0 and keep(k)]


def profiles(con, db, node):
    found = node_profiles(con, node)
    if not found:
        fail("%s: no profiles of node %r" % (db, node))
    return found


def median(v):
    return "%.2f" % statistics.median(v) if v else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("db", help="an NPPDB (SQLite)")
    ap.add_argument("--pair", action="append", required=True, help="A:B, B's tpi over A's")
    ap.add_argument("--out", help="also write the table here (atomically)")
    args = ap.parse_args()
    if args.out and textout.out_dir_problem(args.out):
        fail(textout.out_dir_problem(args.out))
    if not os.path.isfile(args.db):
        fail("%s: no such file" % args.db)
    try:
        con = sqlite3.connect("file:%s?mode=ro" % args.db, uri=True)
        con.execute("SELECT count(*) FROM profiles").fetchone()
    except sqlite3.Error as ex:
        fail("%s: not an NPPDB: %s" % (args.db, ex))
    rows = []
    for spec in args.pair:
        a, sep, b = spec.partition(":")
        if not sep or not a or not b:
            fail("--pair %r: expected A:B" % spec)
        pa, pb = profiles(con, args.db, a), profiles(con, args.db, b)
        every = ratios(pa, pb)
        compute = ratios(pa, pb, lambda k: k[0].split("+")[0] in COMPUTE)
        rows.append([a, b, str(len(every)), median(every), str(len(compute)), median(compute)])
    lines = provenance.header("phaseprobe node ratios: B's uB time per iteration over A's, medians",
                              ROOT, ["bench/accuracy"]) + ["db      : %s" % args.db, ""]
    lines += textout.table(["A", "B", "configs", "median B/A", "compute", "median B/A compute"], rows)
    textout.emit(PROG, lines, args.out)


if __name__ == "__main__":
    main()
