#!/usr/bin/env python3
"""How programs and uB clones scale across this machine's configurations,
measured side by side, round after round.

    bench/scaling/run.py [--build build] [--example NAME=ARGS ...]
        [--app NAME=PATH[:ARGS] ...] [--apps-file FILE] [--ok-exit NAME=CODES]
        [--clone 'UB K:S[;K:S...]' ...] [--config LABEL:THREADS[:PLACES[:BIND]] ...]
        [--keep-freed-memory] [--ref LABEL] [--rounds 10] [--clone-s 1.0] [--out FILE]

The ratio rule of phaseprobe-estimate carries a phase's base time to
another configuration with its matched uB's ratio between the two. When an
estimate misses, the question is whose ratio was wrong: the program's on
that occasion (the machine was slower while it ran) or the uB's (it does not
behave like the phase). Profiles in the NPPDB were measured at another time
than the program, so they cannot answer it. This bench measures both at the
same time: every round runs each program (its plain build) and each uB
clone (the kernel program, driven directly, for --clone-s seconds) on every
configuration, the order rotating from round to round, and prints

  - per item and configuration: median, fastest and slowest time (a clone's
    time per iteration), their spread, and the ratio to the reference
    configuration (the median of the rounds' ratios, and their range);
  - the ratio of every round, items side by side: whether slow rounds of a
    program coincide with slow rounds of a clone;
  - for clones, how far apart their repetitions within one measurement lie
    (the slowest over the fastest; its median and maximum over the rounds);
  - the CPU time the hypervisor took from this VM (steal) during the rounds;
  - for programs, the minor page faults of a run (median over the rounds).
    With --keep-freed-memory every program is also measured with glibc's
    allocator told to keep freed memory instead of returning it to the
    system (MALLOC_MMAP_THRESHOLD_, MALLOC_TRIM_THRESHOLD_, MALLOC_TOP_PAD_):
    a program that allocates and frees large temporaries every step (LULESH)
    otherwise maps them afresh and faults on every page at first touch, a
    cost per page that no stream uB has (the pf1p uB prices it) and that
    does not scale with the thread count; the difference between the two
    rows is what those faults cost.

A clone is given as phaseprobe-match reports a matched uB: its name (with
+eE for one kernel iteration per E of the phase's, +wN for a padded one)
and its streams, footprint KiB and stride bytes, as in
`phaseprobe-ubench clone` output ('mbw1c+w3 448:56'). Examples are the
plain builds of the bundled examples in <build>/examples; applications are
folders with a 'plain' executable (bench/accuracy/prepare_apps.sh builds
them), as in the other benches.

Python 3 standard library. Bad input: one line, exit 2, nothing written; a
failing program or kernel: one line, exit 1.
"""
import argparse
import os
import resource
import shlex
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(1, os.path.join(ROOT, "bench", "accuracy"))
import apps as appspec  # noqa: E402  (bench/apps.py)
import provenance  # noqa: E402
import textout  # noqa: E402  (bench/textout.py)
import ubenchkernels  # noqa: E402  (bench/ubenchkernels.py)
import ubenchlist  # noqa: E402  (bench/ubenchlist.py)
import run as accuracy  # noqa: E402  (bench/accuracy/run.py: configurations, running things)

InputError = appspec.InputError
WorkError = accuracy.WorkError

CLONE_REPS = 8  # repetitions of a clone per measurement: enough for a within-run spread

# glibc's allocator keeping what a program frees (it maps blocks of 128 KiB
# and more with mmap and unmaps them when freed, and trims the heap's top):
# the same program without first-touch faults on its recycled temporaries.
KEEP_FREED = {"MALLOC_MMAP_THRESHOLD_": "4294967296", "MALLOC_TRIM_THRESHOLD_": "4294967296",
              "MALLOC_TOP_PAD_": "268435456"}


def fail(msg, code):
    print("run.py: " + msg, file=sys.stderr)
    sys.exit(code)


# --------------------------------------------------------------------------
# What is measured
# --------------------------------------------------------------------------

def catalogue(build):
    """uB name -> (kernel, type, access, pattern), from `phaseprobe-ubench list`."""
    _, out = accuracy.run([accuracy.tool(build, "phaseprobe-ubench"), "list"], appspec.clean_env({}), None,
                          "listing the uBs", 120)
    return ubenchlist.parse(out)


def parse_clone(spec, defs):
    """'UB[+eE][+rR][+cB|+jB][+kC][+wN[/M]] K:S[:W][;K:S[:W]...]' -> an item
    measuring that uB configuration (E: phase iterations per kernel
    iteration, as the NPPDB counts them; R walks of each W-access reuse
    window; B accesses a column in blocks, for strided streams of a step
    above one element, +j in jumping runs: one column of a random block an
    execution; C copies of the streams, one walked a sweep; N
    padding steps after every M-th iteration), as phaseprobe-ubench names
    them."""
    parts = spec.split()
    if len(parts) != 2:
        raise InputError("--clone %r: expected 'UB K:S[;K:S...]' (a uB and its streams)" % spec)
    name, streams = parts
    base, _, work = name.partition("+w")
    work, _, work_every = work.partition("/")
    base, _, copies = base.partition("+k")
    base, _, span = base.partition("+c")
    base, _, run = base.partition("+j")
    jump = 1 if run else 0
    span = span or run
    base, _, repeats = base.partition("+r")
    base, _, every = base.partition("+e")
    if base not in defs:
        raise InputError("--clone %r: no uB '%s' (phaseprobe-ubench list names them)" % (spec, base))
    kernel, typ, access, pattern = defs[base]
    try:
        work = int(work) if work else 0
        work_every = int(work_every) if work_every else 1
        every = int(every) if every else 1
        repeats = int(repeats) if repeats else 1
        span = int(span) if span else 0
        copies = int(copies) if copies else 1
        pairs = [tuple(float(x) for x in s.split(":")) for s in streams.split(";")]
        windows = [int(p[2]) if len(p) == 3 else 0 for p in pairs]
        pairs = [p[:2] for p in pairs]
        if (work < 0 or every < 1 or repeats < 1 or work_every < 1 or span < 0 or copies < 1
                or any(len(p) != 2 or p[0] <= 0 or p[1] <= 0 for p in pairs) or min(windows) < 0):
            raise ValueError
    except ValueError:
        raise InputError("--clone %r: streams are KiB:STRIDE pairs of positive numbers (or "
                         "KiB:STRIDE:WINDOW), the padding (+wN or +wN/M), the iterations per "
                         "kernel iteration (+eE), the walks of a window (+rR), the "
                         "column span (+cB) and the copies (+kC) whole numbers" % spec)
    if len(pairs) != len(access):
        raise InputError("--clone %r: %s has %d stream(s), %d given" % (spec, base, len(access), len(pairs)))
    return {"kind": "clone", "label": "clone " + spec, "kernel": kernel, "type": typ, "access": access,
            "pattern": pattern, "streams": pairs, "work": work, "work_every": work_every, "every": every,
            "repeats": repeats, "windows": windows, "span": span, "copies": copies,
            "jump": jump, "unit": "us/it/thr"}


def parse_example(spec, build):
    name, eq, args = spec.partition("=")
    path = os.path.join(os.path.abspath(build), "examples", name + ".plain")
    if not eq or not name:
        raise InputError("--example %r: expected NAME=ARGS (e.g. 'nbody=8192 4')" % spec)
    if not os.access(path, os.X_OK):
        raise InputError("--example %r: %s: not built (build the project into %s)" % (spec, path, build))
    try:
        argv = shlex.split(args)
    except ValueError as ex:
        raise InputError("--example %r: ARGS: %s" % (spec, ex))
    return {"kind": "program", "label": "%s %s" % (name, args.strip()), "name": name, "exe": path,
            "args": argv, "unit": "s"}


def items_of(opts):
    items = [parse_example(s, opts.build) for s in opts.example]
    ok_exit = appspec.parse_ok_exit(opts.ok_exit)
    for app in appspec.load_apps(opts.apps_file, opts.app, ok_exit, folder_only=True):
        items.append({"kind": "program", "label": "%s %s" % (app["app"], app["workload"]), "name": app["app"],
                      "exe": os.path.join(app["path"], "plain"), "args": app["args"], "unit": "s",
                      "ok": appspec.ok_codes(ok_exit, app["app"])})
    if opts.keep_freed_memory:
        items = [v for it in items
                 for v in (it, dict(it, label=it["label"] + " [freed memory kept]", env=KEEP_FREED))]
    if opts.clone:
        defs = catalogue(opts.build)
        items += [parse_clone(s, defs) for s in opts.clone]
    if not items:
        raise InputError("nothing to measure: give --example, --app, --apps-file or --clone")
    return items


# --------------------------------------------------------------------------
# Measuring
# --------------------------------------------------------------------------

def steal_s():
    """CPU seconds the hypervisor has taken from this machine so far (0 when
    the kernel does not say)."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
        return float(fields[8]) / os.sysconf("SC_CLK_TCK") if len(fields) > 8 else 0.0
    except (OSError, ValueError):
        return 0.0


def measure_program(item, cfg, opts):
    argv = [item["exe"]] + appspec.expand_args(item["args"], cfg["threads"])
    # Runs are one after the other: the children's fault count grows by this run's.
    faults0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt
    wall, _ = accuracy.run(argv, appspec.clean_env(dict(cfg["env"], **item.get("env", {}))), None,
                           "%s on %s" % (item["label"], cfg["label"]), opts.timeout, ok=item.get("ok", (0,)))
    return {"value": wall, "faults": resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt - faults0}


def measure_clone(item, cfg, opts):
    """One fresh kernel process per measurement, as phaseprobe-ubench starts
    one per configuration: CLONE_REPS repetitions of clone_s / CLONE_REPS
    seconds each, no early stop. Value: the mean time per iteration over the
    thread count (µs): the kernel counts the iterations of one thread, and
    phaseprobe-estimate gives each of N threads 1/N of a phase's iterations,
    so this is what a uB predicts for the same work on each configuration."""
    prog = accuracy.tool(opts.build, "phaseprobe-ubench-kernels")
    env = appspec.clean_env(dict(cfg["env"], OMP_DYNAMIC="false"))
    policy = (CLONE_REPS, CLONE_REPS, 0, opts.clone_s * 10 + 10, opts.clone_s / CLONE_REPS)
    wins = list(item["windows"]) + [0] * (3 - len(item["windows"]))
    # The span goes to every strided stream; the kernel leaves those of a
    # step of one element alone (one column).
    spans = [item.get("span", 0) if q < len(item["streams"]) and item["pattern"][q] == "s" else 0
             for q in range(3)]
    tail = ([item["work"], item["repeats"]] + wins + [item["work_every"]] + spans +
            [item.get("copies", 1), item.get("jump", 0)])
    line = ubenchkernels.line(1, item["kernel"], item["type"], item["access"], item["pattern"],
                              item["streams"], policy, tail)
    what = "%s on %s" % (item["label"], cfg["label"])
    try:
        p = subprocess.run([prog], input=line, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, timeout=opts.timeout)
    except subprocess.TimeoutExpired:
        raise WorkError("%s: timed out after %d s" % (what, opts.timeout))
    lines = p.stdout.splitlines()
    ans = lines[-1].split() if len(lines) >= 2 else []
    if p.returncode != 0 or len(ans) < 6 or ans[1] != "ok":
        raise WorkError("%s: the kernel program answered %r (exit %d)" % (
            what, " ".join(ans[1:]) or p.stderr.strip()[-200:], p.returncode))
    iters = float(ans[2]) * item["every"]
    reps = [float(t) for t in ans[5].split(",")]
    return {"value": statistics.mean(reps) / iters * 1e6 / cfg["threads"], "rep_spread": (max(reps) / min(reps) - 1) * 100}


def measure_all(items, configs, opts, progress):
    """results[item index][config label] = list of measurements, one per round."""
    res = [{c["label"]: [] for c in configs} for _ in items]
    steal0 = steal_s()
    for r in range(opts.rounds):
        # Rotate the configuration order: a drift within a round must not
        # always fall on the same configuration.
        order = configs[r % len(configs):] + configs[:r % len(configs)]
        for i, item in enumerate(items):
            for cfg in order:
                m = (measure_clone if item["kind"] == "clone" else measure_program)(item, cfg, opts)
                res[i][cfg["label"]].append(m)
        progress("round %d of %d done" % (r + 1, opts.rounds))
    return res, steal_s() - steal0


# --------------------------------------------------------------------------
# Report
# --------------------------------------------------------------------------

def fmt(v):
    return "%.4g" % v


def report(items, configs, ref, res, steal, opts, elapsed, load):
    lines = [
        "phaseprobe scaling: programs and uB clones on each configuration, side by side",
        "machine : %s" % provenance.machine(),
        "commit  : %s" % provenance.commit(ROOT, ["ubench", "examples", "bench/scaling"]),
        "date    : %s" % time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "command : %s" % " ".join(shlex.quote(a) for a in sys.argv),
        "configs : %s; ratios are to %s" % (", ".join("%s (%s)" % (c["label"], accuracy.env_text(c))
                                                       for c in configs), ref),
        "rounds  : %d, %.0f s; load %.2f -> %.2f; steal during the rounds %.2f CPU s" % (
            opts.rounds, elapsed, load[0], load[1], steal),
        "clones  : %d repetitions of %.3g s each per measurement, no early stop; value = mean time per "
        "iteration over the thread count (us: the same work on every configuration);\n"
        "          'rep spread' = slowest over fastest repetition of one measurement" % (
            CLONE_REPS, opts.clone_s / CLONE_REPS),
        "",
    ]
    head = ("item", "config", "unit", "median", "fastest", "slowest", "spread%", "minor faults",
            "ratio to " + ref, "ratio range", "rep spread% med/max")
    rows = []
    ratios = {}  # (item index, config label) -> per-round ratios
    for i, item in enumerate(items):
        for c in configs:
            ms = res[i][c["label"]]
            v = [m["value"] for m in ms]
            med = statistics.median(v)
            rr = [a["value"] / b["value"] for a, b in zip(ms, res[i][ref])]
            ratios[(i, c["label"])] = rr
            spreads = [m["rep_spread"] for m in ms if "rep_spread" in m]
            faults = [m["faults"] for m in ms if "faults" in m]
            rows.append((item["label"], c["label"], item["unit"], fmt(med), fmt(min(v)), fmt(max(v)),
                         "%.1f" % ((max(v) - min(v)) / med * 100 if med else 0),
                         "%d" % statistics.median(faults) if faults else "",
                         "1" if c["label"] == ref else "%.3f" % statistics.median(rr),
                         "" if c["label"] == ref else "%.3f-%.3f" % (min(rr), max(rr)),
                         "%.1f / %.1f" % (statistics.median(spreads), max(spreads)) if spreads else ""))
    lines += textout.table(head, rows)
    others = [c["label"] for c in configs if c["label"] != ref]
    lines += ["", "ratio to %s in each round (program time or clone time per iteration; a slow %s run "
              "lowers the ratio):" % (ref, ref)]
    cols = [(i, lab) for lab in others for i in range(len(items))]
    head2 = ["round"] + ["%s @%s" % (items[i]["label"], lab) for i, lab in cols]
    rows2 = [[str(r + 1)] + ["%.3f" % ratios[col][r] for col in cols] for r in range(opts.rounds)]
    lines += textout.table(head2, rows2)
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------

def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"), help="build directory (default: %(default)s)")
    ap.add_argument("--example", action="append", default=[], metavar="NAME=ARGS",
                    help="a bundled example's plain build with these arguments (repeatable)")
    ap.add_argument("--app", action="append", default=[], metavar="NAME=PATH[:ARGS]",
                    help="an application folder with a 'plain' executable (repeatable)")
    ap.add_argument("--apps-file", action="append", default=[], metavar="FILE")
    ap.add_argument("--ok-exit", action="append", default=[], metavar="NAME=CODES")
    ap.add_argument("--clone", action="append", default=[], metavar="'UB K:S[;K:S...]'",
                    help="a uB configuration, as phaseprobe-match names a phase's match (repeatable)")
    ap.add_argument("--config", action="append", default=[], metavar="LABEL:THREADS[:PLACES[:BIND]]",
                    help="configurations (default: the accuracy harness's: 1t, Nt, Nt-1core)")
    ap.add_argument("--ref", help="the configuration ratios are taken to (default: the one with most threads, "
                                  "first of them)")
    ap.add_argument("--keep-freed-memory", action="store_true",
                    help="also measure every program with glibc keeping freed memory (no first-touch "
                         "faults on recycled temporaries)")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--clone-s", type=float, default=1.0, help="seconds per clone measurement (default 1)")
    ap.add_argument("--timeout", type=int, default=600, help="seconds per program run (default 600)")
    ap.add_argument("--out", help="also write the table to this file (atomically)")
    opts = ap.parse_args(argv)
    if opts.rounds < 1:
        raise InputError("--rounds must be at least 1")
    if not opts.clone_s > 0:
        raise InputError("--clone-s must be positive")
    problem = textout.out_dir_problem(opts.out)
    if problem:
        raise InputError(problem)
    return opts


def main(argv=None):
    try:
        opts = parse_args(argv)
        configs = [accuracy.parse_config(s) for s in opts.config] or accuracy.default_configs(opts.build)
        labels = [c["label"] for c in configs]
        if len(set(labels)) != len(labels):
            raise InputError("--config: a label appears twice")
        ref = opts.ref or max(configs, key=lambda c: c["threads"])["label"]
        if ref not in labels:
            raise InputError("--ref %s: not one of the configurations (%s)" % (ref, ", ".join(labels)))
        items = items_of(opts)
    except InputError as ex:
        fail(str(ex), 2)
    load0 = os.getloadavg()
    t0 = time.time()
    try:
        res, steal = measure_all(items, configs, opts,
                                 lambda m: print("[scaling %s] %s" % (time.strftime("%H:%M:%S"), m),
                                                 file=sys.stderr, flush=True))
    except WorkError as ex:
        fail(str(ex), 1)
    text = report(items, configs, ref, res, steal, opts, time.time() - t0, (load0[0], os.getloadavg()[0]))
    sys.stdout.write(text)
    if opts.out:
        textout.write_or_exit("run.py", opts.out, text)


if __name__ == "__main__":
    main()
