"""Accelerator Ledger: a static-site generator for multilingual MLPerf Training reports."""

__version__ = "0.1.0"
