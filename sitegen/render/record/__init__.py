"""The record's own pages: rounds, benchmarks, submitters, accelerators, systems, downloads."""
