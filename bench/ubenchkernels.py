"""phaseprobe-ubench-kernels driven directly: the one writer of its input
lines and reader of its answers for the benches that measure a uB
configuration in a kernel process of their own (bench/ubench/
search_cost.py, line_history.py, shared_core_split.py, handover.py,
column_span.py, fault_cost.py). The line format is
ubench/kernels/ubench_kernels.c's header.

Python 3 standard library only."""
import os
import statistics
import subprocess


# RepPolicy of the grids (ubench/src/catalog.cpp, repPolicy): min reps, max
# reps, CV %, cap s, min repetition s. The accuracy runs use quick.
POLICIES = {"quick": (5, 20, 5, 1.0, 0.01), "default": (5, 30, 2, 0.3, 0.002)}

# The catalogue's uBs these benches run by name (ubench/src/catalog.cpp):
# kernel, and per stream its access (c shared, p private) and pattern.
UBENCHES = {"spmv3": ("gather", "ppc", "ssr"), "mbw1p": ("sum", "p", "s"), "mbw1c": ("sum", "c", "s"),
            "upd1p": ("update", "p", "s"), "st1p": ("store", "p", "s"), "cpy2p": ("copy", "pp", "ss")}


class RunError(Exception):
    """The kernel program failed or did not answer every line."""


def line(ident, kernel, typ, access, pattern, streams, policy, tail=()):
    """One input line: `streams` a list of (KiB, stride bytes), at most
    three; `policy` (min reps, max reps, CV %, cap s, min repetition s);
    `tail` the optional whole-number fields after them, in the header's
    order (WORK, REP, W1-W3, WORK_EVERY, B1-B3, COPIES, JUMP), as far as
    given."""
    fields = [str(ident), kernel, typ, str(len(access)), access, pattern]
    for k, s in list(streams) + [(0, 0)] * (3 - len(streams)):
        fields += ["%.17g" % k, "%.17g" % s]
    fields += ["%d" % policy[0], "%d" % policy[1]] + ["%.17g" % v for v in policy[2:]]
    fields += ["%d" % v for v in tail]
    return " ".join(fields) + "\n"


def ubench_line(ident, ubench, streams, policy):
    """The line of uB `ubench` (a UBENCHES name, doubles) over `streams`,
    "K:S;K:S" (KiB:stride bytes, one per stream of the uB); ValueError
    saying what is wrong with them."""
    kernel, access, pattern = UBENCHES[ubench]
    tuples = streams.split(";")
    if len(tuples) != len(access):
        raise ValueError("%s takes %d stream(s)" % (ubench, len(access)))
    ks = []
    for t in tuples:
        f = t.split(":")
        try:
            if len(f) != 2 or float(f[0]) <= 0 or float(f[1]) <= 0:
                raise ValueError
        except ValueError:
            raise ValueError("%r is not K:S (KiB:bytes, positive)" % t) from None
        ks.append((float(f[0]), float(f[1])))
    return line(ident, kernel, "double", access, pattern, ks, policy)


def run(program, lines, threads, places, bind="close", env=None):
    """Feeds `lines` to one kernel process on `threads` threads
    (OMP_PLACES=`places`, OMP_PROC_BIND=`bind`, either left unset where
    None, and `env`'s variables); returns per line (iterations of a
    repetition, declared streams, repetition times)."""
    env = dict(os.environ, **(env or {}), OMP_NUM_THREADS=str(threads))
    for var, value in (("OMP_PLACES", places), ("OMP_PROC_BIND", bind)):
        if value is None:
            env.pop(var, None)
        else:
            env[var] = value
    p = subprocess.run([program], input="".join(lines), env=env, capture_output=True, text=True)
    out = []
    for answer in p.stdout.splitlines():
        f = answer.split()
        if len(f) > 5 and f[1] == "ok":
            out.append((float(f[2]), f[4], [float(t) for t in f[5].split(",")]))
        elif len(f) > 1 and f[1] == "error":
            raise RunError("%s: %s" % (program, answer))
    if p.returncode != 0 or len(out) != len(lines):
        raise RunError("%s: %s" % (program, (p.stderr or p.stdout).strip()[-300:] or "no answer"))
    return out


def median_tpi(answer):
    """A run() answer's median repetition time per iteration, seconds."""
    iterations, _, times = answer
    return statistics.median(times) / iterations


def median_tpis_ns(program, lines, threads, places, env=None, bind="close"):
    """run()'s answers as median times per iteration, nanoseconds, per line."""
    return [median_tpi(a) * 1e9 for a in run(program, lines, threads, places, bind, env=env)]
