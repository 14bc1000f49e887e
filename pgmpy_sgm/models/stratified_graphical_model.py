"""StratifiedGraphicalModel: a stratified graph with parameters (fit, joint, likelihood, sampling)."""

from __future__ import annotations

import functools
import warnings
from collections.abc import Mapping

import numpy as np
import pandas as pd
from pgmpy.factors import factor_product
from pgmpy.factors.discrete import DiscreteFactor

from pgmpy_sgm.convert import to_bayesian_network, to_junction_tree, to_markov_network
from pgmpy_sgm.core.arguments import random_generator
from pgmpy_sgm.core.data import EncodedData, fit_states
from pgmpy_sgm.core.missing import (
    IncompleteTable,
    check_missing_option,
    columns_of,
    contexts_as_missing_states,
    em_options,
    missing_cells,
    parameter_em,
    recoding,
    resolve_missing,
    rows_log_probability,
    states_with_missing,
)
from pgmpy_sgm.core.pooling import is_dask_frame, pool_data
from pgmpy_sgm.core.posterior_parts import with_scopes
from pgmpy_sgm.exceptions import StrataNotShownWarning
from pgmpy_sgm.models._estimators import merge_weights, read_estimator
from pgmpy_sgm.models._factor_estimation import (
    broadcast,
    check_distribution,
    clique_array,
    clique_pseudo_count,
    conditional_table,
    factor_from_joint,
    pooled_group_values,
)
from pgmpy_sgm.models._factor_plan import CliqueFactor, cell_count, plan_factors
from pgmpy_sgm.models._factor_sampling import forward_sample, log_probabilities
from pgmpy_sgm.models._statements import ContextSpecificIndependence
from pgmpy_sgm.models.labeled_bayesian_network import labelled_network
from pgmpy_sgm.models.stratified_graph import StratifiedGraph

__all__ = ["StratifiedGraphicalModel", "StrataNotShownWarning", "CliqueFactor"]

#: Largest joint table :meth:`StratifiedGraphicalModel.joint` builds without an explicit ``max_cells``.
DEFAULT_JOINT_CELLS = 1_000_000


class StratifiedGraphicalModel(StratifiedGraph):
    r"""A decomposable stratified graph with parameters: a joint distribution satisfying the strata.

    The joint distribution factorizes along a perfect ordering of the cliques taken from a
    rooted junction tree: each clique :math:`C` with separator :math:`S` (its intersection with
    the earlier cliques) contributes :math:`P(X_{C \setminus S} \mid X_S)`, stored in
    :attr:`clique_factors`. Inside a labelled clique whose center :math:`v` is not in :math:`S`,
    the center comes last and

    .. math::

        P(X_{C \setminus S} \mid X_S) = P(X_{C \setminus (S \cup \{v\})} \mid X_S)\,
        P(X_v \mid \text{group of } X_{C \setminus \{v\}}),

    so :math:`P(X_v \mid X_{C \setminus \{v\}})` of the joint is exactly the grouped table and every
    label of the clique holds exactly. The root of each junction tree (and, for a clique with a
    single labelled edge, which end is the center) is chosen to minimise the labelled cliques
    whose center lies in their separator. That is unavoidable, e.g., when one variable is the
    center of two labelled cliques. Such a clique gets a full table
    :math:`P(X_{C \setminus S} \mid X_S)` and its strata are listed in :attr:`strata_not_shown`:
    the joint is still Markov with respect to the graph and satisfies every other stratum
    exactly, but those listed hold only as far as the fitted table says (in general not exactly).

    Parameters
    ----------
    edges, strata, nodes, state_names
        As in :class:`StratifiedGraph`; ``edges`` may be a :class:`StratifiedGraph`.

    Attributes
    ----------
    clique_factors : list of CliqueFactor
        The parameters, one entry per clique in the perfect ordering (empty until
        :meth:`fit`, :meth:`random`, :meth:`from_joint` or :meth:`from_cpds`).

    Examples
    --------
    >>> from pgmpy_sgm.datasets import load_heart_disease
    >>> from pgmpy_sgm.models import StratifiedGraphicalModel
    >>> edges = [("smoking", "physical_work"), ("smoking", "systolic_bp"), ("smoking", "lipoprotein_ratio"),
    ...          ("mental_work", "physical_work"), ("physical_work", "lipoprotein_ratio"),
    ...          ("systolic_bp", "lipoprotein_ratio")]
    >>> strata = {("smoking", "systolic_bp"): [{"lipoprotein_ratio": 1}],
    ...           ("systolic_bp", "lipoprotein_ratio"): [{"smoking": 0}]}
    >>> data = load_heart_disease()
    >>> model = StratifiedGraphicalModel(edges, strata=strata, nodes=data.columns).fit(data)
    >>> model
    <StratifiedGraphicalModel with 6 nodes, 6 edges, 2 labelled edges (2 labels), 12 free parameters>
    >>> round(model.log_likelihood(data), 2)
    -6675.62
    >>> model.simulate(3, seed=0).shape
    (3, 6)
    """

    def __init__(self, edges=None, strata=None, nodes=None, state_names=None):
        super().__init__(edges, strata=strata, nodes=nodes, state_names=state_names)
        self.clique_factors: list[CliqueFactor] = []
        self._fingerprint = None

    # -- structure --------------------------------------------------------------------
    def _structure_key(self):
        return self._identity(), tuple(self.nodes()), tuple((v, self.states(v)) for v in self.nodes())

    def _plan(self) -> list[CliqueFactor]:
        return plan_factors(StratifiedGraph.copy(self))  # a plain graph: its checks ignore the parameters

    @property
    def has_parameters(self) -> bool:
        """Whether parameters are set (and still match the graph).

        Examples
        --------
        >>> StratifiedGraphicalModel([("a", "b")]).has_parameters
        False
        """
        return bool(self.clique_factors) and self._fingerprint == self._structure_key()

    @property
    def strata_not_shown(self) -> dict:
        """``{(u, v): [context, ...]}``: strata of labelled cliques whose center lies in their separator.

        Those strata are not enforced by the parameters (see the class notes); empty when
        every stratum is shown, as for any graph in which no two labelled cliques share their center.

        Examples
        --------
        >>> edges = [("a", "b"), ("a", "v"), ("b", "v"), ("v", "c"), ("v", "d"), ("c", "d")]
        >>> strata = {("a", "v"): [{"b": 0}], ("b", "v"): [{"a": 0}],
        ...           ("c", "v"): [{"d": 0}], ("d", "v"): [{"c": 0}]}
        >>> StratifiedGraphicalModel(edges, strata=strata).strata_not_shown
        {('v', 'c'): [{'d': 0}], ('v', 'd'): [{'c': 0}]}
        """
        factors = self.clique_factors if self.has_parameters else self._plan()
        hidden = [set(f.clique) for f in factors if f.center is None and f.labelled_center is not None]
        return {e: c for e, c in self.strata.items() if any(set(e) <= h for h in hidden)}

    @property
    def ordering(self) -> tuple:
        """The perfect ordering of the variables used by the parameters (and the Bayesian network).

        Examples
        --------
        >>> StratifiedGraphicalModel([("a", "b"), ("b", "c")]).ordering
        ('a', 'b', 'c')
        """
        factors = self.clique_factors if self.has_parameters else self._plan()
        return tuple(w for f in factors for w in f.new)

    def require_parameters(self) -> None:
        """A ValueError unless the model has parameters that still match its graph, strata and state names.

        Examples
        --------
        >>> StratifiedGraphicalModel([("a", "b")]).require_parameters()
        Traceback (most recent call last):
            ...
        ValueError: The model has no parameters: call fit(data), or build it with random(), from_joint() or from_cpds().
        """
        if not self.clique_factors:
            raise ValueError("The model has no parameters: call fit(data), or build it with random(), from_joint() "
                             "or from_cpds().")
        if self._fingerprint != self._structure_key():
            raise ValueError("The graph, strata or state names changed after the parameters were set; "
                             "call fit(data) again.")

    def set_clique_factors(self, factors: list[CliqueFactor], warn: bool = True) -> None:
        """Set the parameters: one :class:`CliqueFactor` per clique of the perfect ordering (checked).

        With ``warn``, a :class:`StrataNotShownWarning` names the strata the parameters cannot show.

        Examples
        --------
        >>> import pandas as pd
        >>> data = pd.DataFrame({"a": [0, 1, 1, 0], "b": [0, 1, 1, 1]})
        >>> fitted = StratifiedGraphicalModel([("a", "b")]).fit(data)
        >>> copy = StratifiedGraphicalModel([("a", "b")], state_names=fitted.state_names)
        >>> copy.set_clique_factors(fitted.clique_factors)
        >>> copy.get_cpds()[1].values.round(3).tolist() == fitted.get_cpds()[1].values.round(3).tolist()
        True
        """
        self.clique_factors = list(factors)
        self._fingerprint = self._structure_key()
        self.check_model()
        hidden = self.strata_not_shown
        if warn and hidden:
            warnings.warn(
                f"The strata {hidden} cannot be shown by the parameters: their clique's center lies in its "
                "separator (it is the center of another labelled clique). Those cliques get full conditional "
                "tables; see strata_not_shown.",
                StrataNotShownWarning,
                stacklevel=3,
            )

    # -- parameters ---------------------------------------------------------------------
    def fit(
        self,
        data: pd.DataFrame,
        estimator="bayes",
        sample_weight=None,
        *,
        weights=None,
        state_names: Mapping | None = None,
        missing="error",
    ):
        r"""Estimate the parameters from data; returns ``self``.

        Every clique :math:`C` of the perfect ordering with separator :math:`S` and new
        variables :math:`N = C \setminus S` is estimated from the (weighted) counts
        :math:`n(\cdot)` of the data plus a pseudo-count :math:`a_C` per cell of the clique:

        * clique without shown labels:
          :math:`P(x_N \mid x_S) = (n(x_C) + a_C) / (n(x_S) + a_C |X_N|)`;
        * labelled clique with center :math:`v` (:math:`k_v` states) not in :math:`S`:
          :math:`P(x_{N \setminus v} \mid x_S) = (n(x_{C \setminus v}) + a_C k_v) /
          (n(x_S) + a_C k_v |X_{N \setminus v}|)` (the cells of :math:`v` summed) and, for each
          group :math:`B` of :math:`\lambda_B` parent configurations,
          :math:`P(v = i \mid B) = (n_{iB} + a_C \lambda_B) / (n_B + a_C k_v \lambda_B)`: the
          counts of the tied configurations pooled, their pseudo-counts summed.

        A root clique has :math:`S = \emptyset` and :math:`n(x_S) = n`. The estimator sets
        :math:`a_C`; pgmpy's per-variable priors are read per cell of the clique, the unit of
        the parameters here:

        * ``"bayes"`` or ``"bayesian"`` (the default), and
          ``DiscreteBayesianEstimator(prior_type="K2")``: :math:`a_C = 1`, the prior of
          :class:`~pgmpy_sgm.structure_score.SGMScore` (posterior means);
        * ``"mle"`` and ``DiscreteMLE()``: :math:`a_C = 0` (maximum likelihood);
        * ``DiscreteBayesianEstimator(prior_type="BDeu", equivalent_sample_size=ESS)``:
          :math:`a_C = ESS / |X_C|` (:math:`|X_C|` the cells of the clique);
        * ``DiscreteBayesianEstimator(prior_type="dirichlet", pseudo_counts=x)``: :math:`a_C = x`
          (one number; 0 without ``pseudo_counts``).

        With :math:`a_C = 0`, a conditioning configuration (or group) without data gets the
        uniform distribution, as in pgmpy's ``DiscreteMLE``. Pseudo-counts given per variable
        (a dict of ESS or of arrays) are refused: they do not fit clique tables; fit the
        network of :meth:`to_bayesian_network` (a
        :class:`~pgmpy_sgm.models.LabeledBayesianNetwork`, which keeps the ties) for those.

        The default differs from pgmpy's ``DiscreteBayesianNetwork.fit`` (maximum likelihood):
        the parameters are those of the Bayesian model the score learns (posterior means
        under :class:`~pgmpy_sgm.structure_score.SGMScore`'s prior), and they give no clique
        cell zero probability, so held-out data never get a log-likelihood of ``-inf``.

        Parameters
        ----------
        data : pandas.DataFrame or dask.dataframe.DataFrame
            One column per variable of the model (other columns are ignored), one row per
            observation or counts in ``weights``. A Dask DataFrame is pooled into distinct
            rows with counts where its partitions live.
        estimator : str or pgmpy estimator, default="bayes"
            See the list above; a pgmpy ``DiscreteMLE`` or ``DiscreteBayesianEstimator`` instance
            or class (its ``state_names`` are used). ``DiscreteEM`` is refused.
        sample_weight : array-like of shape (n_samples,), optional
            Per-row weights, as in pgmpy.
        weights : str or array-like, optional
            Name of a count column of ``data``, or one count per row (an alternative to
            ``sample_weight``).
        state_names : dict, optional
            ``{variable: [states]}`` overriding the model's (and the estimator's). Variables
            without declared states keep the binary default ``(0, 1)`` when their values are
            the integers 0/1, and otherwise take the sorted observed values.
        missing : {"error", "complete_cases", "em", "state"} or EMOptions, default="error"
            Missing cells (NaN, None, ``pd.NA``, empty strings) of the model's variables:
            refused with an error naming every column with gaps; incomplete rows dropped
            (with a warning); the parameters fitted by EM (``"em"`` or an
            :class:`~pgmpy_sgm.core.missing.EMOptions`): starting from the fit on the complete
            cases (from the Chow-Liu tree of the pairwise available cases when there are
            fewer than 30), each E-step
            spreads every incomplete row over its completions by the current parameters'
            posterior, each M-step fits ``estimator`` to the expected counts (stratum-tied
            parameters stay tied: they are fitted from pooled counts), until the observed-data
            log-likelihood rises by less than ``max(tol, rtol * |log-likelihood|)``; ``em_history_``
            records it per iteration. The first E-steps are capped (each row keeps at most
            ``EMOptions.max_kept`` completions, the rest carried by draws), the last ones exact
            (see :func:`~pgmpy_sgm.core.missing.parameter_em`).
            With ``estimator="mle"`` this is EM for the likelihood, whose exact iterations never
            lower it;
            with pseudo-counts, EM for the corresponding posterior mode. ``"state"``: missing
            becomes a state named ``"missing"``; a column with gaps then holds strings, so its
            declared states and the strata's states of it are read as strings too.

        Returns
        -------
        StratifiedGraphicalModel

        Raises
        ------
        TypeError, ValueError
            For an estimator other than those above, per-variable pseudo-counts or bad weights.

        Warns
        -----
        StrataNotShownWarning
            When :attr:`strata_not_shown` is not empty.

        Examples
        --------
        >>> import pandas as pd
        >>> from pgmpy.parameter_estimator import DiscreteMLE
        >>> data = pd.DataFrame({"a": [0, 0, 1, 1], "b": ["x", "y", "y", "y"]})
        >>> model = StratifiedGraphicalModel([("a", "b")]).fit(data)
        >>> model.state_names
        {'a': (0, 1), 'b': ('x', 'y')}
        >>> model.clique_factors[0].table.round(3).tolist()  # (n(a, b) + 1) / (4 + 4)
        [[0.25, 0.25], [0.125, 0.375]]
        >>> model.fit(data, estimator=DiscreteMLE()).clique_factors[0].table.tolist()
        [[0.25, 0.25], [0.0, 0.5]]
        """
        spec = read_estimator(estimator)
        weights = merge_weights(weights, sample_weight)
        choice = check_missing_option(missing)
        self.clique_factors, self._fingerprint = [], None
        if is_dask_frame(data):  # pool the model's columns where the partitions live
            keep = [c for c in data.columns if c in set(self.nodes()) or (isinstance(weights, str) and c == weights)]
            data, weights = pool_data(data[keep], weights, keep_missing=choice != "error")
        if not isinstance(data, pd.DataFrame):
            raise TypeError(f"data must be a pandas DataFrame. Got: {type(data).__name__}")
        nodes = list(self.nodes())
        absent = [v for v in nodes if v not in data.columns]
        if absent:
            raise ValueError(f"The data lack the model's variable(s) {absent}")
        declared = {**self.graph.get("state_names", {}), **(spec.state_names or {}), **(state_names or {})}
        if choice == "em" and not missing_cells(data, nodes).empty:
            return self._fit_em(data, weights, spec, declared, em_options(missing))
        gaps = list(missing_cells(data, nodes).index) if choice == "state" else []
        data, weights = resolve_missing(data, weights, choice, nodes, stacklevel=3)
        if not gaps:
            return self._fit_complete(data, weights, spec, declared)
        old = contexts_as_missing_states(self, "stratum", gaps)  # the strata name the columns' states as strings
        try:
            return self._fit_complete(data, weights, spec, states_with_missing(declared, gaps))
        except Exception:
            for (u, v), found in old.items():
                self.edges[u, v]["stratum"] = found
            raise

    def _fit_complete(self, data: pd.DataFrame, weights, spec, declared: Mapping) -> StratifiedGraphicalModel:
        """Parameters from complete data (see :meth:`fit`)."""
        nodes = list(self.nodes())
        names = fit_states(data, nodes, declared)
        if isinstance(weights, str) and weights not in data.columns:
            raise ValueError(f"weights column {weights!r} is not a column of the data: {list(data.columns)}")
        columns = nodes + ([weights] if isinstance(weights, str) else [])
        encoded = EncodedData(data[columns], weights=weights, state_names=names)
        changed = {v: encoded.state_names[v] for v in nodes if tuple(encoded.state_names[v]) != self.states(v)}
        if changed:
            self.set_state_names(changed)
        self.check_model()
        factors = []
        for step in self._plan():
            pseudo = clique_pseudo_count(spec, cell_count(len(self.states(w)) for w in step.clique))
            if step.center is None:
                table = conditional_table(encoded.counts(step.separator + step.new), len(step.separator), pseudo)
                factors.append(step.with_values(table))
                continue
            k = len(self.states(step.center))
            table = conditional_table(encoded.counts(step.table_variables), len(step.separator), pseudo * k)
            counts = encoded.counts(step.parents + (step.center,)).reshape(-1, k)
            factors.append(step.with_values(table, pooled_group_values(counts, step.group_ids, pseudo)))
        self.set_clique_factors(factors)
        return self

    def _fit_em(self, data: pd.DataFrame, weights, spec, declared: Mapping, options) -> StratifiedGraphicalModel:
        """Parameter EM (see ``missing`` of :meth:`fit`); ``em_history_`` records each iteration."""
        nodes = list(self.nodes())
        columns = nodes + ([weights] if isinstance(weights, str) else [])
        table = IncompleteTable.from_frame(data[columns], weights, {v: declared[v] for v in nodes if v in declared})

        def fit(completed):
            self._fit_complete(completed.frame, completed.counts, spec, table.state_names)
            return self.log_probability_function(table.variables, table.state_names)

        self.em_history_ = parameter_em(table, fit, options)
        return self

    def log_probability_function(self, variables: list, state_names: Mapping | None = None):
        """``f(codes)``: the log probability of complete rows given as state indices.

        Column ``j`` of ``codes`` holds positions in ``state_names[variables[j]]`` (default: the
        model's states); used for the E-step of EM and for scoring many rows at once.

        Examples
        --------
        >>> import pandas as pd
        >>> model = StratifiedGraphicalModel([("a", "b")]).fit(pd.DataFrame({"a": [0, 1], "b": [0, 1]}))
        >>> f = model.log_probability_function(["b", "a"])
        >>> f(np.array([[0, 0], [1, 0]])).round(4).tolist()  # (1 + 1) / 6 and 1 / 6
        [-1.0986, -1.7918]
        """
        nodes = list(self.nodes())
        order = columns_of(nodes, variables)
        if state_names is not None:
            columns_of(nodes, list(state_names), "state names of")
        to_model = [None if state_names is None else recoding(state_names[v], self.states(v), v) for v in nodes]
        factors = self.clique_factors
        source = dict(zip(nodes, zip(order, to_model, strict=True), strict=True))  # node: (column, recoding)

        def recoded(codes: np.ndarray, among: list) -> np.ndarray:
            own = np.empty((len(codes), len(among)), dtype=np.int64, order="F")  # read by column below
            for k, v in enumerate(among):
                j, m = source[v]
                own[:, k] = codes[:, j] if m is None else m[codes[:, j]]
            return own

        def log_probability(codes: np.ndarray) -> np.ndarray:
            return log_probabilities(factors, recoded(codes, nodes), nodes, self.states)

        def factor_term(codes: np.ndarray, factor, among: list) -> np.ndarray:
            return log_probabilities([factor], recoded(codes, among), among, self.states)

        scope_nodes = [list(dict.fromkeys([*f.clique, *f.table_variables, *f.parents])) for f in factors]
        scopes = [[source[w][0] for w in among] for among in scope_nodes]
        terms = [functools.partial(factor_term, factor=f, among=among)
                 for f, among in zip(factors, scope_nodes, strict=True)]  # fmt: skip
        return with_scopes(log_probability, scopes, terms)

    @classmethod
    def random(cls, graph, seed: int | None = None, concentration: float = 1.0) -> StratifiedGraphicalModel:
        """A model over ``graph`` with random parameters satisfying its (shown) strata.

        Every conditional distribution (each separator configuration of a table, each
        group of a center) is drawn from a symmetric Dirichlet with ``concentration``.

        Parameters
        ----------
        graph : StratifiedGraph
        seed : int, optional
            Seed of ``numpy.random.default_rng``.
        concentration : float, default=1.0

        Examples
        --------
        >>> sg = StratifiedGraph([("a", "b"), ("a", "c"), ("b", "c")], strata={("b", "c"): [{"a": 1}]})
        >>> model = StratifiedGraphicalModel.random(sg, seed=0)
        >>> model.n_free_parameters(), float(model.joint().values.sum()).__round__(12)
        (6, 1.0)
        """
        if not concentration > 0:
            raise ValueError(f"concentration must be positive. Got: {concentration!r}")
        rng = random_generator(seed)
        model = cls(graph)
        factors = []
        for step in model._plan():
            cards = [len(model.states(w)) for w in step.table_variables]
            n_rows = cell_count(cards[: len(step.separator)])
            n_cols = cell_count(cards[len(step.separator):])
            table = rng.dirichlet(np.full(n_cols, concentration), size=n_rows).reshape(cards)
            values = None
            if step.center is not None:
                k = len(model.states(step.center))
                values = rng.dirichlet(np.full(k, concentration), size=max(step.group_ids) + 1).T
            factors.append(step.with_values(table, values))
        model.set_clique_factors(factors)
        return model

    @classmethod
    def from_joint(cls, graph, joint, atol: float = 1e-9) -> StratifiedGraphicalModel:
        """The model over ``graph`` with the given joint distribution (which must satisfy it).

        Parameters
        ----------
        graph : StratifiedGraph
        joint : pgmpy.factors.discrete.DiscreteFactor
            Over exactly the graph's variables, with the graph's state names (variables
            without declared states take the factor's).
        atol : float, default=1e-9
            Tolerance of the checks that the joint satisfies the strata and is Markov.

        Raises
        ------
        ValueError
            If the variables or states differ, a conditional of a center is not constant within
            a group, or the joint does not factorize over the graph.

        Examples
        --------
        >>> sg = StratifiedGraph([("a", "b")])
        >>> joint = StratifiedGraphicalModel.random(sg, seed=1).joint()
        >>> StratifiedGraphicalModel.from_joint(sg, joint).joint() == joint
        True
        """
        model = cls(graph)
        nodes = list(model.nodes())
        if sorted(map(repr, joint.variables)) != sorted(map(repr, nodes)) or len(joint.variables) != len(nodes):
            raise ValueError(f"The joint is over {list(joint.variables)}; the graph has {nodes}")
        declared = model.graph.get("state_names", {})
        names = {v: tuple(joint.state_names[v]) for v in nodes}
        wrong = [v for v in nodes if v in declared and names[v] != model.states(v)]
        if wrong:
            v = wrong[0]
            raise ValueError(f"The joint's states of {v!r} {names[v]} differ from the graph's {model.states(v)}")
        model.set_state_names(names)
        axes = [list(joint.variables).index(v) for v in nodes]
        values = np.transpose(np.asarray(joint.values, dtype=np.float64), axes)
        if np.any(values < -atol) or not np.isfinite(values).all() or abs(values.sum() - 1.0) > atol:
            raise ValueError("The joint must hold finite non-negative probabilities summing to 1.")
        factors = [factor_from_joint(step, values, nodes, model.states, atol) for step in model._plan()]
        model.set_clique_factors(factors)
        if np.max(np.abs(model._joint_array() - values)) > atol:
            raise ValueError("The joint does not factorize over the graph (it is not Markov with respect to it).")
        return model

    @classmethod
    def from_cpds(cls, graph, cpds, atol: float = 1e-9, max_cells: int = DEFAULT_JOINT_CELLS):
        """The model over ``graph`` whose joint is the product of ``cpds`` (see :meth:`from_joint`).

        Parameters
        ----------
        graph : StratifiedGraph
        cpds : iterable of TabularCPD, or a pgmpy DiscreteBayesianNetwork
        atol : float, default=1e-9
        max_cells : int, default=1_000_000
            Refuse joints with more cells.

        Examples
        --------
        >>> from pgmpy.factors.discrete import TabularCPD
        >>> cpds = [TabularCPD("a", 2, [[0.3], [0.7]]),
        ...         TabularCPD("b", 2, [[0.9, 0.2], [0.1, 0.8]], evidence=["a"], evidence_card=[2])]
        >>> model = StratifiedGraphicalModel.from_cpds(StratifiedGraph([("a", "b")]), cpds)
        >>> round(float(model.joint().get_value(a=1, b=1)), 12)
        0.56
        """
        cpds = list(cpds.get_cpds()) if hasattr(cpds, "get_cpds") else list(cpds)
        if not cpds:
            raise ValueError("cpds is empty")
        cards = {}
        for cpd in cpds:
            cards.update(zip(cpd.variables, (int(k) for k in cpd.cardinality), strict=True))
        if cell_count(cards.values()) > max_cells:
            raise ValueError(f"The joint of the CPDs has {cell_count(cards.values()):,} cells, more than "
                             f"max_cells={max_cells:,}.")
        joint = factor_product(*[cpd.to_factor() for cpd in cpds])
        return cls.from_joint(graph, joint, atol=atol)

    # -- distribution ---------------------------------------------------------------------
    def _joint_array(self) -> np.ndarray:
        nodes = list(self.nodes())
        cards = [len(self.states(v)) for v in nodes]
        out = np.ones(cards)
        for f in self.clique_factors:
            out = out * broadcast(clique_array(f, self.states), f.clique, nodes)
        return out

    def joint(self, max_cells: int = DEFAULT_JOINT_CELLS):
        """The joint distribution over all variables (node order), as a pgmpy ``DiscreteFactor``.

        Raises
        ------
        ValueError
            If the table would have more than ``max_cells`` cells.

        Examples
        --------
        >>> model = StratifiedGraphicalModel.random(StratifiedGraph([("a", "b")]), seed=0)
        >>> model.joint().variables, round(float(model.joint().values.sum()), 12)
        (['a', 'b'], 1.0)
        """
        self.require_parameters()
        nodes = list(self.nodes())
        size = cell_count(len(self.states(v)) for v in nodes)
        if size > max_cells:
            raise ValueError(f"The joint of {len(nodes)} variables has {size:,} cells, more than max_cells="
                             f"{max_cells:,}; use to_bayesian_network() and pgmpy inference instead.")
        values = self._joint_array()
        return DiscreteFactor(nodes, values.shape, values, state_names={v: list(self.states(v)) for v in nodes})

    def log_likelihood(self, data: pd.DataFrame, per_row: bool = False):
        """Natural-log likelihood of rows of data under the model (e.g. held-out data).

        Parameters
        ----------
        data : pandas.DataFrame
            A column per variable; other columns are ignored.
        per_row : bool, default=False
            Return one value per row instead of the total.

        Returns
        -------
        float or numpy.ndarray of shape (n_rows,)
            ``-inf`` for rows of probability zero. A row with missing cells (NaN, None,
            ``pd.NA``, empty strings) gets the log probability of its observed part: its
            completions' probabilities summed (exactly, up to 131,072 completions per row).

        Raises
        ------
        ValueError
            If a variable is missing or a value is not one of the model's states.

        Examples
        --------
        >>> import pandas as pd
        >>> model = StratifiedGraphicalModel([("a", "b")]).fit(pd.DataFrame({"a": [0, 1], "b": [0, 1]}))
        >>> model.log_likelihood(pd.DataFrame({"a": [0, 0], "b": [0, 1]}), per_row=True).round(4).tolist()
        [-1.0986, -1.7918]
        """
        self.require_parameters()
        nodes = list(self.nodes())
        states = {v: list(self.states(v)) for v in nodes}
        total = rows_log_probability(data, states, self.log_probability_function(nodes))
        return total if per_row else float(total.sum())

    def simulate(self, n_samples: int = 10, seed: int | None = None, *, n: int | None = None) -> pd.DataFrame:
        """Draw ``n_samples`` rows by forward sampling along :attr:`ordering` (pgmpy's ``simulate``).

        Parameters
        ----------
        n_samples : int, default=10
            Number of rows.
        seed : int, optional
            Seed of ``numpy.random.default_rng``.
        n : int, optional
            Deprecated name of ``n_samples``.

        Returns
        -------
        pandas.DataFrame
            Columns in node order holding the model's state names.

        Examples
        --------
        >>> sg = StratifiedGraph([("a", "b")], state_names={"b": ["lo", "hi"]})
        >>> StratifiedGraphicalModel.random(sg, seed=0).simulate(n_samples=4, seed=1).columns.tolist()
        ['a', 'b']
        """
        if n is not None:
            warnings.warn(
                "simulate(n=...) is deprecated; use simulate(n_samples=...), as in pgmpy.", FutureWarning, stacklevel=2
            )
            n_samples = n
        if isinstance(n_samples, bool) or not isinstance(n_samples, int | np.integer) or n_samples < 0:
            raise ValueError(f"n_samples must be a non-negative integer. Got: {n_samples!r}")
        self.require_parameters()
        nodes = list(self.nodes())
        codes = forward_sample(self.clique_factors, self.states, int(n_samples), random_generator(seed))
        columns = {}
        for v in nodes:
            states = np.empty(len(self.states(v)), dtype=object)
            states[:] = list(self.states(v))
            columns[v] = pd.Series(states[codes[v]], dtype=object).infer_objects()
        return pd.DataFrame(columns, columns=nodes)

    def get_factors(self) -> list:
        r"""The clique factors as pgmpy ``DiscreteFactor``\ s, one per clique of the perfect ordering.

        The factor of clique :math:`C` with separator :math:`S` holds
        :math:`P(X_{C \setminus S} \mid X_S)` over the clique's variables; their product is the
        joint distribution (see :meth:`to_markov_network`).

        Examples
        --------
        >>> model = StratifiedGraphicalModel.random(StratifiedGraph([("a", "b"), ("b", "c")]), seed=0)
        >>> [f.variables for f in model.get_factors()]
        [['a', 'b'], ['b', 'c']]
        """
        self.require_parameters()
        factors = []
        for f in self.clique_factors:
            values = clique_array(f, self.states)
            names = {v: list(self.states(v)) for v in f.clique}
            factors.append(DiscreteFactor(list(f.clique), values.shape, values, state_names=names))
        return factors

    def get_cpds(self, node=None):
        r"""The CPDs of the model's Bayesian network (:meth:`to_bayesian_network`), as pgmpy's ``get_cpds``.

        The network is oriented along :attr:`ordering`; the shown centers get
        :class:`~pgmpy_sgm.factors.TreeCPD`\ s (their groups as tied leaves), the other
        variables ``TabularCPD``\ s. Their product is the model's joint distribution. The
        CPDs are computed from the clique factors at each call (changing them does not
        change the model).

        Parameters
        ----------
        node : hashable, optional
            Return the CPD of this variable only.

        Returns
        -------
        list of TabularCPD, or TabularCPD

        Examples
        --------
        >>> sg = StratifiedGraph([("a", "b"), ("a", "c"), ("b", "c")], strata={("b", "c"): [{"a": 1}]})
        >>> model = StratifiedGraphicalModel.random(sg, seed=0)
        >>> [type(cpd).__name__ for cpd in model.get_cpds()]
        ['TabularCPD', 'TabularCPD', 'TreeCPD']
        >>> model.get_cpds("c").variables
        ['c', 'a', 'b']
        """
        if node is not None and node not in self.nodes():
            raise ValueError(f"Node {node!r} is not in the model")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", StrataNotShownWarning)  # fit and strata_not_shown say so
            network = to_bayesian_network(self)
        return network.get_cpds(node) if node is not None else network.get_cpds()

    # -- summaries and conversion -----------------------------------------------------------
    def independencies(self) -> list[ContextSpecificIndependence]:
        """The context-specific independencies of the strata (see :meth:`StratifiedGraph.independencies`).

        Examples
        --------
        >>> sg = StratifiedGraph([(1, 2), (1, 3), (2, 3)], strata={(2, 3): [{1: 1}]})
        >>> [str(s) for s in StratifiedGraphicalModel(sg).independencies()]
        ['2 ⟂ 3 | 1=1']
        """
        return super().independencies()

    def n_free_parameters(self, strata: bool = True) -> int:
        """Free parameters of the parameterization (``strata=False``: of the underlying graph).

        Equals :meth:`StratifiedGraph.n_free_parameters` unless :attr:`strata_not_shown` is
        non-empty; then the cliques with a full table count all their parameters. This is
        the number of free parameters of :meth:`to_bayesian_network`, groups counted once.

        Examples
        --------
        >>> sg = StratifiedGraph([(1, 2), (1, 3), (2, 3)], strata={(2, 3): [{1: 1}]})
        >>> StratifiedGraphicalModel(sg).n_free_parameters(), StratifiedGraphicalModel(sg).n_free_parameters(False)
        (6, 7)
        """
        if not strata:
            return super().n_free_parameters(strata=False)
        factors = self.clique_factors if self.has_parameters else self._plan()
        total = 0
        for f in factors:
            sep = cell_count(len(self.states(w)) for w in f.separator)
            rest = cell_count(len(self.states(w)) for w in f.table_variables[len(f.separator):])
            total += sep * (rest - 1)
            if f.center is not None:
                total += (max(f.group_ids) + 1) * (len(self.states(f.center)) - 1)
        return total

    def to_bayesian_network(self):
        """The equivalent pgmpy ``DiscreteBayesianNetwork``, as a :class:`~pgmpy_sgm.models.LabeledBayesianNetwork`.

        The network of :func:`pgmpy_sgm.convert.to_bayesian_network` (oriented along
        :attr:`ordering`, TreeCPDs at the shown centers) whose centers carry their groups as
        classes: :meth:`~pgmpy_sgm.models.LabeledBayesianNetwork.labels` gives the shown
        strata as labels of the edges into each center, and its ``fit``/``fit_update`` keep
        the ties. pgmpy's inference, sampling, ``do``, ``predict`` and writers take it as it is,
        except that pgmpy's ``BeliefPropagation`` refuses a network of several connected
        components (an isolated variable, say): use ``VariableElimination`` there, or
        ``BeliefPropagation`` on :meth:`to_junction_tree`, which joins the components.

        Warns
        -----
        StrataNotShownWarning
            When :attr:`strata_not_shown` is not empty (those strata are no labels of the network).

        Examples
        --------
        >>> sg = StratifiedGraph([(1, 2), (1, 3), (2, 3)], strata={(2, 3): [{1: 1}]})
        >>> bn = StratifiedGraphicalModel.random(sg, seed=0).to_bayesian_network()
        >>> type(bn.get_cpds(3)).__name__, bn.labels()
        ('TreeCPD', {(2, 3): [{1: 1}]})
        """
        classes = {f.center: (f.parents, list(f.group_ids)) for f in self.clique_factors if f.center is not None}
        network = to_bayesian_network(self)  # warns (here) when some strata are not shown
        return labelled_network(network, classes)

    def to_markov_network(self):
        """The equivalent pgmpy ``DiscreteMarkovNetwork`` (see :func:`pgmpy_sgm.convert.to_markov_network`).

        Examples
        --------
        >>> mn = StratifiedGraphicalModel.random(StratifiedGraph([("a", "b")]), seed=0).to_markov_network()
        >>> mn.check_model()
        True
        """
        return to_markov_network(self)

    def to_junction_tree(self):
        """A pgmpy ``JunctionTree`` of the clique factors (see :func:`pgmpy_sgm.convert.to_junction_tree`).

        Examples
        --------
        >>> jt = StratifiedGraphicalModel.random(StratifiedGraph([("a", "b"), ("b", "c")]), seed=0).to_junction_tree()
        >>> sorted(jt.nodes())
        [('a', 'b'), ('b', 'c')]
        """
        return to_junction_tree(self)

    def to_stratified_graph(self) -> StratifiedGraph:
        """The stratified graph alone (a plain :class:`StratifiedGraph`).

        Examples
        --------
        >>> type(StratifiedGraphicalModel([(1, 2)]).to_stratified_graph()).__name__
        'StratifiedGraph'
        """
        return StratifiedGraph.copy(self)

    def check_model(self) -> bool:
        """Check the stratified graph and, when set, that the parameters match it and are distributions.

        Raises
        ------
        ValueError
            Naming the clique or field at fault.

        Examples
        --------
        >>> StratifiedGraphicalModel.random(StratifiedGraph([("a", "b")]), seed=0).check_model()
        True
        """
        super().check_model()
        if not self.clique_factors:
            return True
        self.require_parameters()
        plan = self._plan()
        if len(plan) != len(self.clique_factors):
            raise ValueError(f"The parameters have {len(self.clique_factors)} cliques; the graph has {len(plan)}")
        for expected, f in zip(plan, self.clique_factors, strict=True):
            if not expected.same_structure(f):
                raise ValueError(f"The parameters of clique {f.clique} do not match the graph's perfect ordering "
                                 f"(expected {expected.clique} with separator {expected.separator}).")
            shape = tuple(len(self.states(w)) for w in f.table_variables)
            check_distribution(f.table, shape, len(f.separator), f"table of clique {f.clique}")
            if f.center is not None:
                shape = (len(self.states(f.center)), max(f.group_ids) + 1)
                check_distribution(f.group_values.T, shape[::-1], 1, f"group_values of clique {f.clique}")
        return True

    def copy(self) -> StratifiedGraphicalModel:
        """A copy with the same graph, strata, state names and parameters.

        Examples
        --------
        >>> model = StratifiedGraphicalModel.random(StratifiedGraph([("a", "b")]), seed=0)
        >>> model.copy() == model
        True
        """
        new = type(self)()
        new.graph.update({k: (dict(v) if isinstance(v, dict) else v) for k, v in self.graph.items()})
        new.add_nodes_from(self.nodes(data=True))
        new.add_edges_from((u, v, dict(d)) for u, v, d in self.edges(data=True))
        if self.has_parameters:
            new.clique_factors = list(self.clique_factors)  # factors are immutable
            new._fingerprint = new._structure_key()
        return new

    def __eq__(self, other) -> bool:
        if not isinstance(other, StratifiedGraphicalModel):
            return NotImplemented
        if self._structure_key() != other._structure_key() or len(self.clique_factors) != len(other.clique_factors):
            return False
        for a, b in zip(self.clique_factors, other.clique_factors, strict=True):
            if not a.same_structure(b) or not np.array_equal(a.table, b.table):
                return False
            if a.center is not None and not np.array_equal(a.group_values, b.group_values):
                return False
        return True

    __hash__ = None

    def __repr__(self) -> str:
        base = (f"<StratifiedGraphicalModel with {self.number_of_nodes()} nodes, {self.number_of_edges()} edges, "
                f"{len(self.labelled_edges())} labelled edges ({self.n_labels()} labels)")
        if not self.has_parameters:
            return base + ", no parameters>"
        return base + f", {self.n_free_parameters()} free parameters>"
