#!/usr/bin/env python3
"""Writes a synthetic NPPDB profile CSV (CONTRACTS.md format) for the matcher
benchmark: N profiles on one node, a third each with 1, 2 and 3 streams,
footprints log-uniform over 4 KiB .. 4 GiB, strides from the uB suite's grid,
tpi log-uniform over 0.001 .. 10 us, thread counts 1/2/4/8 (so a phase at 4
threads sees a quarter of them). Deterministic for a given seed.

usage: gen_profiles.py N OUT.csv [--node bn] [--seed 1]
"""
import argparse
import math
import random

p = argparse.ArgumentParser()
p.add_argument("n", type=int)
p.add_argument("out")
p.add_argument("--node", default="bn")
p.add_argument("--seed", type=int, default=1)
a = p.parse_args()

rng = random.Random(a.seed)
strides = [4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096, 32000]
lo, hi = math.log(4), math.log(4 * 1024 * 1024)
with open(a.out, "w") as f:
    f.write("node,ubench,threads,time_s,iterations,tpi_us,streams\n")
    seen = set()
    for i in range(a.n):
        k = 1 + i % 3
        th = (1, 2, 4, 8)[(i // 3) % 4]
        name = "synth%d" % (i % 97)
        while True:  # the import rejects repeated (node, ubench, threads, streams)
            streams = []
            for _ in range(k):
                fp = round(math.exp(rng.uniform(lo, hi)))
                s = rng.choice(strides)
                e = rng.choice((4, 8))
                acc = rng.choice(("shared", "private"))
                streams.append("%d:%d:%d:%s" % (fp, s, e, acc))
            key = (name, th, ";".join(streams))
            if key not in seen:
                seen.add(key)
                break
        tpi = math.exp(rng.uniform(math.log(0.001), math.log(10)))
        f.write("%s,%s,%d,,,%.6g,%s\n" % (a.node, name, th, tpi, key[2]))
