"""A cache line's round trip between two CPUs (handoff.c), as a probe of the
node's shape taken around a run: on one L3 tens of nanoseconds, between
two L3s (two CCDs, two sockets) several times that. A VM's host can move
its vCPUs between them while the VM runs, and a two-thread run then meets
another node than the one characterized (bench/results/handoff-drift-*).

Shared by handoff_drift.py and run.py --handoff-probe. Python 3 standard
library only."""
import os
import statistics
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
CC = "clang-14"  # the project's compiler (scripts/install-deps.sh)


class ProbeError(Exception):
    """The probe could not be built or run: one line saying why."""


def build_probe(cc, source, exe, flags, libs=()):
    """Compiles \p source (next to this file) into \p exe with \p flags,
    linking \p libs; ProbeError saying why not. Shared with
    throughput_probe.py."""
    try:
        cc_run = subprocess.run([cc] + flags + [os.path.join(HERE, source), "-o", exe] + list(libs),
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except OSError as ex:
        raise ProbeError("%s could not build %s: %s" % (cc, source, ex.strerror)) from None
    if cc_run.returncode != 0:
        raise ProbeError("%s could not build %s: %s" % (
            cc, source, (cc_run.stderr.strip().splitlines() or ["exit %d" % cc_run.returncode])[-1]))
    return exe


def program_and_probe(cc, source, tmp):
    """Builds the OpenMP program \p source (a path) into \p tmp and a
    handoff probe between CPUs 0 and 1 beside it: (executable, probe), or
    ProbeError saying why not. What the bench/ubench scripts that measure a
    program round by round with the node's shape share."""
    exe = os.path.join(tmp, os.path.splitext(os.path.basename(source))[0])
    build_probe(cc, source, exe, ["-O2", "-fopenmp"])
    return exe, HandoffProbe(tmp, [0, 1], cc=cc)


def first_two_cpus():
    """The two lowest CPUs this process may run on, or None with fewer."""
    cpus = sorted(os.sched_getaffinity(0))
    return cpus[:2] if len(cpus) >= 2 else None


def near_limit(pairs):
    """The line between near and far for probes \p pairs ((before, after)
    each; None entries skipped): twice the fastest of them, relative
    because a probe's absolute time is the machine's. None without any."""
    values = [v for p in pairs if p for v in p]
    return 2.0 * min(values) if values else None


def shape_groups(rounds, ns):
    """\p rounds grouped by the node's shape, read from each round's probe
    ns(round): the near ones (under near_limit's line) and the far ones,
    each labelled with its count, where the rounds were not all of one
    shape; then all of them, labelled "median" (the tables' last row)."""
    limit = near_limit((ns(r),) for r in rounds)
    near = [r for r in rounds if ns(r) < limit]
    far = [r for r in rounds if ns(r) >= limit]
    groups = [("near (%d)" % len(near), near), ("far (%d)" % len(far), far)] if near and far else []
    return groups + [("median", list(rounds))]


def shape(before, after, limit):
    """near: both probes under limit; far: both over; mixed: they disagree
    (the shape changed during the run, or between the probes)."""
    near = (before < limit, after < limit)
    return "near" if all(near) else "far" if not any(near) else "mixed"


def is_near(pair, limit):
    """Whether a run's probes \p pair (None: not probed) read near."""
    return pair is not None and shape(pair[0], pair[1], limit) == "near"


class HandoffProbe:
    def __init__(self, workdir, cpus, cc=CC, trips=2000, bursts=5):
        self.cpus, self.trips, self.bursts = list(cpus), trips, bursts
        self.exe = build_probe(cc, "handoff.c", os.path.join(workdir, "handoff"), ["-O2", "-pthread"])

    def ns(self):
        """Median ns per round trip over the bursts."""
        run = subprocess.run([self.exe, str(self.cpus[0]), str(self.cpus[1]), str(self.trips), str(self.bursts)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        values = [float(line.split()[1]) for line in run.stdout.splitlines() if line.startswith("ok ")]
        if run.returncode != 0 or len(values) != self.bursts:
            raise ProbeError("the probe between CPUs %d and %d failed: %s" % (
                self.cpus[0], self.cpus[1],
                (run.stderr.strip().splitlines() or ["exit %d" % run.returncode])[-1]))
        return statistics.median(values)

    def around(self, fn):
        """fn's result and the probes (before, after) around it."""
        before = self.ns()
        result = fn()
        return result, (before, self.ns())
