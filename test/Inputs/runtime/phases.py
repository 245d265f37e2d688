#!/usr/bin/env python3
"""Checks a phase file (phaseprobe.phases/1) and prints it in a stable form.

Used by the lit tests of test/clang-plugin and test/runtime: it verifies what
every phase file must satisfy (fields, types, units, weight = time / total,
tpi = time / iterations, parents that exist, regions without a parent unless
--nested) and then prints one line per phase, sorted by id:

    PHASE <id> kind=<kind> parent=<id|-> inv=<n> threads=<n> iters=<n>[ barriers=<n>]

(barriers only on regions, where it must be at least the invocations).

Options: --program also prints the program and node lines; --nested allows
regions with a parent. Exit 1 with a message on the first violation.
"""
import json
import math
import sys


def fail(msg):
    print("phases.py: " + msg, file=sys.stderr)
    sys.exit(1)


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    opts = {a for a in sys.argv[1:] if a.startswith("--")}
    if len(args) != 1:
        fail("usage: phases.py [--program] [--nested] FILE")
    try:
        with open(args[0]) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        fail("%s: %s" % (args[0], e))
    if doc.get("schema") != "phaseprobe.phases/1":
        fail("schema is %r" % doc.get("schema"))
    prog, node = doc.get("program"), doc.get("node")
    for k, t in (("name", str), ("argv", list), ("total_time_s", (int, float)),
                 ("threads", int), ("started", str)):
        if not isinstance(prog.get(k), t):
            fail("program.%s missing or mistyped" % k)
    total = prog["total_time_s"]
    if total <= 0:
        fail("program.total_time_s is %r" % total)
    for k in ("label", "hostname", "cpu", "cores", "caches_kib", "memory_mib"):
        if k not in node:
            fail("node.%s missing" % k)
    ids = {p["id"] for p in doc["phases"]}
    if len(ids) != len(doc["phases"]):
        fail("duplicate phase ids")
    lines = []
    for p in doc["phases"]:
        where = "phase %s: " % p.get("id")
        for k, t in (("id", str), ("file", str), ("line", int), ("column", int),
                     ("kind", str), ("invocations", int), ("threads", int),
                     ("time_s", (int, float)), ("weight", (int, float)),
                     ("iterations", int), ("tpi_us", (int, float)),
                     ("streams", list), ("thread_time_s", dict)):
            if not isinstance(p.get(k), t):
                fail(where + "%s missing or mistyped" % k)
        if p["parent"] is not None and p["parent"] not in ids:
            fail(where + "parent %s is not a phase" % p["parent"])
        if p["kind"] in ("parallel", "parallel for", "parallel sections", "teams"):
            if p["parent"] is not None and "--nested" not in opts:
                fail(where + "a region with a parent")
        if p["invocations"] < 1 or p["iterations"] < 1 or p["threads"] < 1:
            fail(where + "invocations, iterations and threads must be >= 1")
        if not math.isclose(p["weight"], p["time_s"] / total, rel_tol=1e-6, abs_tol=1e-9):
            fail(where + "weight %r != time_s / total_time_s" % p["weight"])
        if not math.isclose(p["tpi_us"], p["time_s"] * 1e6 / p["iterations"],
                            rel_tol=1e-6, abs_tol=1e-9):
            fail(where + "tpi_us %r != time_s / iterations" % p["tpi_us"])
        tt = p["thread_time_s"]
        if not tt["min"] <= tt["median"] <= tt["max"]:
            fail(where + "thread_time_s not ordered")
        if p["time_s"] > total * 1.0001:
            fail(where + "time_s exceeds the program's total time")
        line = "PHASE %s kind=%s parent=%s inv=%d threads=%d iters=%d" % (
            p["id"], p["kind"], p["parent"] or "-", p["invocations"],
            p["threads"], p["iterations"])
        if p["kind"] in ("parallel", "parallel for", "parallel sections", "teams"):
            # Every invocation ends in a join, which counts as a barrier.
            if not isinstance(p.get("barriers"), int) or p["barriers"] < p["invocations"]:
                fail(where + "barriers %r missing or fewer than invocations" % p.get("barriers"))
            line += " barriers=%d" % p["barriers"]
        elif "barriers" in p:
            fail(where + "a worksharing phase with barriers")
        lines.append(line)
    if "--program" in opts:
        print("PROGRAM name=%s argc=%d threads=%d" % (
            prog["name"], len(prog["argv"]), prog["threads"]))
        print("NODE label=%s" % node["label"])
    for line in sorted(lines):
        print(line)
    print("PHASES %d" % len(lines))


if __name__ == "__main__":
    main()
