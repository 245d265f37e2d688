#!/usr/bin/env python3
"""bench/ubench/fault_cost.py — what a first-touch page fault costs a
program's region, against what the pf1p uB says, per configuration.

    bench/ubench/fault_cost.py --app NAME=FOLDER[:ARGS] [--build build]
        [--config LABEL:THREADS[:PLACES[:BIND[:WAIT]]] ...] [--rounds 7]
        [--min-faults 10000] [--kib 4096] [--out FILE]

The program (a folder with the instrumented build 'instr', as
bench/accuracy/prepare_apps.sh makes it; LULESH allocates and frees its
temporaries every step) runs with stream sampling off twice per round and
configuration: as it is, and with glibc's allocator keeping what it frees
(bench/scaling/run.py's KEEP_FREED), which takes most of its faults away.
A top-level region's cost per fault is the difference of its two times over
the difference of its two fault counts: wall microseconds a fault, what the
estimator charges a region (estimator/README.md). Regions whose counts
differ by fewer than --min-faults are left out; 'all' sums the others.

In the same rounds the touch kernel (pf1p, one private stream of --kib KiB,
the page size apart) runs with both give-backs: the master's (the kernel
since 2026-11-25: the whole stream given back between sweeps, as a
program's serial code frees it) and each thread's own slice
(PHASEPROBE_UBENCH_GIVE_BACK=thread, the kernel before); its cost per fault
is the estimator's: time per iteration over the thread count.

The pages a region faults on were given back before by the serial code
that freed them: from the same two runs, the time outside the top-level
regions (program time less theirs) as it is less kept, over the difference
of the regions' fault counts, is the serial code's wall microseconds per
page given back ('serial give-back'), against the release kernel (gb1p:
the same sweeps, the master's give-back timed) at each configuration.

Prints per configuration and line the median over the rounds and the
spread (min-max). Bad input: one line, exit 2.
"""
import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(1, os.path.join(ROOT, "bench", "accuracy"))
import apps as appspec  # noqa: E402  (bench/apps.py)
import provenance  # noqa: E402
import textout  # noqa: E402
import run as accuracy  # noqa: E402  (bench/accuracy/run.py: configurations)
import ubenchkernels  # noqa: E402  (bench/ubenchkernels.py)

PROG = "fault_cost.py"
GIVE_BACKS = ("master", "thread")


def fail(msg):
    """Bad input or a refusal: one line, exit 2."""
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    sys.exit(2)


def keep_freed():
    """bench/scaling/run.py's allocator settings (a module named 'run' too)."""
    spec = importlib.util.spec_from_file_location("scaling_run",
                                                  os.path.join(ROOT, "bench", "scaling", "run.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod.KEEP_FREED


def page_cost(kernels, cfg, kib, kernel, give_back="master"):
    """A page kernel's wall microseconds a page at this configuration: the
    touch kernel's a fault (its pages given back the `give_back` way), the
    release kernel's a page given back."""
    # 9 repetitions of at least 20 ms.
    line = ubenchkernels.line(1, kernel, "double", "p", "s", [(kib, os.sysconf("SC_PAGESIZE"))],
                              (9, 9, 100, 10, 0.02))
    try:
        answer, = ubenchkernels.run(kernels, [line], cfg["threads"], cfg["env"].get("OMP_PLACES"),
                                    cfg["env"].get("OMP_PROC_BIND"),
                                    env=dict(cfg["env"], PHASEPROBE_UBENCH_GIVE_BACK=give_back))
    except ubenchkernels.RunError as ex:
        fail("the %s kernel at %g KiB: %s" % (kernel, kib, ex))
    return ubenchkernels.median_tpi(answer) * 1e6 / cfg["threads"]


def regions(app, cfg, extra, work):
    """{top-level region id: (time s, page faults)} of one instrumented run,
    and its time outside them (s)."""
    out = os.path.join(work, "run.phases.json")
    env = appspec.clean_env(dict(cfg["env"], PHASEPROBE_SAMPLING="off", PHASEPROBE_OUT=out, **extra))
    cmd = [os.path.join(app["path"], "instr")] + appspec.expand_args(app["args"], cfg["threads"])
    p = subprocess.run(cmd, env=env, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    if p.returncode != 0:
        fail("%s on %s: exit %d: %s" % (app["app"], cfg["label"], p.returncode,
                                         (p.stderr.strip().splitlines() or ["no message"])[-1]))
    try:
        with open(out) as f:
            doc = json.load(f)
    except (OSError, ValueError) as ex:
        fail("%s on %s: no phase file it wrote could be read: %s" % (app["app"], cfg["label"], ex))
    top = {p["id"]: (p["time_s"], p.get("page_faults") or 0)
           for p in doc.get("phases", []) if not p.get("parent")}
    return top, doc["program"]["total_time_s"] - sum(t for t, _ in top.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--app", required=True, help="NAME=FOLDER[:ARGS] (prepare_apps.sh's folder)")
    ap.add_argument("--build", default="build")
    ap.add_argument("--config", action="append", default=[],
                    help="LABEL:THREADS[:PLACES[:BIND[:WAIT]]] (default 1t, the cores, all threads on one core)")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--min-faults", type=int, default=10000)
    ap.add_argument("--kib", type=float, default=4096, help="the touch kernel's stream (the quick grid's)")
    ap.add_argument("--out")
    args = ap.parse_args()
    try:
        app = appspec.parse_app(args.app, folder_only=True)
        configs = [accuracy.parse_config(c) for c in args.config] or accuracy.default_configs(args.build)
    except appspec.InputError as ex:
        fail(str(ex))
    if args.rounds < 1 or args.min_faults < 1 or not args.kib > 0:
        fail("--rounds and --min-faults must be positive, --kib above 0")
    problem = textout.out_dir_problem(args.out)
    if problem:
        fail(problem)
    kernels = os.path.join(args.build, "bin", "phaseprobe-ubench-kernels")
    if not os.access(kernels, os.X_OK):
        fail("%s: not built (cmake --build %s)" % (kernels, args.build))
    keep = keep_freed()

    # (config label, line) -> one value per round
    res = {}
    faults = {}
    with tempfile.TemporaryDirectory(prefix="fault-cost-") as work:
        for r in range(args.rounds):
            for cfg in configs:
                for gb in GIVE_BACKS:
                    res.setdefault((cfg["label"], "pf1p, give-back: " + gb), []).append(
                        page_cost(kernels, cfg, args.kib, "touch", gb))
                res.setdefault((cfg["label"], "gb1p (release kernel)"), []).append(
                    page_cost(kernels, cfg, args.kib, "release"))
                plain, plain_out = regions(app, cfg, {}, work)
                kept, kept_out = regions(app, cfg, keep, work)
                all_faults = sum(n for _, n in plain.values()) - sum(n for _, n in kept.values())
                if all_faults >= args.min_faults:
                    what = app["app"] + " serial give-back"
                    res.setdefault((cfg["label"], what), []).append(
                        (plain_out - kept_out) / all_faults * 1e6)
                    faults.setdefault((cfg["label"], what), []).append(all_faults)
                dt = df = 0.0
                for rid, (t, n) in plain.items():
                    if rid not in kept or n - kept[rid][1] < args.min_faults:
                        continue
                    d = n - kept[rid][1]
                    res.setdefault((cfg["label"], app["app"] + " " + rid), []).append(
                        (t - kept[rid][0]) / d * 1e6)
                    faults.setdefault((cfg["label"], app["app"] + " " + rid), []).append(d)
                    dt += t - kept[rid][0]
                    df += d
                if df:
                    res.setdefault((cfg["label"], app["app"] + " all"), []).append(dt / df * 1e6)
                    faults.setdefault((cfg["label"], app["app"] + " all"), []).append(df)
            sys.stderr.write("round %d/%d done\n" % (r + 1, args.rounds))

    lines = ["fault cost: a region's wall time a first-touch page fault, against the pf1p uB, "
             "and the serial code's a page given back, against gb1p",
             "machine : %s" % provenance.machine(),
             "commit  : %s" % provenance.commit(ROOT, ["ubench/kernels", "bench/ubench"]),
             "command : %s" % " ".join(sys.argv),
             "program : %s %s (instrumented, sampling off; as it is, and with glibc keeping freed "
             "memory)" % (app["path"], " ".join(app["args"])),
             "configs : %s" % "; ".join("%s = %s" % (c["label"], accuracy.env_text(c)) for c in configs),
             "rounds  : %d, every line of a configuration measured once a round" % args.rounds,
             ""]
    rows = []
    for cfg in configs:
        for (label, what), v in res.items():
            if label != cfg["label"]:
                continue
            n = faults.get((label, what))
            rows.append([label, what, "%.3f" % statistics.median(v), "%.3f-%.3f" % (min(v), max(v)),
                         "%d" % statistics.median(n) if n else ""])
    lines += textout.table(["config", "what", "us/page", "spread", "faults (median)"], rows)
    textout.emit(PROG, lines, args.out)


if __name__ == "__main__":
    main()
