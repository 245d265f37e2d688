#!/usr/bin/env python3
"""bench/ubench/clone_shape.py — a program's phase against uB clones of it,
time per iteration side by side.

    bench/ubench/clone_shape.py --build build --example 'mm 1000' [--phase ID] \\
        --clone 'mbw2hpc 7812.5:8;7812.5:8000' \\
        --clone 'mbw2hpc+r64 7812.5:8:1000;7812.5:8000' [--threads 1,2] [--rounds 5]
        [--out FILE]
    bench/ubench/clone_shape.py --program '/path/to/instrumented/npb-bt.W' --phase bt.c:3562:1 ...

Per round and thread count: the bundled example's instrumented build (or
--program, any program built with the plugin; `{threads}` in its
arguments becomes the thread count) once
(PHASEPROBE_SAMPLING=off: its heaviest phase's time per iteration), then
each clone measured by `phaseprobe-ubench run --params` (the default
grid's repetition policy, a scratch NPPDB), in that order, so a drift of
the machine moves them alike. Prints per thread count each item's median
time per iteration over the rounds (ns), its spread (min-max) and the
median over rounds of clone / phase. Shows what a clone parameter changes
(reuse windows `+rR`, padding `+wN/M`) against the phase it stands for.

--handoff-probe probes a cache line's round trip between the first two
CPUs right before and after every measurement (bench/accuracy/
handoff_probe.py) and adds, per item, the median over the measurements
both of whose probes read the near shape (under twice the fastest probe),
and the clone / phase ratio over the rounds where both were near: on a VM
whose host parts its vCPUs at times, the node the clone and the phase
both met.
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402  (bench/provenance.py)
import textout  # noqa: E402  (bench/textout.py)
import ubenchparams  # noqa: E402  (bench/ubenchparams.py)
from apps import clean_env, expand_args  # noqa: E402  (bench/apps.py)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "accuracy"))
import handoff_probe  # noqa: E402  (bench/accuracy/handoff_probe.py)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
PROG = "clone_shape.py"


def fail(msg):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(2)


# The instrumented program whose phase is compared: its path and arguments,
# --example or --program as given, what the table calls it, and whether
# its exit code counts (a bundled example's does).
Program = collections.namedtuple("Program", "exe argv spec label checked")


def program_of(args, build):
    """The program --example or --program names, checked once."""
    spec = args.example or args.program
    name, *argv = spec.split()
    exe = name if args.program else os.path.join(build, "examples", name)
    if not os.access(exe, os.X_OK):
        fail("--%s %r: %s: %s" % ("program" if args.program else "example", spec, exe,
                                  "not an executable" if args.program else "not built"))
    return Program(exe, argv, spec, args.example or os.path.basename(exe), not args.program)


def phase_tpi_ns(program, threads, tmp, phase_id=None, places="cores", bind="close"):
    exe = program.exe
    args = expand_args(program.argv, threads)
    out = os.path.join(tmp, "phases.json")
    if os.path.exists(out):
        os.remove(out)  # a run that writes none must not read the last one's
    env = clean_env({"OMP_NUM_THREADS": str(threads), "OMP_PROC_BIND": bind,
                     "OMP_PLACES": places, "PHASEPROBE_SAMPLING": "off", "PHASEPROBE_OUT": out})
    subprocess.run([exe] + args, env=env, check=program.checked, stdout=subprocess.DEVNULL,
                   cwd=tmp)
    if not os.path.exists(out):
        fail("%s wrote no phase file (built with the plugin?)" % exe)
    with open(out) as f:
        phases = json.load(f)["phases"]
    if phase_id:
        # The heaviest phase is often the region around the others (the
        # example bt's time-step region), whose tpi is not a loop's.
        phases = [p for p in phases if p["id"] == phase_id]
        if not phases:
            fail("--phase %r: no such phase in %s's phase file" % (phase_id, program.spec))
    return max(phases, key=lambda p: p["time_s"])["tpi_us"] * 1000


def clone_tpi_ns(build, clone, threads, tmp, n, places="cores", bind="close"):
    try:
        got = ubenchparams.measure(os.path.join(build, "bin", "phaseprobe-ubench"), [clone], threads,
                                   tmp, "c%d-%d" % (n, threads), places=places, bind=bind)
    except ubenchparams.RunError as ex:
        fail("--clone %r: %s" % (clone, ex))
    (tpi,) = got.values()
    return tpi * 1000


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    which = ap.add_mutually_exclusive_group(required=True)
    which.add_argument("--example", help="a bundled example and its arguments")
    which.add_argument("--program", help="an instrumented program's path and arguments "
                       "({threads}: the thread count); its exit code is not checked")
    ap.add_argument("--phase", help="the phase id to compare (default: the heaviest phase)")
    ap.add_argument("--clone", action="append", required=True, help="'UB K:S[...]' as params lines")
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--places", default="cores",
                    help="OMP_PLACES of the phase's and the clones' runs (default cores: '{1}' puts one "
                    "thread on the second CPU, '{0}' two threads on one)")
    ap.add_argument("--bind", default="close", help="OMP_PROC_BIND of both (default close)")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--handoff-probe", action="store_true",
                    help="probe the node's shape around every measurement; add near-shape medians")
    ap.add_argument("--out", help="also write the table here (atomically)")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    if args.out and textout.out_dir_problem(args.out):
        fail(textout.out_dir_problem(args.out))
    try:
        threads = [int(t) for t in args.threads.split(",")]
    except ValueError:
        fail("--threads %r: a comma-separated list of thread counts" % args.threads)
    lines = ["phaseprobe clone shape: a phase against its uB clones, time per iteration",
             "machine : %s" % provenance.machine(),
             "commit  : %s" % provenance.commit(ROOT, ["ubench", "runtime", "bench/ubench"]),
             "command : %s" % " ".join(sys.argv),
             "rounds  : %d; per round the phase (instrumented, sampling off), then each clone" % (
                 args.rounds),
             "places  : OMP_PLACES=%s OMP_PROC_BIND=%s" % (args.places, args.bind),
             ""]
    program = program_of(args, build)
    cpus = handoff_probe.first_two_cpus()
    if args.handoff_probe and not cpus:
        fail("--handoff-probe: needs two CPUs, this process may run on one")
    rows, measured = [], []
    with tempfile.TemporaryDirectory() as tmp:
        probe = None
        if args.handoff_probe:
            try:
                probe = handoff_probe.HandoffProbe(tmp, cpus)
            except handoff_probe.ProbeError as ex:
                fail("--handoff-probe: %s" % ex)

        def measured_with_probes(fn):
            if not probe:
                return fn(), None
            try:
                return probe.around(fn)
            except handoff_probe.ProbeError as ex:
                fail(str(ex))

        for th in threads:
            phase, clones = [], [[] for _ in args.clone]
            for _ in range(args.rounds):
                phase.append(measured_with_probes(
                    lambda: phase_tpi_ns(program, th, tmp, args.phase, args.places, args.bind)))
                for n, c in enumerate(args.clone):
                    clones[n].append(measured_with_probes(
                        lambda: clone_tpi_ns(build, c, th, tmp, n, args.places, args.bind)))
            items = [("%s of %s" % (args.phase or "phase", program.label), phase)] + list(zip(args.clone, clones))
            measured.append((th, items))
    limit = None
    if probe:
        limit = handoff_probe.near_limit(p for _, items in measured for _, vs in items for _, p in vs)
        lines.insert(-1, "probe   : a cache line's round trip between CPUs %d and %d around every measurement; "
                         "near: both probes under %.0f ns" % (cpus[0], cpus[1], limit))
    near = lambda p: handoff_probe.is_near(p, limit)
    for th, items in measured:
        phase = items[0][1]
        for label, vs in items:
            v = [x for x, _ in vs]
            ratio = statistics.median(c / p for c, (p, _) in zip(v, phase))
            row = [str(th), label, "%.3f" % statistics.median(v), "%.3f-%.3f" % (min(v), max(v)),
                   "%.2f" % ratio]
            if probe:
                nv = [x for x, p in vs if near(p)]
                pairs = [c / ph for (c, pc), (ph, pp) in zip(vs, phase) if near(pc) and near(pp)]
                row += ["%d/%d" % (len(nv), len(vs)), "%.3f" % statistics.median(nv) if nv else "-",
                        "%.2f" % statistics.median(pairs) if pairs else "-"]
            rows.append(row)
    head = ["threads", "item", "ns/iter", "spread", "vs phase"]
    if probe:
        head += ["near", "near ns/iter", "near vs phase"]
    lines += textout.table(head, rows)
    textout.emit(PROG, lines, args.out)


if __name__ == "__main__":
    main()
