"""Load benchmarks (not part of the site; `make bench-live`)."""
