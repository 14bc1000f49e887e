"""Posterior model averaging: predict with a weighted mixture of the most probable stratified graphs."""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Sequence

import numpy as np
import pandas as pd
from scipy.special import logsumexp

from pgmpy_sgm.models.stratified_graph import StratifiedGraph
from pgmpy_sgm.models.stratified_graphical_model import StratifiedGraphicalModel

__all__ = ["ModelAverage"]


class ModelAverage:
    r"""A posterior-weighted mixture of fitted stratified graphical models.

    The predictive distribution of Bayesian model averaging over the top models
    :math:`m = 1, \dots, M` of a posterior,

    .. math::

        p(x \mid \text{data}) \approx \sum_{m=1}^{M} w_m \, p_m(x),
        \qquad w_m = \frac{P(G_m \mid \text{data})}{\sum_{m'=1}^{M} P(G_{m'} \mid \text{data})},

    where :math:`p_m` is the joint distribution of the stratified graph :math:`G_m` with its
    parameters fitted on the training data (posterior means by default). Build it from a
    fitted :class:`~pgmpy_sgm.causal_discovery.NonReversibleMCMC` with :meth:`from_estimator`
    (the top models holding a given share of the estimated posterior mass), from any
    posterior table with :meth:`from_posterior` (e.g. that of
    :func:`~pgmpy_sgm.causal_discovery.exhaustive_posterior`), or directly from fitted models
    and weights.

    Parameters
    ----------
    models : sequence of StratifiedGraphicalModel
        Fitted models over the same variables.
    weights : array-like of shape (n_models,)
        Non-negative weights with a positive sum; they are normalized to sum to 1.

    Attributes
    ----------
    models : list of StratifiedGraphicalModel
    weights : numpy.ndarray of shape (n_models,)
        Normalized mixture weights (sum 1), in the order of ``models``.
    n_models : int
    variables : list
        The variables of the models (those of the first model, in its order).

    Raises
    ------
    ValueError
        If there are no models, the numbers of models and weights differ, a weight is
        negative or not finite, the weights sum to zero, the models' variables differ, or
        a model has no parameters.
    TypeError
        If a model is not a :class:`~pgmpy_sgm.models.StratifiedGraphicalModel`.

    See Also
    --------
    NonReversibleMCMC : the estimator whose ``posterior_`` this averages.

    Examples
    --------
    >>> from pgmpy_sgm.datasets import load_heart_disease
    >>> from pgmpy_sgm.causal_discovery import ModelAverage, NonReversibleMCMC
    >>> data = load_heart_disease()
    >>> est = NonReversibleMCMC(n_iter=300, seed=0, show_progress=False).fit(data)
    >>> avg = ModelAverage.from_estimator(est, data, mass=0.9)
    >>> avg.n_models > 1, round(float(avg.weights.sum()), 12)
    (True, 1.0)
    >>> per_row = avg.log_likelihood(data.head(3), per_row=True)
    >>> per_row.shape
    (3,)
    >>> best = est.posterior_.iloc[0]
    >>> single = StratifiedGraphicalModel(list(best["edges"]), strata=best["strata"], nodes=data.columns).fit(data)
    >>> avg.log_likelihood(data) > single.log_likelihood(data) - 5   # close to the best model in-sample
    True
    """

    def __init__(self, models: Sequence[StratifiedGraphicalModel], weights) -> None:
        if isinstance(models, StratifiedGraphicalModel | str) or not isinstance(models, Iterable):
            raise TypeError(f"models must be a list of fitted StratifiedGraphicalModels. Got: {models!r:.80}")
        models = list(models)
        if not models:
            raise ValueError("ModelAverage needs at least one model")
        for i, m in enumerate(models):
            if not isinstance(m, StratifiedGraphicalModel):
                raise TypeError(f"models[{i}] must be a StratifiedGraphicalModel. Got: {type(m).__name__}")
            if not m.has_parameters:
                raise ValueError(f"models[{i}] has no parameters; fit it first")
        variables = list(models[0].nodes())
        for i, m in enumerate(models[1:], start=1):
            if set(m.nodes()) != set(variables):
                raise ValueError(
                    f"models[{i}] has variables {sorted(map(str, m.nodes()))}, "
                    f"models[0] has {sorted(map(str, variables))}"
                )
        try:
            w = np.asarray(weights, dtype=np.float64).reshape(-1)
        except (TypeError, ValueError):
            raise TypeError(f"weights must be numbers, one per model. Got: {weights!r:.80}") from None
        if w.shape[0] != len(models):
            raise ValueError(f"Got {len(models)} model(s) but {w.shape[0]} weight(s)")
        if not np.all(np.isfinite(w)) or np.any(w < 0):
            raise ValueError(f"weights must be finite and non-negative. Got: {w.tolist()}")
        if not w.sum() > 0:
            raise ValueError("weights must have a positive sum")
        self.models: list[StratifiedGraphicalModel] = models
        self.weights: np.ndarray = w / w.sum()
        self.variables: list = variables

    @property
    def n_models(self) -> int:
        """Number of models in the mixture.

        Examples
        --------
        >>> import pandas as pd
        >>> data = pd.DataFrame({"a": [0, 1, 1], "b": [0, 1, 0]})
        >>> m = StratifiedGraphicalModel([("a", "b")]).fit(data)
        >>> ModelAverage([m], [1.0]).n_models
        1
        """
        return len(self.models)

    # -- construction -------------------------------------------------------------------
    @staticmethod
    def _select(probability: np.ndarray, mass: float, max_models: int) -> int:
        """Number of leading rows (sorted by decreasing probability) holding ``mass`` of the total."""
        total = probability.sum()
        cumulative = np.cumsum(probability) / total
        k = int(np.searchsorted(cumulative, mass * (1 - 1e-12), side="left")) + 1
        return max(1, min(k, max_models, len(probability)))

    @classmethod
    def from_posterior(
        cls,
        posterior: pd.DataFrame,
        data: pd.DataFrame,
        mass: float = 0.99,
        max_models: int = 50,
        estimator: str = "bayes",
        weights=None,
        state_names: dict | None = None,
        scorer=None,
    ) -> ModelAverage:
        """The top models of a posterior table, each fitted on ``data``.

        Parameters
        ----------
        posterior : pandas.DataFrame
            Columns ``edges``, ``strata`` and ``probability`` as in
            :attr:`NonReversibleMCMC.posterior_` or :func:`exhaustive_posterior`.
            Rows are taken by decreasing ``probability``.
        data : pandas.DataFrame
            Training data (one column per variable; other columns are ignored unless named by
            ``weights``).
        mass : float, default=0.99
            Take the fewest top models whose probabilities sum to at least this share of the
            table's total, in ``(0, 1]``.
        max_models : int, default=50
            Take at most this many models.
        estimator : {"bayes", "mle"}, default="bayes"
            Parameter estimator of :meth:`StratifiedGraphicalModel.fit`.
        weights : str or array-like, optional
            Name of a count column of ``data``, or one count per row.
        state_names : dict, optional
            ``{variable: [states]}`` for every model (e.g. states absent from ``data``).
        scorer : SGMScore, optional
            Used to label a selected graph whose ``strata`` entry is missing (None), with
            :meth:`SGMScore.optimal_strata`; without it such a graph is fitted unlabelled.

        Returns
        -------
        ModelAverage

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> from pgmpy_sgm.causal_discovery import exhaustive_posterior
        >>> data = load_heart_disease(as_counts=True)
        >>> post = exhaustive_posterior(data, weights="count")
        >>> avg = ModelAverage.from_posterior(post, data, mass=0.5, weights="count")
        >>> avg.n_models, round(float(avg.weights[0]), 3)
        (5, 0.456)
        """
        if not isinstance(posterior, pd.DataFrame):
            raise TypeError(f"posterior must be a pandas DataFrame. Got: {type(posterior).__name__}")
        missing = [c for c in ("edges", "strata", "probability") if c not in posterior.columns]
        if missing:
            raise ValueError(f"posterior lacks column(s) {missing}")
        if len(posterior) == 0:
            raise ValueError("posterior has no rows")
        if not isinstance(data, pd.DataFrame):
            raise TypeError(f"data must be a pandas DataFrame. Got: {type(data).__name__}")
        if isinstance(mass, bool) or not isinstance(mass, numbers.Real) or not 0 < mass <= 1:
            raise ValueError(f"mass must be a number in (0, 1]. Got: {mass!r}")
        if isinstance(max_models, bool) or not isinstance(max_models, numbers.Integral) or max_models < 1:
            raise ValueError(f"max_models must be a positive integer. Got: {max_models!r}")
        if estimator not in ("bayes", "mle"):
            raise ValueError(f"estimator must be one of: bayes, mle. Got: {estimator!r}")
        probability = posterior["probability"].to_numpy(dtype=np.float64)
        if not np.all(np.isfinite(probability)) or np.any(probability < 0) or not probability.sum() > 0:
            raise ValueError("posterior['probability'] must be finite, non-negative and have a positive sum")
        order = np.argsort(-probability, kind="stable")
        table = posterior.iloc[order]
        probability = probability[order]
        k = cls._select(probability, float(mass), int(max_models))
        variables = [c for c in data.columns if not (isinstance(weights, str) and c == weights)]
        models = []
        for _, row in table.iloc[:k].iterrows():
            edges = [tuple(e) for e in row["edges"]]
            strata = row["strata"]
            if strata is None or (isinstance(strata, float) and np.isnan(strata)):
                strata = scorer.optimal_strata(edges).strata if scorer is not None else {}
            nodes = variables if scorer is None else list(scorer.variables)
            sg = StratifiedGraph(edges, strata=strata, nodes=nodes)
            model = StratifiedGraphicalModel(sg)
            model.fit(data, estimator=estimator, weights=weights, state_names=state_names)
            models.append(model)
        return cls(models, probability[:k])

    @classmethod
    def from_estimator(
        cls,
        est,
        data: pd.DataFrame,
        mass: float = 0.99,
        max_models: int = 50,
        estimator: str = "bayes",
        weights=None,
    ) -> ModelAverage:
        """The top models of a fitted estimator's ``posterior_``, each fitted on the training data.

        The models are the fewest graphs of highest estimated posterior probability (the
        normalized unnormalized posteriors of the visited graphs, see
        :class:`NonReversibleMCMC`) holding at least ``mass`` of it, at most ``max_models``;
        their probabilities are renormalized to the mixture weights. Each graph keeps the
        optimal strata stored in ``posterior_`` (computed with the estimator's scorer if the
        table does not hold them), and is fitted with the states the estimator saw.

        Parameters
        ----------
        est : NonReversibleMCMC
            A fitted estimator (any object with ``posterior_``, ``scorer_`` and ``variables_``).
        data : pandas.DataFrame
            The training data given to ``est.fit``.
        mass : float, default=0.99
            Share of the estimated posterior mass to keep, in ``(0, 1]``.
        max_models : int, default=50
            Cap on the number of models.
        estimator : {"bayes", "mle"}, default="bayes"
            Parameter estimator of :meth:`StratifiedGraphicalModel.fit`.
        weights : str or array-like, optional
            Counts of the rows of ``data``; by default the estimator's ``weights`` when it
            names a column of ``data``.

        Returns
        -------
        ModelAverage

        Raises
        ------
        ValueError
            If ``est`` is not fitted, ``data`` lacks a fitted variable, or ``mass``,
            ``max_models`` or ``estimator`` are invalid.

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> from pgmpy_sgm.causal_discovery import NonReversibleMCMC
        >>> data = load_heart_disease(as_counts=True)
        >>> est = NonReversibleMCMC(n_iter=300, seed=0, weights="count", show_progress=False).fit(data)
        >>> avg = ModelAverage.from_estimator(est, data)   # weights="count" is taken from est
        >>> 1 < avg.n_models <= 50
        True
        """
        if getattr(est, "posterior_", None) is None:
            raise ValueError("The estimator is not fitted (it has no posterior_); call fit first")
        if not isinstance(data, pd.DataFrame):
            raise TypeError(f"data must be a pandas DataFrame. Got: {type(data).__name__}")
        variables = list(est.variables_)
        missing = [v for v in variables if v not in data.columns]
        if missing:
            raise ValueError(f"The data lack the fitted variable(s) {missing}")
        if weights is None:
            own = getattr(est, "weights", None)
            if isinstance(own, str) and own in data.columns:
                weights = own
        columns = variables + ([weights] if isinstance(weights, str) else [])
        scorer = getattr(est, "scorer_", None)
        state_names = {v: list(s) for v, s in scorer.state_names.items()} if scorer is not None else None
        return cls.from_posterior(
            est.posterior_,
            data[columns],
            mass=mass,
            max_models=max_models,
            estimator=estimator,
            weights=weights,
            state_names=state_names,
            scorer=scorer if getattr(est, "strata", True) else None,
        )

    # -- prediction ---------------------------------------------------------------------
    def log_likelihood(self, X: pd.DataFrame, per_row: bool = False):
        r"""Natural-log likelihood of rows under the mixture, :math:`\log \sum_m w_m p_m(x)`.

        Computed per row with log-sum-exp over the models.

        Parameters
        ----------
        X : pandas.DataFrame
            A column per variable (other columns are ignored); values must be states of the models.
            Missing cells (NaN, None, empty) are summed out: a row with gaps gets the
            probability of its observed part.
        per_row : bool, default=False
            Return one value per row instead of the total.

        Returns
        -------
        float or numpy.ndarray of shape (n_rows,)
            ``-inf`` for rows of probability zero under every model.

        Raises
        ------
        TypeError
            If ``X`` is not a DataFrame.
        ValueError
            If a variable is missing or a value is not a known state.

        Examples
        --------
        >>> import pandas as pd
        >>> data = pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 0, 0, 1]})
        >>> joint = StratifiedGraphicalModel([("a", "b")]).fit(data)
        >>> empty = StratifiedGraphicalModel([], nodes=["a", "b"]).fit(data)
        >>> avg = ModelAverage([joint, empty], [0.5, 0.5])
        >>> # log(0.5 * (1 + 1) / (4 + 4) + 0.5 * (2 + 1) / (4 + 2) * (1 + 1) / (4 + 2)) = log(0.2083)
        >>> avg.log_likelihood(pd.DataFrame({"a": [1], "b": [1]}), per_row=True).round(4).tolist()
        [-1.5686]
        """
        if not isinstance(X, pd.DataFrame):
            raise TypeError(f"X must be a pandas DataFrame. Got: {type(X).__name__}")
        missing = [v for v in self.variables if v not in X.columns]
        if missing:
            raise ValueError(f"X lacks the model variable(s) {missing}")
        per_model = np.vstack([m.log_likelihood(X, per_row=True) for m in self.models])
        with np.errstate(divide="ignore"):
            log_w = np.log(self.weights)[:, None]
        values = logsumexp(per_model + log_w, axis=0)
        return values if per_row else float(values.sum())

    def n_free_parameters(self) -> int:
        """Total free parameters of the mixture's components (sum over models, plus ``n_models - 1`` weights).

        Examples
        --------
        >>> import pandas as pd
        >>> data = pd.DataFrame({"a": [0, 1, 1], "b": [0, 1, 0]})
        >>> m = StratifiedGraphicalModel([("a", "b")]).fit(data)
        >>> ModelAverage([m, m], [1, 1]).n_free_parameters()
        7
        """
        return int(sum(m.n_free_parameters() for m in self.models) + self.n_models - 1)

    def __repr__(self) -> str:
        top = float(self.weights.max())
        return f"<ModelAverage of {self.n_models} model(s) over {len(self.variables)} variables, top weight {top:.3f}>"
