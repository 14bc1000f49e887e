"""Structure scores for stratified graphs, usable wherever pgmpy takes a score instance."""

from pgmpy_sgm.structure_score.sgm_score import SGMScore

__all__ = ["SGMScore"]
