"""pgmpy-sgm: stratified graphical models (context-specific independence) for pgmpy."""

from pgmpy_sgm.datasets import load_heart_disease, simulate_paper_synthetic
from pgmpy_sgm.models import StratifiedGraph
from pgmpy_sgm.structure_score import SGMScore

__version__ = "0.1.0"

__all__ = ["StratifiedGraph", "SGMScore", "load_heart_disease", "simulate_paper_synthetic", "__version__"]
