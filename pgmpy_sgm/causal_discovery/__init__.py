"""Structure learning of decomposable stratified graphical models, labelled DAGs and contextual Markov networks."""

from pgmpy_sgm.causal_discovery._checkpoint import Checkpoint
from pgmpy_sgm.causal_discovery._convergence import ConvergenceWarning
from pgmpy_sgm.causal_discovery.exhaustive import exhaustive_posterior
from pgmpy_sgm.causal_discovery.ldag_search import LDAGSearch
from pgmpy_sgm.causal_discovery.mpl_search import MPLSearch
from pgmpy_sgm.causal_discovery.nonreversible_mcmc import CheckpointWarning, FitInterruptedWarning, NonReversibleMCMC
from pgmpy_sgm.models.model_average import ModelAverage as ModelAverage  # a model; still importable from here

__all__ = [
    "NonReversibleMCMC",
    "exhaustive_posterior",
    "FitInterruptedWarning",
    "Checkpoint",
    "CheckpointWarning",
    "ConvergenceWarning",
    "LDAGSearch",
    "MPLSearch",
]
