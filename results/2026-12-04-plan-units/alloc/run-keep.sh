#!/bin/bash
cd /work/notes/keep
for seed in 1; do
  /usr/bin/time -f "%e s %U u %S sys %M KB" -o base-s$seed.time /work/main/target/bins/nqueens-58f7356 plan 28 -j 1 --sample-seconds 300 --seed $seed --format json > base-s$seed.json 2>base-s$seed.err &
  /usr/bin/time -f "%e s %U u %S sys %M KB" -o keep-s$seed.time /work/main/target/bins/nqueens-keep16g plan 28 -j 1 --sample-seconds 300 --seed $seed --format json > keep-s$seed.json 2>keep-s$seed.err &
  wait
done
