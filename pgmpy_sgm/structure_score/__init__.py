"""Structure scores for stratified graphs and labelled DAGs, usable wherever pgmpy takes a score instance."""

from pgmpy_sgm.structure_score.ldag_score import LDAGScore
from pgmpy_sgm.structure_score.sgm_score import SGMScore

__all__ = ["SGMScore", "LDAGScore"]
