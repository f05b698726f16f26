#!/bin/bash
# Blocking against persistent in separate launches (one interface a launch), paired, the order turned
# every launch; prints "SIZE old|new LAUNCH osu_avg_us" (old: persistent, new: blocking; abstat.py reads it).
# usage: ifab.sh BIN ALGORITHM SIZES LAUNCHES (the build in /work/main/build)
bin=/work/main/build/src/$1; alg=$2; sizes=$3; n=$4
for s in ${sizes//,/ }; do
  for l in $(seq 1 $n); do
    if (( l % 2 )); then order="persistent blocking"; else order="blocking persistent"; fi
    for w in $order; do
      rm -f /tmp/ifab.csv
      timeout 60 mpirun --allow-run-as-root -np 2 --bind-to core $bin --algorithm $alg --interface $w -m $s:$s -i 50000 -x 2000 --csv /tmp/ifab.csv > /dev/null 2>&1
      t=$(/usr/bin/python3 -c "
import csv; r=[x for x in csv.DictReader(open('/tmp/ifab.csv')) if x['phase']=='total']; print(r[0]['osu_avg_us'])")
      [ $w = persistent ] && k=old || k=new
      echo "$s $k $l $t"
    done
  done
done
