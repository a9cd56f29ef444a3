"""The engine's version, in the lowest stage so that every stage can name it (the CLI's and the
page's report metadata, the trec_eval mode's ``-v``); pyproject.toml holds the same number."""

__version__ = "0.1.0"
