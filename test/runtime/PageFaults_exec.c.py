#!/usr/bin/env python3
"""Prints, per region of a phase file, its page faults per fork against the
1024 pages a 4 MiB temporary has, and the program's faults beyond its
top-level regions' against 9000 (the serial temporaries' 10 x 1024, less
the slack of a region's extrapolated count)
(PageFaults_exec.c)."""
import json
import sys

doc = json.load(open(sys.argv[1]))
for p in doc["phases"]:
    if not p["kind"].startswith("parallel"):
        continue
    if "page_faults" not in p:
        print("%s no page_faults" % p["id"])
    else:
        per = p["page_faults"] / p["invocations"]
        print("%s faults per fork %s 1000 (%.0f)" % (p["id"], ">=" if per >= 1000 else "<", per))
serial = doc["program"]["page_faults"] - sum(
    p.get("page_faults", 0) for p in doc["phases"] if p.get("parent") is None)
print("serial faults %s 9000 (%d)" % (">=" if serial >= 9000 else "<", serial))
