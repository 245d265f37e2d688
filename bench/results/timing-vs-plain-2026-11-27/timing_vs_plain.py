#!/usr/bin/env python3
"""Instrumented timing runs (sampling off) against plain runs, from stored
accuracy runs (data.json, raw/*.timing*.phases.json): per workload and
configuration the merged timing run's program total over the median plain
repetition, and, where every configuration's timing runs were taken in the
rounds (timing.aK beside plain repetition K), the one-thread / two-thread
ratio of each round, instrumented and plain.

    python3 timing_vs_plain.py RUN_FOLDER...
"""
import json
import os
import sys


def total(path):
    with open(path) as f:
        return json.load(f)["program"]["total_time_s"]


for run in sys.argv[1:]:
    with open(os.path.join(run, "data.json")) as f:
        d = json.load(f)
    print(os.path.basename(os.path.normpath(run)))
    for a in d["apps"]:
        tag = a["base_files"][0].split(".base")[0]
        raw = lambda name: os.path.join(run, "raw", "%s.%s.phases.json" % (tag, name))
        reps = {r["config"]: r for r in a["rows"]}
        cells = ["%s %.2f" % (c, total(raw(c + ".timing")) / reps[c]["measured_s"])
                 for c in reps if os.path.exists(raw(c + ".timing"))]
        line = "  %-8s timing/plain: %s" % (a["app"][:8], "  ".join(cells))
        rounds = []
        for k in range(1, 4):
            names = [raw("%s.timing.a%d" % (c, k)) for c in ("1t", "2t")]
            if all(os.path.exists(n) for n in names) and len(reps["1t"]["measured_reps"]) >= k:
                instr = total(names[0]) / total(names[1])
                plain = reps["1t"]["measured_reps"][k - 1] / reps["2t"]["measured_reps"][k - 1]
                rounds.append("%.2f/%.2f" % (instr, plain))
        if rounds:
            line += "   1t/2t per round, instrumented/plain: " + " ".join(rounds)
        print(line)
