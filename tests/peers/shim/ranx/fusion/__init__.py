"""``ranx.fusion`` for ranx's own tests: ``compat.ranx.fusion``, ``fusion_trained`` and ``fuse``'s
``fusion_switch``."""
from retrieval_metrics.compat.ranx.fuse import fusion_switch  # noqa: F401
from retrieval_metrics.compat.ranx.fusion import *  # noqa: F403
from retrieval_metrics.compat.ranx.fusion_trained import *  # noqa: F403
