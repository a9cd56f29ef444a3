"""The report and its forms: ``Report`` itself, the notices' wording, the text renderers
(table, JSON, JSONL, CSV, trec_eval's lines), the one CSV dialect, and report files read and
written by suffix."""
