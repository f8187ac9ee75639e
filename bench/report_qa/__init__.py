"""TAT-QA report extracts for bench/bench_reports.py: dataset, themes, scoring, trust classes, scripted strong model, CLI runner."""
