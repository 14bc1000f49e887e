"""Structure scores for stratified graphs, labelled DAGs and contextual Markov networks, usable wherever pgmpy takes a score instance."""

from pgmpy_sgm.structure_score.ldag_score import LDAGScore
from pgmpy_sgm.structure_score.mpl_score import MPLScore
from pgmpy_sgm.structure_score.sgm_score import SGMScore

__all__ = ["SGMScore", "LDAGScore", "MPLScore"]
