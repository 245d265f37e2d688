"""Checks cross.py --needed-only's claim: a stored node pruned to the uB
configurations needed_keys() keeps gets the same estimates (both rules the
stored run tabulated) as with all its profiles.

usage: prune_needed.py STORED_DIR NODE BUILD WORK
"""
import json
import os
import sqlite3
import subprocess
import sys

stored, node, build, work = sys.argv[1:5]
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "bench", "accuracy"))
import cross  # noqa: E402

doc0 = json.load(open(os.path.join(stored, "data.json")))
base0 = next(c["node"] for c in doc0["configs"] if c["label"] == doc0["base"])
keep = cross.needed_keys(os.path.join(stored, "raw"), os.path.join(stored, "nppdb.sqlite"), base0)
doc = json.load(open(os.path.join(stored, "data.json")))
full = os.path.join(stored, "nppdb.sqlite")
pruned = os.path.join(work, "pruned.sqlite")
cross.copy_db(full, pruned)
con = sqlite3.connect(pruned)
rows = con.execute("SELECT p.id, p.ubench, p.streams_text FROM profiles p JOIN nodes n ON n.id = p.node_id "
                   "WHERE n.label = ?", (node,)).fetchall()
drop = [(r[0],) for r in rows if not keep(r[1], r[2])]
con.executemany("DELETE FROM profiles WHERE id = ?", drop)
con.commit()
con.close()
base = next(c for c in doc["configs"] if c["label"] == doc["base"])
cfg = next(c for c in doc["configs"] if c["node"] == node)
alt = (doc["context"].get("alt") or {}).get("estimate_args", [])
same = 0
for a in doc["apps"]:
    files = [os.path.join(stored, "raw", f) for f in a["base_files"]]
    for extra in ([], alt):
        times = []
        for db in (full, pruned):
            out = os.path.join(work, "est.json")
            cmd = [os.path.join(build, "bin", "phaseprobe-estimate")] + files + [
                "--db", db, "--base", base["node"], "--nodes", node, "--json", out] + list(extra)
            if cfg["threads"] != base["threads"]:
                cmd += ["--threads", str(cfg["threads"])]
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
            est = json.load(open(out))
            n = next(x for x in est["nodes"] if x["node"] == node)
            times.append((n["time_s"], n.get("fallbacks"), n.get("missing")))
        if times[0] != times[1]:
            sys.exit("%s %s %s: %r with all profiles, %r pruned" % (a["app"], a["workload"], extra, times[0], times[1]))
        same += 1
print("pruned %d of %d profiles of %s; %d estimates unchanged" % (len(drop), len(rows), node, same))
