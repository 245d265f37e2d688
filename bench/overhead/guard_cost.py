#!/usr/bin/env python3
"""bench/overhead/guard_cost.py — what the runtime's checks of memory allocated
only under a test of the thread count cost: one mincore(2) over a block
(bench/overhead/mincore_cost.c), and, for an instrumented program, how many
such calls one run makes (counted with strace) and what they add up to.

    bench/overhead/guard_cost.py [--pages 433] [--rounds 9] [--calls 10000] [--cc clang-14]
                                 [--app PATH:ARGS] [--threads 2]

Per round the micro-benchmark runs once; it prints the median time per call
over the rounds and its spread (min-max). With --app, the instrumented
program runs once under `strace -f -c -e trace=mincore` (OMP_NUM_THREADS=
--threads) and once untraced to time it; the estimate is calls x the median
cost, against that run's wall time. strace comes from Debian's strace package.
"""
import argparse
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import provenance  # noqa: E402  (bench/provenance.py)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def fail(msg):
    print("guard_cost.py: " + msg, file=sys.stderr)
    sys.exit(2)


def mincore_calls(cmd, env):
    """The mincore calls strace counted over one run of cmd (all threads)."""
    with tempfile.NamedTemporaryFile(mode="r", suffix=".strace") as out:
        r = subprocess.run(["strace", "-f", "-c", "-o", out.name, "-e", "trace=mincore"] + cmd,
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if r.returncode != 0:
            fail("%s exited with %d under strace" % (cmd[0], r.returncode))
        for line in out.read().splitlines():
            f = line.split()
            if f and f[-1] == "mincore":
                return int(f[3])
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=433, help="pages of the block (433: one LULESH -s 30 force array)")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--calls", type=int, default=10000, help="mincore calls per run")
    ap.add_argument("--cc", default="clang-14")
    ap.add_argument("--app", help="an instrumented program and its arguments, PATH:ARGS")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    if args.pages < 1 or args.rounds < 1 or args.calls < 1 or args.threads < 1:
        fail("--pages, --rounds, --calls and --threads take positive numbers")
    app = None
    if args.app:
        path, _, rest = args.app.partition(":")
        if not os.access(path, os.X_OK):
            fail("%s: not an executable program" % path)
        if not shutil.which("strace"):
            fail("strace not found (apt-get install strace)")
        app = [path] + shlex.split(rest)
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "mincore_cost")
        subprocess.run([args.cc, "-O2", os.path.join(HERE, "mincore_cost.c"), "-o", exe], check=True)
        us = []
        for _ in range(args.rounds):
            out = subprocess.run([exe, str(args.pages), str(args.calls)], check=True, capture_output=True,
                                 text=True).stdout.split()
            us.append(float(out[2]))
        run = None
        if app:
            env = dict(os.environ, OMP_NUM_THREADS=str(args.threads),
                       PHASEPROBE_OUT=os.path.join(tmp, "guard_cost.phases.json"))
            calls = mincore_calls(app, env)
            t0 = time.monotonic()
            r = subprocess.run(app, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            wall = time.monotonic() - t0
            if r.returncode != 0:
                fail("%s exited with %d" % (app[0], r.returncode))
            run = (calls, wall)
    cost = statistics.median(us)
    print("cost of the runtime's checks of guarded blocks: mincore(2) over a block, half of it resident")
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(ROOT, ["bench/overhead", "runtime"]))
    print("command : %s" % " ".join(shlex.quote(a) for a in sys.argv))
    print("rounds  : %d, %d calls a run over %d pages" % (args.rounds, args.calls, args.pages))
    print()
    print("%-6s %12s %16s" % ("pages", "us/call", "spread"))
    print("%-6d %12.2f %16s" % (args.pages, cost, "%.2f-%.2f" % (min(us), max(us))))
    if run:
        calls, wall = run
        print()
        print("%s at %d threads: %d mincore calls a run (strace -f -c), about %.1f ms at %.2f us each "
              "(over blocks of any size: an estimate), %.2f%% of one untraced run's %.3f s"
              % (" ".join(shlex.quote(a) for a in app), args.threads, calls, calls * cost / 1e3, cost,
                 100 * calls * cost / 1e6 / wall, wall))


if __name__ == "__main__":
    main()
