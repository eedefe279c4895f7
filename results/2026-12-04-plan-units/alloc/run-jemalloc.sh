#!/bin/bash
cd /work/notes/keep
B=/work/main/target/bins/nqueens-58f7356
seed=${1:-3}
/usr/bin/time -f "%e s %U u %S sys %M KB" -o g-s$seed.time $B plan 28 -j 1 --sample-seconds 300 --seed $seed --format json > g-s$seed.json 2>g-s$seed.err &
LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2 /usr/bin/time -f "%e s %U u %S sys %M KB" -o je-s$seed.time $B plan 28 -j 1 --sample-seconds 300 --seed $seed --format json > je-s$seed.json 2>je-s$seed.err &
wait
