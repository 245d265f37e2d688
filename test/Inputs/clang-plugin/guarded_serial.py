# GuardedSerial_exec.c's check: each program.guarded_serial entry with
# whether its time lies within the program's serial time (total less the
# top-level regions) and takes over a third of it (the guarded work is
# 40 M of the serial 70 M turns), or the numbers; "none" without entries.
import json
import sys

f = json.load(open(sys.argv[1]))
serial = f["program"]["total_time_s"] - sum(p["time_s"] for p in f["phases"] if p["parent"] is None)
entries = f["program"].get("guarded_serial", [])
for g in entries:
    ok = serial / 3 < g["time_s"] <= serial
    print("%s: %s" % (", ".join(g["runs_if"]), "within the serial time, over a third of it" if ok
                      else "%.4f s of %.4f s serial" % (g["time_s"], serial)))
if not entries:
    print("none")
