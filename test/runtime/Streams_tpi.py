"""Timing honesty check for Streams_tpi_exec.c: runs the program alternately
with sampling on (at a deliberately heavy period, where the uncorrected
sampling cost would double the phase time) and off, and compares the median
time per iteration of the first phase (the minimum over runs: on a shared,
busy machine the fastest run is the least disturbed one). Prints verdicts.

usage: Streams_tpi.py PROGRAM OUTDIR [RUNS] [PERIOD]
"""
import json
import os
import statistics
import subprocess
import sys


def tpi(prog, out, sampling, period):
    env = dict(os.environ, OMP_NUM_THREADS="1", PHASEPROBE_OUT=out,
               PHASEPROBE_SAMPLING=sampling, PHASEPROBE_SAMPLE_PERIOD=period,
               PHASEPROBE_VERBOSE="1")
    r = subprocess.run([prog], env=env, capture_output=True, text=True, check=True)
    removed = 0.0
    for line in r.stderr.splitlines():
        if "overhead removed" in line:
            removed = float(line.split(",")[-1].split()[0])
    doc = json.load(open(out))
    return doc["phases"][0]["tpi_us"], doc["program"]["total_time_s"], removed


def main():
    prog, outdir = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    period = sys.argv[4] if len(sys.argv) > 4 else "5"
    on, off, total_on, total_off, removed = [], [], [], [], []
    for i in range(runs):
        t, tot, rem = tpi(prog, os.path.join(outdir, "on.json"), "on", period)
        on.append(t), total_on.append(tot), removed.append(rem)
        t, tot, _ = tpi(prog, os.path.join(outdir, "off.json"), "off", period)
        off.append(t), total_off.append(tot)
    r = min(on) / min(off)
    slow = min(total_on) / min(total_off)
    print("tpi on/off %.3f (program time on/off %.2f, %.3f s removed per run)"
          % (r, slow, statistics.median(removed)), file=sys.stderr)
    # The check has teeth only if sampling really cost something here.
    # Uncorrected, tpi on/off would be about the program's slowdown (3-5x
    # at period 5); the band is wide because a busy machine preempts runs.
    print("sampling cost visible: %s" % ("yes" if slow > 1.5 else "no"))
    print("tpi honest: %s" % ("yes" if 0.5 <= r <= 2.0 else "no (%.3f)" % r))
    return 0


if __name__ == "__main__":
    sys.exit(main())
