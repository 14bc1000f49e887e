"""Structure scores (stratified graphs, labelled DAGs, contextual Markov networks) for pgmpy's searches."""

from pgmpy_sgm.structure_score.ldag_score import LDAGScore
from pgmpy_sgm.structure_score.ldag_settings import LDAGScoreSettings
from pgmpy_sgm.structure_score.mpl_score import MPLScore
from pgmpy_sgm.structure_score.mpl_settings import MPLScoreSettings
from pgmpy_sgm.structure_score.sgm_score import SGMScore
from pgmpy_sgm.structure_score.sgm_settings import SGMScoreSettings

__all__ = ["SGMScore", "SGMScoreSettings", "LDAGScore", "LDAGScoreSettings", "MPLScore", "MPLScoreSettings"]
