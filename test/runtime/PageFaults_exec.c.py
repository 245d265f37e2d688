#!/usr/bin/env python3
"""Prints, per region of a phase file, its page faults per fork against the
1024 pages a 4 MiB temporary has (PageFaults_exec.c)."""
import json
import sys

for p in json.load(open(sys.argv[1]))["phases"]:
    if not p["kind"].startswith("parallel"):
        continue
    if "page_faults" not in p:
        print("%s no page_faults" % p["id"])
    else:
        per = p["page_faults"] / p["invocations"]
        print("%s faults per fork %s 1000 (%.0f)" % (p["id"], ">=" if per >= 1000 else "<", per))
