"""Agreement between independent chains: per-chain bests, their spread, edge-probability differences."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

__all__ = ["ConvergenceWarning", "SPREAD_WARNING", "convergence_summary", "warn_if_unconverged"]

#: Chains whose best scores differ by more than this many log-units trigger a ConvergenceWarning.
SPREAD_WARNING = 2.0


class ConvergenceWarning(RuntimeWarning):
    """The search has not shown that it reached a posterior mode; ``best_score_`` may lie below it.

    Issued by :class:`~pgmpy_sgm.causal_discovery.NonReversibleMCMC` when the chains'
    best scores spread over more than 2 log-units (``convergence_.attrs["spread"]``: the
    chains disagree on the mode), when a final polish of the best graph still raised it
    (the chains stopped before reaching a mode, e.g. ``n_iter`` too small; the message
    gives the gain), or when ``n_iter="auto"`` reached its time limit before the chains
    settled. Its absence means the chains agree within 2 log-units and the best graph
    survived the polish (and, with ``n_iter="auto"``, the settling check); it does not
    prove that no better graph exists.

    Examples
    --------
    >>> issubclass(ConvergenceWarning, RuntimeWarning)
    True
    """


def convergence_summary(
    best_scores: np.ndarray,
    best_iterations: np.ndarray,
    n_iterations: np.ndarray,
    chain_pair_probabilities: np.ndarray,
    pooled_pair_probabilities: np.ndarray,
) -> pd.DataFrame:
    """One row per chain, with the spread of the chains' bests and edge-probability differences in ``attrs``.

    Parameters
    ----------
    best_scores, best_iterations, n_iterations : numpy.ndarray of shape (n_chains,)
    chain_pair_probabilities : numpy.ndarray of shape (n_chains, n_pairs)
        Each chain's edge probabilities, estimated from the graphs it visited alone.
    pooled_pair_probabilities : numpy.ndarray of shape (n_pairs,)

    Returns
    -------
    pandas.DataFrame
        Columns ``best_score``, ``gap``, ``best_iteration``, ``n_iter`` and
        ``max_edge_probability_difference`` (against the pooled estimate), indexed by
        chain; ``attrs["spread"]`` is the best minus the worst chain best (chains that
        never ran, with a NaN best, left out) and
        ``attrs["max_edge_probability_difference"]`` the largest difference between two
        chains' probabilities of one edge.

    Examples
    --------
    >>> frame = convergence_summary(
    ...     np.array([-10.0, -13.5]), np.array([5, 40]), np.array([100, 100]),
    ...     np.array([[1.0, 0.2], [0.0, 0.3]]), np.array([1.0, 0.2]))
    >>> frame["gap"].tolist(), frame.attrs["spread"], frame.attrs["max_edge_probability_difference"]
    ([0.0, 3.5], 3.5, 1.0)
    """
    best_scores = np.asarray(best_scores, dtype=np.float64)
    chain_prob = np.asarray(chain_pair_probabilities, dtype=np.float64).reshape(len(best_scores), -1)
    pooled = np.asarray(pooled_pair_probabilities, dtype=np.float64)
    started = best_scores[np.isfinite(best_scores)]  # a chain stopped before its first step has no score
    top = float(started.max()) if started.size else float("nan")
    per_chain = np.abs(chain_prob - pooled).max(axis=1) if chain_prob.shape[1] else np.zeros(len(best_scores))
    frame = pd.DataFrame(
        {
            "best_score": best_scores,
            "gap": top - best_scores,
            "best_iteration": np.asarray(best_iterations, dtype=np.int64),
            "n_iter": np.asarray(n_iterations, dtype=np.int64),
            "max_edge_probability_difference": per_chain,
        },
        index=pd.RangeIndex(len(best_scores), name="chain"),
    )
    spread = float(top - started.min()) if started.size else 0.0
    if chain_prob.shape[1] and len(best_scores) > 1:
        between = float((chain_prob.max(axis=0) - chain_prob.min(axis=0)).max())
    else:
        between = 0.0
    frame.attrs["spread"] = spread
    frame.attrs["max_edge_probability_difference"] = between
    return frame


def warn_if_unconverged(summary: pd.DataFrame, threshold: float = SPREAD_WARNING, stacklevel: int = 2) -> bool:
    """Issue a :class:`ConvergenceWarning` when the chains' bests spread by more than ``threshold``.

    Returns whether it warned.

    Examples
    --------
    >>> frame = convergence_summary(np.array([-10.0, -10.5]), np.array([1, 1]), np.array([9, 9]),
    ...                             np.zeros((2, 1)), np.zeros(1))
    >>> warn_if_unconverged(frame)
    False
    """
    spread = float(summary.attrs.get("spread", 0.0))
    if spread <= threshold:
        return False
    worst = int(np.nanargmin(summary["best_score"].to_numpy()))
    warnings.warn(
        f"The chains disagree: their best scores spread over {spread:.2f} log-units (chain {worst} is lowest), "
        "so the search has not settled on one posterior mode. Give it more time (max_time or n_iter) or more "
        "chains, and compare convergence_ again.",
        ConvergenceWarning,
        stacklevel=stacklevel + 1,
    )
    return True
