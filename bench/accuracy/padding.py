#!/usr/bin/env python3
"""What one padding step of the padded clones costs on two nodes of an NPPDB.

A padded clone (`UB+wN[/M]`, ubench/README.md) is its unpadded uB plus N/M
steps of dependent multiply-adds per iteration, calibrated to its phase's
time per iteration on the base node. Across CPUs it carries the padding's
speed-up, not the phase's (runs du, dx: bench/accuracy README). This prints,
for every padded profile whose unpadded twin (same uB, same streams, same
threads) is on both nodes, the step's cost on each, (padded - unpadded tpi)
/ steps per iteration, their ratio, and the median and quartiles:

    bench/accuracy/padding.py --db RUN/nppdb.sqlite --nodes vm-2t,xeon-2t

Python 3 standard library only. Exit 2 on bad input (one line).
"""

import argparse
import os
import re
import sqlite3
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import provenance  # noqa: E402  (bench/provenance.py)
import textout  # noqa: E402  (bench/textout.py)

PADDED = re.compile(r"^(.*)\+w(\d+)(?:/(\d+))?$")
SRC_ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def fail(msg):
    print("padding.py: %s" % msg, file=sys.stderr)
    sys.exit(2)


def profiles(db, nodes):
    """{(node, ubench, streams_text, threads): tpi_us} of the given nodes."""
    try:
        con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
        try:
            have = {r[0] for r in con.execute("SELECT label FROM nodes")}
            rows = con.execute(
                "SELECT n.label, p.ubench, p.streams_text, p.threads, p.tpi_us FROM profiles p "
                "JOIN nodes n ON n.id = p.node_id WHERE n.label IN (?, ?)", nodes).fetchall()
        finally:
            con.close()
    except sqlite3.Error as ex:
        fail("%s: %s" % (db, ex))
    for n in nodes:
        if n not in have:
            fail("%s: no node %s (have %s)" % (db, n, ", ".join(sorted(have))))
    return {(l, u, s, t): v for l, u, s, t, v in rows}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", required=True, help="NPPDB (a results folder's nppdb.sqlite)")
    ap.add_argument("--nodes", required=True, metavar="A,B", help="the two nodes to compare")
    args = ap.parse_args()
    nodes = [n for n in args.nodes.split(",") if n]
    if len(nodes) != 2:
        fail("--nodes %s: expected two nodes A,B" % args.nodes)
    if not os.path.isfile(args.db):
        fail("%s: no such database" % args.db)
    tpi = profiles(args.db, nodes)
    a, b = nodes
    rows, ratios, steps_a, steps_b = [], [], [], []
    for (node, ub, streams, threads), padded in sorted(tpi.items()):
        m = PADDED.match(ub)
        if node != a or not m:
            continue
        bare = m.group(1)
        per_iter = int(m.group(2)) / int(m.group(3) or 1)
        keys = [(a, bare, streams, threads), (b, ub, streams, threads), (b, bare, streams, threads)]
        if any(k not in tpi for k in keys):
            continue
        sa = (padded - tpi[keys[0]]) / per_iter * 1000  # ns a step
        sb = (tpi[keys[1]] - tpi[keys[2]]) / per_iter * 1000
        if sa <= 0 or sb <= 0:
            continue  # the padding hidden in the noise of the unpadded time
        steps_a.append(sa)
        steps_b.append(sb)
        ratios.append(sa / sb)
        rows.append([ub, streams, threads, "%.3f" % sa, "%.3f" % sb, "%.2f" % (sa / sb)])
    print("phaseprobe: the padded clones' step cost on two nodes")
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(SRC_ROOT, ["bench/accuracy"]))
    print("command : %s" % " ".join(sys.argv))
    print()
    print("\n".join(textout.table(["uB", "streams", "threads", "%s ns/step" % a, "%s ns/step" % b,
                                   "%s/%s" % (a, b)], rows)))
    print()
    if len(ratios) < 2:
        print("%d padded profiles with an unpadded twin on both nodes: too few for quartiles" % len(ratios))
        return
    q = statistics.quantiles(ratios, n=4)
    print("%d padded profiles with an unpadded twin on both nodes: a step %.2f ns on %s, %.2f ns on %s "
          "(medians); %s/%s median %.2f (quartiles %.2f, %.2f)" % (
              len(ratios), statistics.median(steps_a), a, statistics.median(steps_b), b, a, b,
              statistics.median(ratios), q[0], q[2]))


if __name__ == "__main__":
    main()
