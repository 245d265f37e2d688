#!/usr/bin/env python3
"""bench/accuracy/add_pricing_profiles.py — add a pricing uB measured later
to a copy of a stored run's NPPDB, against the twins that run measured.

    bench/accuracy/add_pricing_profiles.py --from NEW.sqlite --into COPY.sqlite \
        [--ubench inv1p] [--twin mbw1p]

A pricing uB (bar1p, spin1p, inv1p: estimator/src/sync.cpp) is read as
its difference to its mbw1p twin at the same node, thread count and
streams. Measuring it now into the stored NPPDB would replace the twins
too (phaseprobe-ubench stores both), and with them the other pricing uBs'
differences: on run hs's NPPDB that moved the shared-core maximum from
9.8% to 14.4% with nothing else changed. So the uB is measured beside its
twins into NEW (phaseprobe-ubench run --ubench UB, the run's node labels
and placements), and each of its profiles is copied into COPY with its tpi
(mean, median, min, max) moved by what its twin's mean differs there:
tpi_COPY = tpi_NEW - twin_NEW + twin_COPY. Profiles without a twin in
both, and those the shift would leave at or below 0 (a twin measured much
slower in NEW than in COPY: noise to look at, not a price), are left out
and counted. COPY is changed in one transaction; on any
error nothing is written and the script exits 2 with one line.
"""
import argparse
import os
import sqlite3
import sys


def fail(msg):
    print("add_pricing_profiles.py: " + msg, file=sys.stderr)
    sys.exit(2)


def open_db(path, what):
    if not os.path.exists(path):
        fail("%s: no such database (%s)" % (path, what))
    try:
        db = sqlite3.connect(path)
        db.execute("SELECT node_id, ubench, threads, streams, tpi_us FROM profiles LIMIT 1")
        return db
    except sqlite3.Error as ex:
        fail("%s: not an NPPDB: %s" % (path, ex))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--from", dest="src", required=True, help="NPPDB with the uB and its twins measured side by side")
    ap.add_argument("--into", dest="dst", required=True, help="the copy of a run's NPPDB to add the uB to")
    ap.add_argument("--ubench", default="inv1p")
    ap.add_argument("--twin", default="mbw1p")
    args = ap.parse_args()
    src, dst = open_db(args.src, "--from"), open_db(args.dst, "--into")
    nodes = {label: nid for nid, label in dst.execute("SELECT id, label FROM nodes")}
    cols = [r[1] for r in dst.execute("PRAGMA table_info(profiles)") if r[1] != "id"]
    scols = [r[1] for r in src.execute("PRAGMA table_info(profiles)")]
    if any(c not in scols for c in cols):
        fail("%s: its profiles lack columns of %s's (another schema)" % (args.src, args.dst))

    def twin(db, node_id, threads, streams):
        r = db.execute("SELECT tpi_us FROM profiles WHERE node_id=? AND ubench=? AND threads=? "
                       "AND streams=?", (node_id, args.twin, threads, streams)).fetchone()
        return r[0] if r else None

    added, skipped, nonpositive = 0, 0, 0
    rows = src.execute("SELECT n.label, p.* FROM profiles p JOIN nodes n ON n.id = p.node_id "
                       "WHERE p.ubench = ?", (args.ubench,)).fetchall()
    if not rows:
        fail("%s: no %s profiles" % (args.src, args.ubench))
    names = ["label"] + scols
    try:
        with dst:
            for row in rows:
                r = dict(zip(names, row))
                if r["label"] not in nodes:
                    fail("%s: no node '%s' (measured in %s)" % (args.dst, r["label"], args.src))
                t_new = twin(src, r["node_id"], r["threads"], r["streams"])
                t_old = twin(dst, nodes[r["label"]], r["threads"], r["streams"])
                if t_new is None or t_old is None:
                    skipped += 1
                    continue
                shift = t_old - t_new
                r["node_id"], r["run_id"] = nodes[r["label"]], None
                for c in ("tpi_us", "tpi_median", "tpi_min", "tpi_max"):
                    if r.get(c) is not None:
                        r[c] = r[c] + shift
                if not r["tpi_us"] > 0:
                    nonpositive += 1
                    continue
                dst.execute("DELETE FROM profiles WHERE node_id=? AND ubench=? AND threads=? AND "
                            "streams=?", (r["node_id"], r["ubench"], r["threads"], r["streams"]))
                dst.execute("INSERT INTO profiles (%s) VALUES (%s)" % (
                    ", ".join(cols), ", ".join("?" * len(cols))), [r[c] for c in cols])
                added += 1
    except sqlite3.Error as ex:
        fail("%s: %s" % (args.dst, ex))
    print("%s: %d %s profiles added against its %s twins, %d without a twin and %d shifted "
          "to a tpi at or below 0 left out"
          % (args.dst, added, args.ubench, args.twin, skipped, nonpositive))


if __name__ == "__main__":
    main()
