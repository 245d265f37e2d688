# GuardedAllocs_exec.c's check: prints each top-level region of a phase file
# with its guarded page faults, "<id> <tests>: ok" where the count lies
# between 90% and 100% of the pages its two blocks have of their own (1023
# or 1024 each, STEPS times) and within the region's page_faults, else
# "<id> <tests>: <count> of <pages> pages (<page_faults> in all)"; "<id> none"
# without.
import json
import sys

PAGES_PER_BLOCK, STEPS = 1024, 3
regions = [p for p in json.load(open(sys.argv[1]))["phases"] if p["parent"] is None]
for p in regions:
    guarded = p.get("guarded_page_faults")
    if not guarded:
        print(p["id"], "none")
        continue
    for g in guarded:
        pages = 2 * PAGES_PER_BLOCK * STEPS
        ok = 0.9 * pages <= g["page_faults"] <= min(pages, p["page_faults"])
        what = "ok" if ok else "%d of %d pages (%d in all)" % (g["page_faults"], pages,
                                                               p["page_faults"])
        print("%s %s: %s" % (p["id"], ", ".join(g["allocated_if"]), what))
print("regions:", len(regions))
