"""Exact posterior over all decomposable (stratified) graphs of a few variables."""

from __future__ import annotations

import pandas as pd
from pgmpy import config
from tqdm.auto import tqdm

from pgmpy_sgm.causal_discovery._order import canonical_order, reorder_posterior
from pgmpy_sgm.causal_discovery._posterior import posterior_frame
from pgmpy_sgm.core.engine import ScoreEngine
from pgmpy_sgm.core.moves import DecomposableState, chordal_families
from pgmpy_sgm.structure_score import SGMScore

__all__ = ["exhaustive_posterior"]

#: Largest number of variables enumerated by default (2**15 graphs, 18,154 of them chordal).
MAX_VARIABLES = 6


def exhaustive_posterior(
    data: pd.DataFrame,
    strata: bool = True,
    weights=None,
    state_names: dict | None = None,
    prior: str = "paper",
    max_variables: int = MAX_VARIABLES,
    max_labelled_clique: int = 5,
    show_progress: bool = True,
) -> pd.DataFrame:
    r"""Exact posterior of every decomposable graph on the data's variables, each with optimal strata.

    Every graph on the ``d`` variables is tested for chordality; each chordal graph is
    scored with the best labelling of each of its cliques (the maximal regular
    stratified graph of highest score, :meth:`SGMScore.optimal_strata
    <pgmpy_sgm.structure_score.SGMScore.optimal_strata>`), and the log unnormalized
    posteriors are normalized over all of them:

    .. math::

        P(G_L \mid X) = \frac{p(X \mid G_L) P(G_L)}{\sum_{G'} p(X \mid G'_L) P(G'_L)}.

    Parameters
    ----------
    data : pandas.DataFrame
        Discrete data, rows or a table of counts (see ``weights``).
    strata : bool, default=True
        False: ordinary decomposable graphical models (no labels).
    weights : str or array-like, optional
        Name of a count column of ``data``, or one count per row.
    state_names : dict, optional
        ``{variable: [states]}``.
    prior : {"paper", "uniform"}, default="paper"
        Structure prior of :class:`~pgmpy_sgm.structure_score.SGMScore`.
    max_variables : int, default=6
        Refuse more variables than this (there are ``2 ** (d (d - 1) / 2)`` graphs).
    max_labelled_clique : int, default=5
        Larger cliques stay unlabelled.
    show_progress : bool, default=True
        Show a progress bar over the graphs (also needs ``pgmpy.config.SHOW_PROGRESS``).

    Returns
    -------
    pandas.DataFrame
        One row per decomposable graph, sorted by ``log_posterior`` (descending), with
        columns ``edges`` (tuple of ``(u, v)`` in column order), ``strata`` (as
        :attr:`StratifiedGraph.strata <pgmpy_sgm.models.StratifiedGraph.strata>`),
        ``log_posterior``, ``probability`` (exact), ``n_edges`` and ``n_labels``. The
        graphs are enumerated and scored in the canonical variable order of
        :class:`~pgmpy_sgm.causal_discovery.NonReversibleMCMC` (sorted column names), so
        the result does not depend on the column order.

    Raises
    ------
    ValueError
        If the data have more than ``max_variables`` variables.

    Examples
    --------
    >>> from pgmpy_sgm.datasets import load_heart_disease
    >>> post = exhaustive_posterior(load_heart_disease(as_counts=True), weights="count", show_progress=False)
    >>> len(post), [round(x, 2) for x in post["log_posterior"][:2]]
    (18154, [-6715.9, -6716.66])
    >>> post["strata"][0]
    {('smoking', 'systolic_bp'): [{'lipoprotein_ratio': 1}], ('systolic_bp', 'lipoprotein_ratio'): [{'smoking': 0}]}

    References
    ----------
    .. [1] H. Nyman, J. Pensar, T. Koski and J. Corander. Stratified graphical models:
       context-specific independence in graphical models. Bayesian Analysis 9(4), 2014.
    """

    if isinstance(max_variables, bool) or not isinstance(max_variables, int) or max_variables < 1:
        raise ValueError(f"max_variables must be a positive integer. Got: {max_variables!r}")
    if not isinstance(strata, bool):
        raise TypeError(f"strata must be a bool. Got: {strata!r}")
    if not isinstance(show_progress, bool):
        raise TypeError(f"show_progress must be a bool. Got: {show_progress!r}")
    columns = list(data.columns) if isinstance(data, pd.DataFrame) else None
    if columns is not None:
        data = data[canonical_order(columns)]
    scorer = SGMScore(
        data, state_names=state_names, weights=weights, prior=prior, max_labelled_clique=max_labelled_clique
    )
    if len(scorer.variables) > max_variables:
        raise ValueError(
            f"exhaustive_posterior enumerates 2**(d(d-1)/2) graphs; the data have d={len(scorer.variables)} variables, "
            f"more than max_variables={max_variables}. Got: {len(scorer.variables)}"
        )
    scores = enumerate_scores(scorer.engine, strata, show_progress=show_progress)
    frame, _ = posterior_frame(scorer.engine, scores, strata=strata)
    if columns is None:
        return frame
    return reorder_posterior(frame, [c for c in columns if c in set(scorer.variables)], scorer.state_names)


def enumerate_scores(engine: ScoreEngine, strata: bool = True, show_progress: bool = False) -> dict[int, float]:
    """``{key: log unnormalized posterior}`` of every chordal graph (keys as in :mod:`pgmpy_sgm.core.moves`).

    Examples
    --------
    >>> import pandas as pd
    >>> from pgmpy_sgm import SGMScore
    >>> engine = SGMScore(pd.DataFrame({"a": [0, 1, 1], "b": [0, 1, 0], "c": [1, 1, 0]})).engine
    >>> len(enumerate_scores(engine))  # all 8 graphs on 3 nodes are chordal
    8
    """
    bar = None
    if show_progress and config.SHOW_PROGRESS:

        bar = tqdm(total=1 << len(engine.pairs), desc="exhaustive_posterior", unit="graph")
    try:
        return _enumerate(engine, strata, bar)
    finally:
        if bar is not None:
            bar.close()


def _enumerate(engine: ScoreEngine, strata: bool, bar) -> dict[int, float]:
    n = engine.n
    pairs = engine.pairs
    scores: dict[int, float] = {}
    adj = [0] * n
    # Gray code: toggle one pair per step so the adjacency is updated in O(1)
    previous = 0
    for step in range(1 << len(pairs)):
        key = step ^ (step >> 1)
        changed = key ^ previous
        if changed:
            i, j = pairs[changed.bit_length() - 1]
            adj[i] ^= 1 << j
            adj[j] ^= 1 << i
        previous = key
        if chordal_families(adj) is not None:
            scores[key] = DecomposableState(engine, key, strata).score
        if bar is not None and step & 1023 == 1023:
            bar.update(1024)
    if bar is not None:
        bar.update(bar.total - bar.n)
    return dict(sorted(scores.items()))
