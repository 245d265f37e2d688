# GuardedSerial_exec.c's check: each program.guarded_serial entry with
# whether its time lies within the program's serial time (total less the
# top-level regions) and within a quarter (or 5 ms) of what the program's
# own clock gave its guarded work (argument 2, its stderr: "guarded work X
# s"), the region forked inside left out; else the numbers. "none" without
# entries.
import json
import re
import sys

f = json.load(open(sys.argv[1]))
own = None
if len(sys.argv) > 2:
    m = re.search(r"guarded work ([0-9.]+) s", open(sys.argv[2]).read())
    own = float(m.group(1)) if m else None
serial = f["program"]["total_time_s"] - sum(p["time_s"] for p in f["phases"] if p["parent"] is None)
entries = f["program"].get("guarded_serial", [])
for g in entries:
    t = g["time_s"]
    ok = own is not None and t <= serial and abs(t - own) <= max(0.25 * own, 0.005)
    print("%s: %s" % (", ".join(g["runs_if"]),
                      "within the serial time, the program's own clock of its guarded work within a quarter"
                      if ok else "%.4f s, own clock %s, of %.4f s serial" % (t, own, serial)))
if not entries:
    print("none")
