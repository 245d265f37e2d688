#!/bin/sh
# The NPPDB of this run without its random-walk (search) profiles, for the
# "no-search" half of rules.txt: mbw1cr/mbw1pr whose mean jump is under a
# third of the per-thread slice (0.9 for rounding). Usage: ablate-search.sh OUT.sqlite
set -e
here=$(dirname "$0")
cp "$here/nppdb.sqlite" "$1"
sqlite3 "$1" "delete from profiles where ubench in ('mbw1cr','mbw1pr') and cast(substr(streams_text, instr(streams_text,':')+1) as real) * 3 < first_footprint_kib*1024/ (case when streams_text like '%private' then 2 else 1 end) * 0.9; select changes() || ' search profiles deleted';"
