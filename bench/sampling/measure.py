#!/usr/bin/env python3
"""Measurement half of bench/sampling/run.sh (which builds the binaries).

Each round runs every workload as plain, phaseprobe with sampling off, and
phaseprobe with sampling on, in that order; time is the kernel time the
program prints (kernel_s) or, for the examples, the process wall time.
Overhead = median(variant) / median(plain) - 1. "tpi on/off" compares the
main phase's time per iteration with sampling on and off (timing honesty).
"""
import argparse
import datetime
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import instructions  # noqa: E402  (bench/instructions.py)
import provenance  # noqa: E402  (bench/provenance.py)
import textout  # noqa: E402  (bench/textout.py)

WORKLOADS = [  # name, args; the main phase is the one with most iterations
    ("triad", ["8388608", "20"]),
    ("rows", ["32768", "256", "20"]),
    ("gather", ["4194304", "4194304", "10"]),
    ("mm", ["500"]),
]


def run(exe, args, env):
    t = time.perf_counter()
    out = subprocess.run([exe] + args, env=env, capture_output=True, text=True, check=True).stdout
    wall = time.perf_counter() - t
    for line in out.splitlines():
        if line.startswith("kernel_s "):
            return float(line.split()[1])
    return wall


def main_tpi(path):
    doc = json.load(open(path))
    p = max(doc["phases"], key=lambda p: p["iterations"])
    return p["tpi_us"], len(p["streams"])


def fmt(xs):
    return "%9.4f  %8.4f..%-8.4f" % (statistics.median(xs), min(xs), max(xs))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--cmd", default="bench/sampling/run.sh")
    ap.add_argument("--root", default=".")
    ap.add_argument("--out")
    ap.add_argument("--instructions", action="store_true",
                    help="also count the instructions of one run of each (1 thread, valgrind)")
    a = ap.parse_args()
    if a.instructions and not instructions.available():
        ap.error("--instructions needs valgrind (apt-get install valgrind)")
    problem = textout.out_dir_problem(a.out)
    if problem:
        print("measure.py: " + problem, file=sys.stderr)
        sys.exit(2)
    work = tempfile.TemporaryDirectory(prefix="pp-sampling-")  # removed at exit
    tmp = work.name
    base = dict(os.environ, OMP_NUM_THREADS=str(a.threads), OMP_PROC_BIND="true")
    for k in list(base):
        if k.startswith("PHASEPROBE_"):
            del base[k]
    rows, counts = [], []
    for name, args in WORKLOADS:
        t = {"plain": [], "off": [], "on": []}
        tpi = {"off": [], "on": []}
        nstreams = 0
        for r in range(a.runs):
            t["plain"].append(run(os.path.join(a.bin, name + ".plain"), args, base))
            for mode in ("off", "on"):
                out = os.path.join(tmp, "%s.%s.json" % (name, mode))
                env = dict(base, PHASEPROBE_SAMPLING=mode, PHASEPROBE_OUT=out)
                t[mode].append(run(os.path.join(a.bin, name + ".pp"), args, env))
                v, n = main_tpi(out)
                tpi[mode].append(v)
                if mode == "on":
                    nstreams = n
        rows.append((name, args, t, tpi, nstreams))
        if a.instructions:
            one = dict(base, OMP_NUM_THREADS="1", PHASEPROBE_OUT=os.path.join(tmp, "cg.json"))
            pp = os.path.join(a.bin, name + ".pp")
            counts.append((name, " ".join(args), instructions.count(os.path.join(a.bin, name + ".plain"), args, one),
                           instructions.count(pp, args, dict(one, PHASEPROBE_SAMPLING="off")),
                           instructions.count(pp, args, dict(one, PHASEPROBE_SAMPLING="on"))))
    now = datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ")
    lines = [
        "phaseprobe stream-sampling overhead: plain vs PHASEPROBE_SAMPLING=off vs on",
        "date:    " + now,
        "machine: " + provenance.machine(),
        "commit:  " + provenance.commit(a.root, ["clang-plugin", "runtime", "bench/sampling"]),
        "command: " + a.cmd,
        "threads: %d (OMP_PROC_BIND=true), runs: %d each, alternating plain/off/on; "
        "time = kernel time printed by the program (mm: process wall time)" % (a.threads, a.runs),
        "knobs:   defaults (PHASEPROBE_SAMPLE_PERIOD=1000, PHASEPROBE_SAMPLE_BURST=128)",
        "",
        "%-7s %-22s %-29s %-29s %-29s %8s %8s %9s %7s" % (
            "prog", "args", "plain s (median, min..max)", "off s", "on s",
            "off ovh", "on ovh", "tpi on/off", "streams"),
    ]
    worst_on = worst_off = -1e9
    for name, args, t, tpi, ns in rows:
        mp = statistics.median(t["plain"])
        off = statistics.median(t["off"]) / mp - 1
        on = statistics.median(t["on"]) / mp - 1
        worst_on, worst_off = max(worst_on, on), max(worst_off, off)
        ratio = statistics.median(tpi["on"]) / statistics.median(tpi["off"])
        lines.append("%-7s %-22s %s %s %s %7.2f%% %7.2f%% %9.3f %7d" % (
            name, " ".join(args), fmt(t["plain"]), fmt(t["off"]), fmt(t["on"]),
            100 * off, 100 * on, ratio, ns))
    lines += ["", "largest median overhead: sampling off %.2f%% (goal <= 3%%), "
              "sampling on %.2f%% (goal <= 10%%, target 3%%)" % (100 * worst_off, 100 * worst_on)]
    if counts:
        lines += ["", "instructions (valgrind callgrind, one run each, OMP_NUM_THREADS=1):",
                  "%-7s %-22s %14s %14s %14s %8s %8s" % ("prog", "args", "plain", "off", "on",
                                                       "off ovh", "on ovh")]
        for name, args, p, off, on in counts:
            lines.append("%-7s %-22s %14d %14d %14d %7.2f%% %7.2f%%" % (
                name, args, p, off, on, 100 * (off / p - 1), 100 * (on / p - 1)))
        lines.append("largest instruction overhead: sampling off %.2f%%, sampling on %.2f%%" % (
            max(100 * (c[3] / c[2] - 1) for c in counts), max(100 * (c[4] / c[2] - 1) for c in counts)))
    text = "\n".join(lines) + "\n"
    print(text, end="")
    out = a.out or os.path.join(a.root, "bench", "results", "sampling-%s-%s.txt" % (
        platform.node(), datetime.datetime.utcnow().strftime("%Y%m%d-%H%M")))
    textout.write_or_exit("measure.py", out, text)
    print("written to " + os.path.relpath(out, a.root))


if __name__ == "__main__":
    main()
