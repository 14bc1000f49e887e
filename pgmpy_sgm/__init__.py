"""pgmpy-sgm: stratified graphical models (context-specific independence) for pgmpy.

The names mirror pgmpy's packages: ``pgmpy_sgm.models``, ``pgmpy_sgm.structure_score``,
``pgmpy_sgm.causal_discovery``, ``pgmpy_sgm.factors``, ``pgmpy_sgm.readwrite``,
``pgmpy_sgm.plotting`` and ``pgmpy_sgm.datasets``; the most used ones are also here.

Examples
--------
>>> from pgmpy_sgm import LDAGSearch, NonReversibleMCMC, load_heart_disease
>>> est = NonReversibleMCMC(n_iter=500, seed=0, show_progress=False).fit(load_heart_disease())
>>> round(est.best_score_, 2)
-6715.9
>>> ldag = LDAGSearch(n_restarts=0, show_progress=False).fit(load_heart_disease())
>>> type(ldag.model_).__name__
'LabeledBayesianNetwork'
"""

from pgmpy_sgm import _numba_cache  # noqa: F401  (first: numba caches outside the package folder)
from pgmpy_sgm.causal_discovery import LDAGSearch, NonReversibleMCMC, exhaustive_posterior
from pgmpy_sgm.datasets import load_heart_disease, simulate_paper_synthetic
from pgmpy_sgm.models import (
    ContextualMarkovNetwork,
    LabeledBayesianNetwork,
    StratifiedGraph,
    StratifiedGraphicalModel,
)
from pgmpy_sgm.structure_score import LDAGScore, LDAGScoreSettings, SGMScore, SGMScoreSettings

__version__ = "0.1.0"

__all__ = [
    "StratifiedGraph",
    "StratifiedGraphicalModel",
    "SGMScore",
    "SGMScoreSettings",
    "NonReversibleMCMC",
    "LabeledBayesianNetwork",
    "LDAGScore",
    "LDAGScoreSettings",
    "LDAGSearch",
    "exhaustive_posterior",
    "ContextualMarkovNetwork",
    "load_heart_disease",
    "simulate_paper_synthetic",
    "__version__",
]
