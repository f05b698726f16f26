#!/bin/bash
# A/B of two mcb builds (OLD, NEW: build folders), one size per launch,
# both sides in each pair of launches, the order turned every launch; 2
# ranks bound; prints "SIZE old|new LAUNCH osu_avg_us" (the total phase).
# INTERFACE is one interface for both sides, or OLD_IF:NEW_IF for one each
# (persistent:blocking with OLD=NEW: the two interfaces in separate launches).
# usage: OLD=DIR NEW=DIR [ITERS=N] ab.sh BIN ALGORITHM INTERFACE SIZES LAUNCHES [mcb args]
bin=$1; alg=$2; iface=$3; sizes=$4; n=$5; shift 5
old_if=${iface%%:*}; new_if=${iface#*:}
for s in ${sizes//,/ }; do
  for l in $(seq 1 $n); do
    if (( l % 2 )); then order="old new"; else order="new old"; fi
    for w in $order; do
      if [ $w = old ]; then b=${OLD:-/tmp/old/build}/src/$bin i=$old_if; else b=${NEW:-/work/main/build}/src/$bin i=$new_if; fi
      rm -f /tmp/ab.csv
      timeout 60 mpirun --allow-run-as-root -np 2 --bind-to core $b --algorithm $alg --interface $i -m $s:$s -i ${ITERS:-50000} -x 2000 --csv /tmp/ab.csv "$@" > /dev/null 2>&1
      t=$(/usr/bin/python3 -c "
import csv; r=[x for x in csv.DictReader(open('/tmp/ab.csv')) if x['phase']=='total']; print(r[0]['osu_avg_us'])")
      echo "$s $w $l $t"
    done
  done
done
