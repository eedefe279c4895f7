#!/usr/bin/env bash
# SIGINT in the first 0.1 s of a device run: BIN count 16 --device opencl --checkpoint J, kill -INT after D seconds.
BIN=$1; shift
for d in 0.01 0.02 0.03 0.05 0.07 0.1 0.15 0.2; do
  rm -f /tmp/r4/early.journal
  $BIN count 16 --device opencl --checkpoint /tmp/r4/early.journal --progress never > /tmp/r4/early.out 2> /tmp/r4/early.err &
  pid=$!
  sleep $d; kill -INT $pid; wait $pid; rc=$?
  echo "delay $d s: exit $rc; stdout: $(head -c 80 /tmp/r4/early.out | tr '\n' ' '); stderr: $(head -c 300 /tmp/r4/early.err | tr '\n' ' ')"
done
