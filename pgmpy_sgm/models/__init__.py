"""Stratified graphs, stratified graphical models, labelled DAGs and contextual Markov networks."""

from pgmpy_sgm.core.labelling import CliqueLabelling
from pgmpy_sgm.models._statements import ContextSpecificIndependence
from pgmpy_sgm.models.contextual_markov_network import ContextualMarkovNetwork
from pgmpy_sgm.models.labeled_bayesian_network import LabeledBayesianNetwork
from pgmpy_sgm.models.model_average import ModelAverage
from pgmpy_sgm.models.stratified_graph import StratifiedGraph
from pgmpy_sgm.models.stratified_graphical_model import CliqueFactor, StrataNotShownWarning, StratifiedGraphicalModel

__all__ = [
    "StratifiedGraph",
    "ContextSpecificIndependence",
    "CliqueLabelling",
    "StratifiedGraphicalModel",
    "CliqueFactor",
    "StrataNotShownWarning",
    "LabeledBayesianNetwork",
    "ModelAverage",
    "ContextualMarkovNetwork",
]
