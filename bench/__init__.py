"""rlvr-grade benchmarks: `make bench` runs bench/run.py."""
