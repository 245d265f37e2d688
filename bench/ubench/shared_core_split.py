#!/usr/bin/env python3
"""bench/ubench/shared_core_split.py — where a program's time goes when its
threads take turns on one core, against the barrier cost the estimator
prices (bar1p - mbw1p).

    bench/ubench/shared_core_split.py --app NAME=BARRIERS=COMMAND [--app ...]
        [--rounds 5] [--threads 2] [--place '{0}'] [--bar-kib 256]
        [--build DIR] [--freq 4000]

For every round and program, side by side: the plain program at one thread
and at THREADS threads on one core (OMP_PLACES=PLACE), each under `perf
record` (cpu-clock sampling), then the bar1p and mbw1p kernels at BAR_KIB
KiB (phaseprobe-ubench-kernels, the estimator's rule) on the same placement.
The samples split each run's CPU time (on one core, its wall time) into
the program's own code, libomp (the barrier's spin-wait) and the kernel
(sched_yield, switches). Per
program it prints, per round and as medians with their range:

  gap/barrier   (time on the shared core - time at one thread) / BARRIERS,
                the times the samples' (CPU seconds of the one core)
  sync/barrier  (libomp + kernel on the shared core - the same at one
                thread) / BARRIERS
  code          the program's own code on the shared core / at one thread
  bar1p         (tpi_bar1p - tpi_mbw1p) x iterations of a sweep, this round

BARRIERS is the program's barrier count (the estimator's "barriers in
top-level regions", or regions.py's program row). Needs perf (Debian's
linux-perf) and permission to sample (perf_event_paranoid <= 1 or root);
measures only, writes nothing but its table.
"""
import argparse
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402  (bench/provenance.py)
import ubenchkernels  # noqa: E402  (bench/ubenchkernels.py)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fail(msg):
    print("shared_core_split.py: " + msg, file=sys.stderr)
    sys.exit(2)


def parse_app(text):
    parts = text.split("=", 2)
    if len(parts) != 3 or not parts[0] or not parts[2].strip():
        fail("--app %r: expected NAME=BARRIERS=COMMAND" % text)
    try:
        barriers = int(parts[1])
    except ValueError:
        fail("--app %r: barriers %r is not a whole number" % (text, parts[1]))
    if barriers <= 0:
        fail("--app %r: barriers must be positive" % text)
    argv = shlex.split(parts[2])
    if not shutil.which(argv[0]):
        fail("--app %s: %s: no such program" % (parts[0], argv[0]))
    return parts[0], barriers, argv


def env_for(threads, place):
    env = dict(os.environ)
    env.update({"OMP_NUM_THREADS": str(threads), "OMP_PLACES": place, "OMP_PROC_BIND": "close"})
    return env


def sampled_run(argv, env, freq, tmp):
    """One run's CPU seconds per part: samples / FREQ (cpu-clock; on one
    core the CPU time is the wall time, without perf's start and the
    writing of its file)."""
    data = os.path.join(tmp, "perf.data")
    p = subprocess.run(["perf", "record", "-q", "-B", "-N", "-F", str(freq), "-o", data, "--"] + argv,
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        fail("%s: exit %d under perf record: %s" % (" ".join(argv), p.returncode,
                                                      p.stderr.strip()[-300:]))
    rep = subprocess.run(["perf", "report", "-i", data, "--sort", "dso", "--stdio", "-n"],
                         capture_output=True, text=True)
    if rep.returncode != 0:
        fail("perf report: %s" % rep.stderr.strip()[-300:])
    parts = {"code": 0.0, "libomp": 0.0, "kernel": 0.0}
    total = 0
    for line in rep.stdout.splitlines():
        m = re.match(r"\s*([\d.]+)%\s+(\d+)\s+(\S+)", line)
        if not m:
            continue
        n, dso = int(m.group(2)), m.group(3)
        total += n
        if dso.startswith("libomp"):
            parts["libomp"] += n
        elif dso.startswith("[kernel"):
            parts["kernel"] += n
        else:
            parts["code"] += n  # the program, libc, libm: its own work
    if total == 0:
        fail("%s: perf took no samples" % " ".join(argv))
    return {k: v / freq for k, v in parts.items()}


def barrier_cost_us(kernels, kib, threads, place):
    """bar1p - mbw1p at KIB on the placement, per barrier (sync.cpp's rule)."""
    lines = [ubenchkernels.line(i, k, "double", "p", "s", [(kib, 8)], ubenchkernels.POLICIES["default"])
             for i, k in ((1, "sumb"), (2, "sum"))]
    try:
        bar, ref = (ubenchkernels.median_tpi(a) for a in ubenchkernels.run(kernels, lines, threads, place))
    except ubenchkernels.RunError as e:
        fail("no bar1p/mbw1p pair: %s" % e)
    iters = kib * 1024 / 8 / threads
    return (bar - ref) * iters * 1e6


def spread(values, fmt):
    return "%s (%s..%s)" % (fmt % statistics.median(values), fmt % min(values), fmt % max(values))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--app", action="append", required=True, help="NAME=BARRIERS=COMMAND")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2, help="threads on the shared core")
    ap.add_argument("--place", default="{0}", help="OMP_PLACES of the shared core")
    ap.add_argument("--bar-kib", type=float, default=256,
                    help="bar1p footprint, all threads (default 256: 128 KiB a thread)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--freq", type=int, default=4000, help="perf sampling frequency, Hz")
    args = ap.parse_args()
    if args.rounds < 1 or args.threads < 2:
        fail("--rounds must be 1 or more and --threads 2 or more")
    apps = [parse_app(a) for a in args.app]
    if not shutil.which("perf"):
        fail("perf not found (apt-get install linux-perf)")
    kernels = os.path.join(args.build, "bin", "phaseprobe-ubench-kernels")
    if not os.access(kernels, os.X_OK):
        fail("%s: not built" % kernels)

    rows = {name: [] for name, _, _ in apps}
    bars = []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for name, barriers, argv in apps:
                s1 = sampled_run(argv, env_for(1, args.place), args.freq, tmp)
                sn = sampled_run(argv, env_for(args.threads, args.place), args.freq, tmp)
                w1, wn = sum(s1.values()), sum(sn.values())
                rows[name].append({
                    "w1": w1, "wn": wn,
                    "gap": (wn - w1) / barriers * 1e6,
                    "sync": (sn["libomp"] + sn["kernel"] - s1["libomp"] - s1["kernel"]) / barriers * 1e6,
                    "code": sn["code"] / s1["code"],
                })
            bars.append(barrier_cost_us(kernels, args.bar_kib, args.threads, args.place))
            print("round %d/%d done" % (r + 1, args.rounds), file=sys.stderr)

    print("phaseprobe shared-core split: %d threads on OMP_PLACES=%s against one thread there"
          % (args.threads, args.place))
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(ROOT, ["ubench"]))
    print("command : %s" % " ".join(["bench/ubench/shared_core_split.py"] + [shlex.quote(a) for a in sys.argv[1:]]))
    print("parts   : perf record -F %d cpu-clock samples; code = the program with libc/libm, sync = libomp "
          "+ kernel" % args.freq)
    for name, barriers, argv in apps:
        print()
        print("== %s (%d barriers): %s" % (name, barriers, " ".join(argv)))
        print("%-5s %8s %8s %14s %15s %8s %10s" % ("round", "1t_cpu_s", "shared_s", "gap/barrier_us",
                                                   "sync/barrier_us", "code", "bar1p_us"))
        for i, (row, bar) in enumerate(zip(rows[name], bars)):
            print("%-5d %8.3f %8.3f %14.1f %15.1f %8.3f %10.1f" % (i + 1, row["w1"], row["wn"], row["gap"],
                                                                row["sync"], row["code"], bar))
        print("median (min..max): gap %s us, sync %s us, code %s, bar1p %s us a barrier" % (
            spread([x["gap"] for x in rows[name]], "%.1f"), spread([x["sync"] for x in rows[name]], "%.1f"),
            spread([x["code"] for x in rows[name]], "%.3f"), spread(bars, "%.1f")))


if __name__ == "__main__":
    main()
