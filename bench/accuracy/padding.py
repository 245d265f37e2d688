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

With --phases RUN (a results folder of run.py or cross.py; --nodes then
names two of its configurations) it sets each matched phase's measured
speed-up from A to B (its timing runs) beside its clone's, padded and
unpadded, with the padding's share of the clone's time on A: where the
phase goes the unpadded clone's way, the padding stood in for stalls the
clone's walk does not make, not for arithmetic.

Python 3 standard library only. Exit 2 on bad input (one line).
"""

import argparse
import json
import os
import re
import sqlite3
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import provenance  # noqa: E402  (bench/provenance.py)
import textout  # noqa: E402  (bench/textout.py)

PADDED = re.compile(r"^(.*)\+w(\d+)(?:/(\d+))?$")
COMPUTE_UBS = ("cadd", "cmul", "cfma", "caddf", "cmulf", "cfmaf", "cdiv", "csqrt", "tadd", "tmul")
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


def phase_table(args, a, b):
    """Per matched phase of RUN: measured speed-up a -> b against its clone's."""
    path = os.path.join(args.phases, "data.json")
    try:
        with open(path) as f:
            data = json.load(f)
        configs = {c["label"]: c for c in data["configs"]}
    except (OSError, ValueError, KeyError, TypeError) as ex:
        fail("%s: %s" % (path, ex))
    for c in (a, b):
        if c not in configs:
            fail("%s: no configuration %s (have %s)" % (path, c, ", ".join(sorted(configs))))
    na, nb = configs[a]["node"], configs[b]["node"]
    db = args.db or os.path.join(args.phases, "nppdb.sqlite")
    if not os.path.isfile(db):
        fail("%s: no such database" % db)
    tpi = profiles(db, [na, nb])

    def one(node, ub, streams):
        hits = [v for (l, u, s, _), v in tpi.items() if l == node and u == ub and s == streams]
        return hits[0] if len(hits) == 1 else None

    rows = []
    for app in data.get("apps", []):
        for ph in app.get("phases", []):
            pa = (ph.get("per_config") or {}).get(a) or {}
            pb = (ph.get("per_config") or {}).get(b) or {}
            ub, streams = ph.get("ubench"), ph.get("streams")
            if not ph.get("matched") or not ub or not pa.get("measured_s") or not pb.get("measured_s"):
                continue
            m = PADDED.match(ub)
            ca, cb = one(na, ub, streams), one(nb, ub, streams)
            ua = ub_ = None
            if m:
                ua, ub_ = one(na, m.group(1), streams), one(nb, m.group(1), streams)

            def ratio(x, y):
                return "%.2f" % (x / y) if x and y else "-"
            rows.append(["%s %s" % (app["app"], app["workload"]), ph["id"], "%.2f" % ph.get("weight", 0),
                         ub, ratio(pa["measured_s"], pb["measured_s"]), ratio(ca, cb), ratio(ua, ub_),
                         "%.0f%%" % (100 * (1 - ua / ca)) if ua and ca else "-"])
    print("phaseprobe: phases' speed-ups against their clones', padded and unpadded")
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(SRC_ROOT, ["bench/accuracy"]))
    print("command : %s" % " ".join(sys.argv))
    print("data    : %s (phase: median of its timing runs; clone: NPPDB tpi on %s / on %s)" % (
        args.phases, na, nb))
    print()
    print("\n".join(textout.table(["workload", "phase", "weight", "clone", "phase %s/%s" % (a, b),
                                   "clone", "unpadded", "padding on %s" % a], rows)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--db", help="NPPDB (a results folder's nppdb.sqlite; with --phases, its own by default)")
    ap.add_argument("--nodes", required=True, metavar="A,B",
                    help="the two nodes to compare (with --phases: two of the run's configurations)")
    ap.add_argument("--phases", metavar="RUN", help="a results folder: its phases against their clones")
    args = ap.parse_args()
    nodes = [n for n in args.nodes.split(",") if n]
    if len(nodes) != 2:
        fail("--nodes %s: expected two nodes A,B" % args.nodes)
    if args.phases:
        phase_table(args, *nodes)
        return
    if not args.db:
        fail("--db: required without --phases")
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
    else:
        q = statistics.quantiles(ratios, n=4)
        print("%d padded profiles with an unpadded twin on both nodes: a step %.2f ns on %s, %.2f ns on %s "
              "(medians); %s/%s median %.2f (quartiles %.2f, %.2f)" % (
                  len(ratios), statistics.median(steps_a), a, statistics.median(steps_b), b, a, b,
                  statistics.median(ratios), q[0], q[2]))
    compute_table(tpi, a, b)


def compute_table(tpi, a, b):
    """The compute uBs (dependent add, multiply, multiply-add, division and
    square-root chains) on both nodes: how arithmetic of one kind moves from A to B beside the
    padding step (a multiply then an add), the yardstick for a padding that
    follows a phase's own mix of work."""
    rows = []
    for (node, ub, streams, threads), ta in sorted(tpi.items()):
        tb = tpi.get((b, ub, streams, threads))
        if node != a or ub not in COMPUTE_UBS or not tb:
            continue
        rows.append([ub, threads, "%.3f" % (ta * 1000), "%.3f" % (tb * 1000), "%.2f" % (ta / tb)])
    if rows:
        print()
        print("compute uBs (4 independent chains of one operation kind; ns per element):")
        print("\n".join(textout.table(["uB", "threads", "%s ns" % a, "%s ns" % b, "%s/%s" % (a, b)], rows)))


if __name__ == "__main__":
    main()
