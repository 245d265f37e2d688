#!/bin/bash
# Sequential twin NPPDB of an interleaved accuracy run: the same grids,
# characterized one configuration after the other (the old order).
set -e
DB=$1; PARAMS=$2; UB=/work/main/build/bin/phaseprobe-ubench
rm -f $DB $DB-*
for c in "vm-1t 1 {0} close" "vm-2t 2 cores spread" "vm-2t-1core 2 {0} close"; do
  set -- $c
  $UB run --node $1 --db $DB --threads $2 --places "$3" --bind $4 --quick > /dev/null 2>&1
  $UB run --node $1 --db $DB --threads $2 --places "$3" --bind $4 --quick --params $PARAMS > /dev/null 2>&1 || true
done
