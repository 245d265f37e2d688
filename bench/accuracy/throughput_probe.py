"""How much arithmetic each thread of every node configuration gets
(throughput.c), probed while the uBs are measured and while the programs
run, and read back from the NPPDB's csqrt profiles: an estimate projects a
phase with the uBs' configuration-to-base ratios, so those ratios must
still hold when the program is measured. Run hk's did not: its two-thread
uBs ran at one core's pace during characterization and its programs then
at two (bench/results/accuracy-2026-11-28-quiet-hk-*).

A probe is one row of ns per iteration of the slowest thread, one value per
configuration, taken back to back. What is compared is each configuration's
value over the base configuration's in the same probe, so a drift of the
whole machine cancels; the three readings of a configuration (medians over
the probes of the uB runs, the NPPDB's csqrt profiles, medians over the
probes of the measured rounds) disagree when the largest is more than
LIMIT_PCT over the smallest. The limit catches a factor, not the 10-15%
that one vCPU of a cloud VM drifts against the other from minute to minute
(the interleaved characterization and measured rounds are what answers
those).

Used by run.py (--throughput-probe) and report.py. Python 3 standard library
only."""
import os
import sqlite3
import statistics
import subprocess

from handoff_probe import ProbeError, build_probe  # the same mechanism as the handoff probe's
import node_ratios  # the NPPDB's profiles of a node, ratios between two

CC = "clang-14"  # the project's compiler (scripts/install-deps.sh)
LIMIT_PCT = 25.0
# The NPPDB's uBs whose loop the probe is (ubench_kernels.c: four sqrt chains).
SQRT_UBENCH = ("csqrt", "csqrtf")


class ThroughputProbe:
    def __init__(self, workdir, cc=CC, iterations=1000000, bursts=5):
        self.iterations, self.bursts = iterations, bursts
        self.exe = build_probe(cc, "throughput.c", os.path.join(workdir, "throughput"),
                               ["-O2", "-fno-math-errno", "-fopenmp"], ["-lm"])

    def ns(self, env):
        """Median ns per iteration of the slowest thread over the bursts, with
        \p env (a configuration's whole environment)."""
        run = subprocess.run([self.exe, str(self.iterations), str(self.bursts)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        values = [float(line.split()[1]) for line in run.stdout.splitlines() if line.startswith("ok ")]
        if run.returncode != 0 or len(values) != self.bursts:
            raise ProbeError("the throughput probe failed: %s" % (
                (run.stderr.strip().splitlines() or ["exit %d" % run.returncode])[-1]))
        return statistics.median(values)


def relative(probe, base):
    """{label: its ns over the base configuration's} of one probe."""
    b = probe["ns"].get(base)
    return {k: v / b for k, v in probe["ns"].items()} if b else {}


def nppdb_ratios(db, nodes, base):
    """{label: median over the csqrt profiles both nodes have of its tpi
    over the base configuration's}; \p nodes maps label -> node. Labels
    without such profiles are left out."""
    try:
        con = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    except sqlite3.Error as ex:
        raise ProbeError("%s: %s" % (db, ex)) from None
    try:
        at_base = node_ratios.node_profiles(con, nodes[base])
        out = {}
        for label, node in nodes.items():
            r = node_ratios.ratios(at_base, node_ratios.node_profiles(con, node), lambda k: k[0] in SQRT_UBENCH)
            if r:
                out[label] = statistics.median(r)
        return out
    except sqlite3.Error as ex:
        raise ProbeError("%s: not an NPPDB: %s" % (db, ex)) from None
    finally:
        con.close()


def verdict(tp, base, limit_pct=LIMIT_PCT):
    """Per configuration its three readings (None where missing) and
    whether they disagree, from run.py's context["throughput_probe"] \p tp:
    {"configs": {label: {"ubench", "nppdb", "measured", "apart_pct",
    "changed"}}, "changed": [labels], "limit_pct"}."""
    probes = tp.get("probes", [])
    per = {}
    for label in sorted({k for p in probes for k in p["ns"]} | set(tp.get("nppdb", {}))):
        if label == base:
            continue
        reading = {}
        for when in ("ubench", "measured"):
            values = [relative(p, base).get(label) for p in probes if p["when"] == when]
            values = [v for v in values if v]
            reading[when] = statistics.median(values) if values else None
        reading["nppdb"] = tp.get("nppdb", {}).get(label)
        have = [v for v in reading.values() if v]
        reading["apart_pct"] = 100.0 * (max(have) / min(have) - 1.0) if len(have) > 1 else None
        reading["changed"] = reading["apart_pct"] is not None and reading["apart_pct"] > limit_pct
        per[label] = reading
    return {"configs": per, "changed": [k for k, r in per.items() if r["changed"]], "limit_pct": limit_pct}
