#!/usr/bin/env python3
"""bench/ubench/short_loop_handover.py — what short worksharing loops (NPB
SP W's lhsx) pay for lines another loop wrote last, and what the runtime
reads of it (bench/ubench/short_loop_handover.c).

    bench/ubench/short_loop_handover.py [--build build] [--rounds 9] [--steps 200]

Each round runs the plain build once per mode (the sweep between the
short-loop nests split as they are, "same", or over another index,
"flipped") at two threads ({0},{1}) and at one ({0}), alternating; it
prints per round and as medians over the rounds the short loops' wall
time per invocation (their implicit barrier included) and the sweep's per
step, and flipped - same. Then one instrumented run per mode at two
threads, sampling on (the build's phaseprobe-cc), and the handover_share
and handover_rounds the runtime wrote for each loop's streams: what the
estimator's hand-over term (`--handover priced`) would read. Bad input: one line, exit 2.
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import provenance  # noqa: E402  (bench/provenance.py)

ROOT = os.path.dirname(os.path.dirname(HERE))
SRC = os.path.join(HERE, "short_loop_handover.c")
MODES = ("same", "flipped")
# One place per vCPU (run hk: libomp reads this VM's two vCPUs as one core).
CONFIGS = (("2t", {"OMP_NUM_THREADS": "2", "OMP_PLACES": "{0},{1}", "OMP_PROC_BIND": "close"}),
           ("1t", {"OMP_NUM_THREADS": "1", "OMP_PLACES": "{0}", "OMP_PROC_BIND": "close"}))


def fail(msg):
    print("short_loop_handover.py: %s" % msg, file=sys.stderr)
    sys.exit(2)


def run(exe, mode, steps, env):
    out = subprocess.run([exe, mode, str(steps)], env=dict(os.environ, **env), check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[1]), float(out[2])


def shares(exe, mode, steps, out_json):
    env = dict(CONFIGS[0][1], PHASEPROBE_OUT=out_json)
    subprocess.run([exe, mode, str(steps)], env=dict(os.environ, **env), check=True,
                   capture_output=True, text=True)
    try:
        with open(out_json) as f:
            doc = json.load(f)
    except (OSError, ValueError) as ex:
        fail("%s: %s" % (out_json, ex))
    rows = []
    for p in doc.get("phases", []):
        if p.get("kind") != "for":
            continue
        for s in p.get("streams", []):
            rows.append((p["id"].split(":", 1)[1], p.get("invocations", 0), s["id"], s["footprint_kib"],
                         s.get("handover_share"), s.get("handover_rounds")))
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default="build", help="build directory with bin/phaseprobe-cc")
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--steps", type=int, default=200, help="timed time steps a run")
    ap.add_argument("--cc", default="clang-14")
    a = ap.parse_args()
    if min(a.rounds, a.steps) < 1:
        fail("--rounds and --steps take positive numbers")
    wrapper = os.path.join(a.build, "bin", "phaseprobe-cc")
    if not os.access(wrapper, os.X_OK):
        fail("%s: not found (build phaseprobe first, or give --build)" % wrapper)
    rounds = []
    with tempfile.TemporaryDirectory() as tmp:
        plain, instr = os.path.join(tmp, "plain"), os.path.join(tmp, "instr")
        subprocess.run([a.cc, "-O3", "-fopenmp", SRC, "-o", plain], check=True)
        subprocess.run([wrapper, "-O3", "-fopenmp", SRC, "-o", instr], check=True,
                       capture_output=True)
        for _ in range(a.rounds):
            rounds.append({(label, mode): run(plain, mode, a.steps, env)
                           for label, env in CONFIGS for mode in MODES})
        read = {mode: shares(instr, mode, max(20, a.steps // 4), os.path.join(tmp, mode + ".json"))
                for mode in MODES}
    print("short loops after a sweep split the same way or another: their time, and the runtime's reading")
    print("machine : %s" % provenance.machine())
    print("commit  : %s" % provenance.commit(ROOT, ["bench/ubench", "runtime", "clang-plugin"]))
    print("command : %s" % " ".join(shlex.quote(x) for x in sys.argv))
    print("kernel  : 34 x 34 short-loop invocations a step (an omp for over 34 rows writing 5 arrays), "
          "then the sweep; %d timed steps a run, %d rounds" % (a.steps, a.rounds))
    print("(us_inv: the short loops' wall time per invocation, implicit barrier included; "
          "us_sweep: the sweep's per step; plain build)")
    print()
    groups, head = "%-7s" % "", "%-7s" % "round"
    for label, _ in CONFIGS:
        groups += "  %-53s" % ("--- %s " % label).ljust(53, "-")
        head += "  %9s %9s %9s %9s %9s    " % ("inv_same", "inv_flip", "inv_diff", "swp_same", "swp_flip")
    print(groups.rstrip())
    print(head.rstrip())

    def line(name, r):
        cells = "%-7s" % name
        for label, _ in CONFIGS:
            (i_s, w_s), (i_f, w_f) = r[(label, "same")], r[(label, "flipped")]
            cells += "  %9.4f %9.4f %+9.4f %9.1f %9.1f    " % (i_s, i_f, i_f - i_s, w_s, w_f)
        print(cells.rstrip())

    for k, r in enumerate(rounds):
        line(str(k + 1), r)
    med = {key: tuple(statistics.median(r[key][i] for r in rounds) for i in (0, 1)) for key in rounds[0]}
    line("median", med)
    diffs = [r[("2t", "flipped")][0] - r[("2t", "same")][0] for r in rounds]
    print("flipped - same at two threads, us an invocation: median %+.4f, range %+.4f..%+.4f"
          % (statistics.median(diffs), min(diffs), max(diffs)))
    print()
    print("the runtime's handover_share at two threads (instrumented, sampling on, one run a mode):")
    print("%-8s %-10s %12s %-7s %12s %10s %8s" % ("mode", "loop", "invocations", "stream",
                                                    "footprint_kib", "share", "rounds"))
    for mode in MODES:
        for loop, inv, sid, kib, share, rounds in read[mode]:
            print("%-8s %-10s %12d %-7s %12.1f %10s %8s" % (
                mode, loop, inv, sid, kib, "-" if share is None else "%.3f" % share,
                "-" if rounds is None else "%.0f" % rounds))


if __name__ == "__main__":
    main()
