"""``python -m retrieval_metrics``: the CLI as a short-lived process.

The process ends with ``os._exit`` once its output is flushed: the interpreter would otherwise
spend a tenth of a second freeing, one by one, the millions of objects a large run leaves
behind, only to hand the memory back to the system anyway.
"""

import gc
import os
import sys

from .cli import main

gc.disable()  # nothing here lives long enough to form garbage cycles worth collecting
status = main()
try:
    sys.stdout.flush()
    sys.stderr.flush()
except BrokenPipeError:  # e.g. piped into `head`: the reader has all it wanted
    status = 0
os._exit(status)
