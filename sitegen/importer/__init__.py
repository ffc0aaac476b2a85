"""The MLPerf record importer: official result repositories -> content/data/record/ (run by an editor)."""
