#!/usr/bin/env python3
"""Timing honesty of stream sampling on whole programs: does the program
time that phaseprobe reports with sampling on match the one it reports with
sampling off, once the runtime has taken the sampling cost out?

Each program runs plain, instrumented with PHASEPROBE_SAMPLING=off and
instrumented with sampling on, --runs rounds; a round runs every program
once in each mode, and the order of the three modes rotates from round to
round, so that every mode and every program meets the VM's slow spells
alike (blocks of one program's runs did not: two builds measured one after
the other differed by 10% that alternating them did not show). Reported per
program: the median wall time of each, the median program.total_time_s of
the two instrumented runs, the overhead the runtime removed
(PHASEPROBE_VERBOSE's per-phase "overhead removed", summed), and the
honesty ratio: median reported time with sampling on / with sampling off
(1.00 is honest; the wall-time ratio on/off shows what sampling cost before
the correction), with the quartiles of the same ratio taken round by round.

A program is a folder holding the executables 'plain' and 'instr' (what
bench/accuracy/prepare_apps.sh builds), or a bundled example of a build:

    bench/sampling/honesty.py --build build --example 'bt=64 6' \\
        --app 'npb-bt.W=/tmp/apps/npb-bt.W' --app 'lulesh=/tmp/apps/lulesh:-s 30 -i 40 -q'

Writes the table to bench/results/honesty-<date>.txt (or --out; '-': none).
"""
import argparse
import datetime
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import provenance  # noqa: E402  (bench/provenance.py)
import textout  # noqa: E402  (bench/textout.py)


def die(msg):
    print("honesty.py: " + msg, file=sys.stderr)
    sys.exit(2)


def programs(opts):
    """(label, plain, instr, args) for every --example and --app."""
    out = []
    for spec in opts.example:
        name, _, args = spec.partition("=")
        exdir = os.path.join(opts.build, "examples")
        out.append((name + " " + args, os.path.join(exdir, name + ".plain"),
                    os.path.join(exdir, name), shlex.split(args)))
    for spec in opts.app:
        name, sep, rest = spec.partition("=")
        if not sep:
            die("--app %r: expected NAME=DIR[:ARGS]" % spec)
        folder, _, args = rest.partition(":")
        out.append((name + (" " + args if args else ""), os.path.join(folder, "plain"),
                    os.path.join(folder, "instr"), shlex.split(args)))
    for label, plain, instr, _ in out:
        for exe in (plain, instr):
            if not os.access(exe, os.X_OK):
                die("%s: %s is not an executable" % (label, exe))
    if not out:
        die("nothing to run: give --example and/or --app (see --help)")
    return out


def run(exe, args, env, ok):
    """Wall seconds and stderr of one run."""
    start = time.perf_counter()
    proc = subprocess.run([exe] + args, env=env, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if proc.returncode not in ok:
        die("%s %s failed with exit code %d" % (exe, " ".join(args), proc.returncode))
    return wall, proc.stderr


def removed_seconds(stderr):
    """Sum of the per-phase 'overhead removed' lines of PHASEPROBE_VERBOSE."""
    total = 0.0
    for line in stderr.splitlines():
        if "overhead removed" in line:
            total += float(line.split(",")[-1].split()[0])
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="build directory holding examples/ (default: %(default)s)")
    ap.add_argument("--example", action="append", default=[], metavar="NAME=ARGS",
                    help="a bundled example and its arguments (repeatable)")
    ap.add_argument("--app", action="append", default=[], metavar="NAME=DIR[:ARGS]",
                    help="a folder with 'plain' and 'instr' executables (repeatable)")
    ap.add_argument("--runs", type=int, default=7, help="rounds: runs of each build (>= 3)")
    ap.add_argument("--threads", type=int, default=0,
                    help="OMP_NUM_THREADS (default: leave the runtime's default)")
    ap.add_argument("--ok-exit", default="0", metavar="CODES",
                    help="exit codes that mean success, comma list (XSBench: 0,1)")
    ap.add_argument("--out", help="result file (default: bench/results/honesty-<date>.txt)")
    opts = ap.parse_args()
    if opts.runs < 3:
        ap.error("--runs must be at least 3")
    try:
        ok = {int(c) for c in opts.ok_exit.split(",")}
    except ValueError:
        ap.error("--ok-exit: expected a comma list of integers, found %r" % opts.ok_exit)
    progs = programs(opts)
    env = dict(os.environ, PHASEPROBE_VERBOSE="1")
    if opts.threads:
        env["OMP_NUM_THREADS"] = str(opts.threads)
    work = tempfile.TemporaryDirectory(prefix="pp-honesty-")  # removed at exit
    phases = os.path.join(work.name, "out.json")
    env["PHASEPROBE_OUT"] = phases

    wall = [{"plain": [], "off": [], "on": []} for _ in progs]
    total = [{"off": [], "on": []} for _ in progs]
    removed = [[] for _ in progs]
    modes = ("plain", "off", "on")
    for rnd in range(opts.runs):
        order = modes[rnd % 3:] + modes[:rnd % 3]
        for i, (label, plain, instr, args) in enumerate(progs):
            for mode in order:
                if mode == "plain":
                    wall[i]["plain"].append(run(plain, args, env, ok)[0])
                    continue
                t, err = run(instr, args, dict(env, PHASEPROBE_SAMPLING=mode), ok)
                wall[i][mode].append(t)
                with open(phases) as f:
                    total[i][mode].append(json.load(f)["program"]["total_time_s"])
                if mode == "on":
                    removed[i].append(removed_seconds(err))
    rows = []
    for i, (label, _, _, _) in enumerate(progs):
        med = {k: statistics.median(v) for k, v in wall[i].items()}
        toff, ton = statistics.median(total[i]["off"]), statistics.median(total[i]["on"])
        paired = statistics.quantiles([a / b for a, b in zip(total[i]["on"], total[i]["off"])], n=4)
        rows.append((label, med["plain"], med["off"], med["on"], toff, ton,
                     statistics.median(removed[i]), ton / toff, paired[0], paired[2],
                     med["on"] / med["off"]))

    lines = [
        "phaseprobe timing honesty: program time reported with stream sampling on vs off",
        "date:    %s" % datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine: %s" % provenance.machine(),
        "commit:  %s" % provenance.commit(ROOT, ["clang-plugin", "runtime"]),
        "command: %s" % " ".join(shlex.quote(a) for a in sys.argv),
        "threads: %s, rounds: %d, each running every program plain / sampling off / "
        "sampling on, the order rotating; medians" % (env.get("OMP_NUM_THREADS", "default"), opts.runs),
        "",
        "%-34s %8s %8s %8s %9s %9s %9s %10s %13s %11s" % (
            "program", "plain s", "off s", "on s", "rep.off", "rep.on", "removed",
            "rep on/off", "paired q1..q3", "wall on/off"),
    ]
    for r in rows:
        lines.append("%-34s %8.3f %8.3f %8.3f %9.3f %9.3f %9.3f %10.3f %6.3f..%5.3f %11.3f" % r)
    lines += ["",
              "rep.off, rep.on: program.total_time_s of the phase file; removed: the sampling",
              "overhead the runtime took out (all threads); rep on/off = 1.00 is honest;",
              "paired: the quartiles of rep on/off taken round by round; wall on/off is what",
              "sampling cost before the correction."]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    out = opts.out or os.path.join(ROOT, "bench", "results",
                                   "honesty-%s.txt" % datetime.date.today().isoformat())
    if out != "-":
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        textout.write_or_exit("honesty.py", out, text)
        print("written: %s" % out)


if __name__ == "__main__":
    main()
