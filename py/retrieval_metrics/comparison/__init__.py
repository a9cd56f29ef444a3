"""Runs against runs: the paired comparison of two runs, baselines (a run or a saved report),
many runs at once, the statistics (t, bootstrap, randomisation, corrections) and the paper
tables (LaTeX, Markdown, CSV)."""
