"""Parameters of a contextual Markov network: fitting, likelihood, sampling, conversion (methods of the class)."""

from __future__ import annotations

import functools
import math
import warnings

import numpy as np
import pandas as pd
from pgmpy.factors.discrete import DiscreteFactor
from pgmpy.models import DiscreteMarkovNetwork, JunctionTree

from pgmpy_sgm.core.arguments import check_number, random_generator
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
from pgmpy_sgm.core.posterior_parts import with_scopes
from pgmpy_sgm.models._cmn_inference import JunctionTreeEngine, align
from pgmpy_sgm.models._cmn_parameters import broadcast_sum, cyclical_projection, log_probabilities
from pgmpy_sgm.models._cmn_smoothing import choose_pseudo_count

__all__ = ["ParameterMethods", "DEFAULT_JOINT_CELLS", "DEFAULT_PSEUDO_COUNT"]

#: Default total weight of :meth:`ParameterMethods.fit`'s uniform pseudo-sample: each clique table gets
#: what a BDeu prior with equivalent sample size 5 (pgmpy's and the package's default) gives a CPD.
DEFAULT_PSEUDO_COUNT = 5.0

#: Largest joint table :meth:`ParameterMethods.joint` builds by default.
DEFAULT_JOINT_CELLS = 1_000_000


class ParameterMethods:
    """Methods of :class:`~pgmpy_sgm.models.ContextualMarkovNetwork` that need its factors."""

    def fit(self, data: pd.DataFrame, weights=None, pseudo_count: float | str = DEFAULT_PSEUDO_COUNT, *,
            state_names=None, tol: float = 1e-8, max_iter: int = 500, missing="error"):  # fmt: skip
        r"""Fit the clique factors by cyclical projection (maximum likelihood, optionally smoothed); returns ``self``.

        The distribution is ``p(x) ∝ prod_C phi_C(x_C)`` over the maximal cliques, with the
        contexts holding exactly (the context-tied log-linear parameters stay tied). The
        estimate matches the data's expectations of every function the model is made of:
        a clique none of whose edges has contexts gets the data's clique marginal; for a clique
        with contexts, the marginal outside the contexts and, inside them, the margins the
        independence leaves free. ``pseudo_count`` adds a pseudo-sample of that total weight
        spread uniformly over all joint outcomes (``pseudo_count / |X_A|`` per cell of any
        marginal table over ``A``), so no cell gets probability zero; ``0`` gives the maximum
        likelihood estimate. The default, 5, gives every clique table the pseudo-counts of a
        BDeu prior with equivalent sample size 5; it was chosen by held-out log-likelihood over
        0.5-20 on data the package's benchmark does not use (``benchmarks/bench_mpl.py
        --smoothing``): with multi-state variables and a few hundred rows a weight of 1 leaves
        rare clique cells nearly empty. ``"cv"`` chooses it for these data instead: the value of
        ``CV_PSEUDO_COUNTS`` (0.5, 1, 2, 5, 10, 20) with the highest 5-fold cross-validated
        log-likelihood on the rows given (each fold scored under the network fitted on the
        others; folds drawn with a fixed seed; whole-number row counts needed); it costs
        5 x 6 more fits. Cliques sharing an edge with contexts are fitted together by
        Newton's method, the others by iterative proportional fitting, one after the other,
        until an entire sweep changes no expectation by more than ``tol``.

        Parameters
        ----------
        data : pandas.DataFrame
            One column per variable (string names; other columns are ignored).
        weights : str or array-like, optional
            Name of a count column of ``data``, or one count per row.
        pseudo_count : float or "cv", default=5.0
            Total weight of the uniform pseudo-sample (0: maximum likelihood; ``"cv"``: chosen by
            cross-validation, see above).
        state_names : dict, optional
            ``{variable: [states]}`` overriding the model's. Variables without declared states
            keep the binary default ``(0, 1)`` when their values are the integers 0/1, and
            otherwise take the sorted observed values.
        tol : float, default=1e-8
            Largest difference, in probability, between a fitted and a data expectation at the end.
        max_iter : int, default=500
            Maximum number of sweeps over the cliques.
        missing : {"error", "complete_cases", "em", "state"} or EMOptions, default="error"
            Missing cells (NaN, None, ``pd.NA``, empty strings) of the model's variables:
            refused with an error naming every column with gaps; incomplete rows dropped
            (with a warning); the factors fitted by EM (``"em"`` or an
            :class:`~pgmpy_sgm.core.missing.EMOptions`; a numeric ``pseudo_count``): starting
            from the fit on the complete cases (from the Chow-Liu tree of the pairwise available
            cases when there are fewer than 30), each E-step spreads every incomplete row over its
            completions by the current network's posterior and each M-step is this cyclical
            projection on the expected counts (context-tied parameters stay tied), until the
            observed-data log-likelihood rises by less than ``max(tol, rtol * |log-likelihood|)`` of
            ``EMOptions`` (see :func:`~pgmpy_sgm.core.missing.parameter_em`); ``em_history_``
            records it per iteration. ``"state"``: missing becomes a state named
            ``"missing"``; a column with gaps then holds strings, so its declared states and
            the contexts' states of it are read as strings too.

        Returns
        -------
        ContextualMarkovNetwork
            With ``factors`` (pgmpy ``DiscreteFactor`` per maximal clique), ``n_iter_``,
            ``converged_`` and ``pseudo_count_`` (the pseudo-count used); with ``"cv"`` also
            ``cv_scores_`` (``{pseudo_count: cross-validated log-likelihood per row}``); with
            ``missing="em"`` on data with missing cells also ``em_history_``.

        Warns
        -----
        ConvergenceWarning
            When ``max_iter`` sweeps end with a larger difference (a maximum likelihood estimate
            on the boundary, where some probabilities tend to zero, converges slowly).

        Examples
        --------
        >>> import pandas as pd
        >>> from pgmpy_sgm.models import ContextualMarkovNetwork
        >>> data = pd.DataFrame({"a": [0, 0, 1, 1, 1], "b": [0, 1, 1, 1, 0]})
        >>> cmn = ContextualMarkovNetwork([("a", "b")]).fit(data, pseudo_count=0)
        >>> cmn.joint().values.round(3).tolist()  # one clique: the data's table
        [[0.2, 0.2], [0.2, 0.4]]
        >>> cmn.get_factors()  # doctest: +ELLIPSIS
        [<DiscreteFactor representing phi(a:2, b:2) at 0x...>]
        """

        if isinstance(pseudo_count, str) and pseudo_count != "cv":
            raise ValueError(f"pseudo_count must be a finite number >= 0 or 'cv'. Got: {pseudo_count!r}")
        if not isinstance(pseudo_count, str):
            check_number(pseudo_count, "pseudo_count", 0.0)
        check_number(tol, "tol", 0.0, strict=True)
        check_number(max_iter, "max_iter", 1, integer=True)
        if not isinstance(data, pd.DataFrame):
            raise TypeError(f"data must be a pandas DataFrame. Got: {type(data).__name__}")
        nodes = list(self.nodes())
        absent = [v for v in nodes if v not in data.columns]
        if absent:
            raise ValueError(f"The data lack the model's variable(s) {absent}")
        if isinstance(weights, str) and weights not in data.columns:
            raise ValueError(f"weights column {weights!r} is not a column of the data: {list(data.columns)}")
        choice = check_missing_option(missing)
        columns = nodes + ([weights] if isinstance(weights, str) else [])
        declared = {**self.graph.get("state_names", {}), **(state_names or {})}
        if choice == "em" and not missing_cells(data, nodes).empty:
            if isinstance(pseudo_count, str):
                raise ValueError("pseudo_count='cv' needs whole-number row counts, which EM's expected counts are not; "
                                 "give a number with missing='em'.")  # fmt: skip
            return self._fit_em(data[columns], weights, float(pseudo_count), declared, tol, max_iter,
                                em_options(missing))  # fmt: skip
        gaps = list(missing_cells(data, nodes).index) if choice == "state" else []
        data, weights = resolve_missing(data[columns], weights, choice, nodes, stacklevel=3)
        encoded = self._adopt_states(data[columns], weights, declared, gaps)
        self.cv_scores_ = None
        if isinstance(pseudo_count, str):
            codes = encoded.codes[:, [encoded.variables.index(v) for v in nodes]]
            pseudo_count, self.cv_scores_ = choose_pseudo_count(self, self.cardinalities(), self._indexed_contexts(),
                                                                codes, encoded.weights, nodes)  # fmt: skip
        self.pseudo_count_ = float(pseudo_count)
        result = cyclical_projection(self, self.cardinalities(), self._indexed_contexts(), encoded.counts,
                                     float(pseudo_count), float(tol), int(max_iter))
        if not result.converged:
            from pgmpy_sgm.causal_discovery._convergence import ConvergenceWarning

            warnings.warn(f"Cyclical projection stopped after max_iter={max_iter} sweeps with expectations "
                          f"{result.max_gap:.2g} from the data's (tol={tol:g}); raise max_iter or pseudo_count.",
                          ConvergenceWarning, stacklevel=2)
        self._set_log_potentials(result.log_potentials)
        self.n_iter_, self.converged_ = result.n_iter, result.converged
        return self

    def _adopt_states(self, data: pd.DataFrame, weights, declared: dict, gaps: list) -> EncodedData:
        """``data`` encoded in the states the fit reads (declared, or as found), adopted by the network.

        With ``missing="state"`` the columns ``gaps`` hold strings, and the contexts' states of
        them are restated the same way. Everything is restored if the contexts no longer fit.
        """
        restated = contexts_as_missing_states(self, "contexts", gaps) if gaps else {}
        before = dict(self.graph["state_names"])
        try:
            nodes = list(self.nodes())
            encoded = EncodedData(data, weights=weights,
                                  state_names=fit_states(data, nodes, states_with_missing(declared, gaps)))  # fmt: skip
            self.set_state_names({v: encoded.state_names[v] for v in nodes
                                  if tuple(encoded.state_names[v]) != self.node_states(v)})  # fmt: skip
            self.factors = []
            self._check_contexts()
        except Exception:
            self.graph["state_names"] = before
            for (u, v), found in restated.items():
                self.edges[u, v]["contexts"] = found
            raise
        return encoded

    def _fit_em(self, data: pd.DataFrame, weights, pseudo_count: float, declared: dict, tol: float, max_iter: int,
                options):  # fmt: skip
        """Parameter EM (see ``missing`` of :meth:`fit`); ``em_history_`` records each iteration."""
        nodes = list(self.nodes())
        table = IncompleteTable.from_frame(data, weights, {v: declared[v] for v in nodes if v in declared})

        def fit(completed):
            self.fit(completed.frame, weights=completed.counts, pseudo_count=pseudo_count,
                     state_names=table.state_names, tol=tol, max_iter=max_iter)  # fmt: skip
            return self.log_probability_function(table.variables, table.state_names)

        self.em_history_ = parameter_em(table, fit, options)
        return self

    def _set_log_potentials(self, log_potentials: dict) -> None:

        factors = []
        for clique, table in log_potentials.items():
            top = table.max()
            values = np.exp(table - (top if np.isfinite(top) else 0.0))
            factors.append(DiscreteFactor(list(clique), list(values.shape), values,
                                          state_names={v: list(self.node_states(v)) for v in clique}))
        self.factors = factors

    # -- reading the factors ----------------------------------------------------------------
    def has_parameters(self) -> bool:
        """Whether the network has factors (from :meth:`fit` or ``add_factors``).

        Examples
        --------
        >>> from pgmpy_sgm.models import ContextualMarkovNetwork
        >>> ContextualMarkovNetwork([("a", "b")]).has_parameters()
        False
        """
        return bool(self.factors)

    def _log_factors(self) -> list[tuple]:
        if not self.factors:
            raise ValueError("The network has no factors; call fit(data) first.")
        out = []
        for factor in self.factors:
            for v in factor.variables:
                if list(factor.state_names[v]) != list(self.node_states(v)):
                    raise ValueError(f"A factor over {factor.variables} gives {v!r} the states "
                                     f"{list(factor.state_names[v])}; the network has {list(self.node_states(v))}.")
            with np.errstate(divide="ignore"):
                out.append((tuple(factor.variables), np.log(np.asarray(factor.values, dtype=float))))
        return out

    def _calibrated(self) -> tuple[JunctionTreeEngine, list, float]:
        factors = self._log_factors()
        engine = JunctionTreeEngine(self, self.cardinalities(), cover=[scope for scope, _ in factors])
        log_z, beliefs = engine.calibrate(factors)
        return engine, beliefs, log_z

    def log_partition(self) -> float:
        """Natural log of the normalising constant of the product of the factors (exact, by a junction tree).

        Examples
        --------
        >>> import numpy as np
        >>> from pgmpy.factors.discrete import DiscreteFactor
        >>> from pgmpy_sgm.models import ContextualMarkovNetwork
        >>> cmn = ContextualMarkovNetwork([("a", "b")])
        >>> cmn.add_factors(DiscreteFactor(["a", "b"], [2, 2], [1.0, 2.0, 3.0, 4.0],
        ...                                state_names={"a": [0, 1], "b": [0, 1]}))
        >>> round(float(np.exp(cmn.log_partition())), 6)
        10.0
        """
        return self._calibrated()[2]

    def joint(self, max_cells: int = DEFAULT_JOINT_CELLS):
        """The normalised joint distribution (node order) as a pgmpy ``DiscreteFactor`` (small networks).

        Raises
        ------
        ValueError
            If the table would have more than ``max_cells`` cells.

        Examples
        --------
        >>> import pandas as pd
        >>> from pgmpy_sgm.models import ContextualMarkovNetwork
        >>> cmn = ContextualMarkovNetwork([("a", "b")]).fit(pd.DataFrame({"a": [0, 1], "b": [0, 1]}))
        >>> round(float(cmn.joint().values.sum()), 12)
        1.0
        """

        nodes = list(self.nodes())
        size = math.prod(len(self.node_states(v)) for v in nodes)
        if size > max_cells:
            raise ValueError(f"The joint of {len(nodes)} variables has {size:,} cells, more than max_cells="
                             f"{max_cells:,}; use to_junction_tree() and pgmpy inference instead.")
        log_joint = broadcast_sum(dict(self._log_factors()), nodes)
        log_joint = np.broadcast_to(log_joint, [len(self.node_states(v)) for v in nodes])
        values = np.exp(log_joint - self.log_partition())
        return DiscreteFactor(nodes, list(values.shape), values, state_names=self.states)

    def log_likelihood(self, data: pd.DataFrame, per_row: bool = False):
        """Natural-log likelihood of rows of data (exact: the normalising constant by a junction tree).

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
            If a variable is missing or a value is not one of the network's states.

        Examples
        --------
        >>> import pandas as pd
        >>> from pgmpy_sgm.models import ContextualMarkovNetwork
        >>> data = pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]})
        >>> cmn = ContextualMarkovNetwork([("a", "b")]).fit(data, pseudo_count=0)
        >>> cmn.log_likelihood(pd.DataFrame({"a": [1, 0], "b": [1, None]}), per_row=True).round(4).tolist()
        [-0.6931, -0.6931]
        """
        nodes = list(self.nodes())
        states = {v: list(self.node_states(v)) for v in nodes}
        total = rows_log_probability(data, states, self.log_probability_function(nodes))
        return total if per_row else float(total.sum())

    def log_probability_function(self, variables: list, state_names=None):
        """``f(codes)``: the log probability of complete rows given as state indices.

        Column ``j`` of ``codes`` holds positions in ``state_names[variables[j]]`` (default: the
        network's states); used for the E-step of structural EM.

        Examples
        --------
        >>> import pandas as pd
        >>> from pgmpy_sgm.models import ContextualMarkovNetwork
        >>> data = pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 1, 1]})
        >>> cmn = ContextualMarkovNetwork([("a", "b")]).fit(data, pseudo_count=0)
        >>> f = cmn.log_probability_function(["b", "a"])
        >>> np.exp(f(np.array([[1, 1], [0, 1]]))).round(4).tolist()  # P(a=1, b=1) = 1/2, P(a=1, b=0) = 0
        [0.5, 0.0]
        """
        nodes = list(self.nodes())
        order = columns_of(nodes, variables)
        if state_names is not None:
            columns_of(nodes, list(state_names), "state names of")
        to_model = [None if state_names is None else recoding(state_names[v], self.node_states(v), v) for v in nodes]
        _, _, log_z = self._calibrated()
        log_potentials = dict(self._log_factors())

        source = dict(zip(nodes, zip(order, to_model, strict=True), strict=True))  # node: (column, recoding)

        def column(codes: np.ndarray, v) -> np.ndarray:
            j, m = source[v]
            return codes[:, j] if m is None else m[codes[:, j]]

        def log_probability(codes: np.ndarray) -> np.ndarray:
            codes = np.asarray(codes)
            own = np.column_stack([column(codes, v) for v in nodes])
            return log_probabilities(log_potentials, log_z, own, nodes)

        def potential_term(codes: np.ndarray, clique: tuple) -> np.ndarray:
            return log_potentials[clique][tuple(column(np.asarray(codes), v) for v in clique)]

        terms = [functools.partial(potential_term, clique=clique) for clique in log_potentials]
        return with_scopes(log_probability, [[source[v][0] for v in clique] for clique in log_potentials], terms)

    def simulate(self, n_samples: int = 10, seed: int | None = None) -> pd.DataFrame:
        """Draw ``n_samples`` independent rows exactly (down a junction tree of the factors).

        Parameters
        ----------
        n_samples : int, default=10
        seed : int, optional
            Seed of ``numpy.random.default_rng``.

        Returns
        -------
        pandas.DataFrame
            Columns in node order holding the network's state names.

        Examples
        --------
        >>> import pandas as pd
        >>> from pgmpy_sgm.models import ContextualMarkovNetwork
        >>> cmn = ContextualMarkovNetwork([("a", "b")]).fit(pd.DataFrame({"a": [0, 1], "b": [0, 1]}))
        >>> cmn.simulate(n_samples=3, seed=0).shape
        (3, 2)
        """
        check_number(n_samples, "n_samples", 0, integer=True)
        engine, beliefs, _ = self._calibrated()
        codes = engine.sample(beliefs, int(n_samples), random_generator(seed))
        columns = {}
        for v in self.nodes():
            states = np.empty(len(self.node_states(v)), dtype=object)
            states[:] = list(self.node_states(v))
            columns[v] = pd.Series(states[codes[v]], dtype=object).infer_objects()
        return pd.DataFrame(columns, columns=list(self.nodes()))

    # -- conversion ----------------------------------------------------------------------------
    def to_markov_network(self):
        """A plain pgmpy ``DiscreteMarkovNetwork`` with the same graph and (copies of the) factors.

        Examples
        --------
        >>> import pandas as pd
        >>> from pgmpy_sgm.models import ContextualMarkovNetwork
        >>> cmn = ContextualMarkovNetwork([("a", "b")]).fit(pd.DataFrame({"a": [0, 1], "b": [0, 1]}))
        >>> mn = cmn.to_markov_network()
        >>> type(mn).__name__, mn.check_model()
        ('DiscreteMarkovNetwork', True)
        """

        network = DiscreteMarkovNetwork()
        network.add_nodes_from(self.nodes())
        network.add_edges_from(self.edges())
        network.add_factors(*[f.copy() for f in self.factors])
        return network

    def to_junction_tree(self):
        """A pgmpy ``JunctionTree`` of a triangulation, for exact inference with pgmpy's ``BeliefPropagation``.

        The triangulation is greedy minimum fill; each factor is multiplied into one clique
        that holds it, cliques without a factor get ones.

        Examples
        --------
        >>> import pandas as pd
        >>> from pgmpy.inference import BeliefPropagation
        >>> from pgmpy_sgm.models import ContextualMarkovNetwork
        >>> data = pd.DataFrame({"a": [0, 1, 1, 0], "b": [0, 1, 0, 0], "c": [1, 1, 0, 0], "d": [0, 1, 1, 1]})
        >>> cmn = ContextualMarkovNetwork([("a", "b"), ("b", "c"), ("c", "d"), ("d", "a")]).fit(data)
        >>> jt = cmn.to_junction_tree()
        >>> [len(c) for c in jt.nodes()]
        [3, 3]
        >>> marginal = BeliefPropagation(jt).query(["a"], show_progress=False)
        >>> round(float(marginal.values.sum()), 12)
        1.0
        """

        factors = self._log_factors()
        engine = JunctionTreeEngine(self, self.cardinalities(), cover=[scope for scope, _ in factors])
        tree = JunctionTree()
        tree.add_nodes_from(engine.cliques)
        tree.add_edges_from((engine.cliques[i], engine.cliques[j]) for i, j in engine.tree_edges)
        tables = [np.zeros([len(self.node_states(v)) for v in c]) for c in engine.cliques]

        for scope, log_table in factors:
            i = engine.home(scope)
            tables[i] = tables[i] + align(log_table, scope, engine.cliques[i])
        for clique, table in zip(engine.cliques, tables, strict=True):
            values = np.exp(table - (table.max() if np.isfinite(table.max()) else 0.0))
            tree.add_factors(DiscreteFactor(list(clique), list(values.shape), values,
                                            state_names={v: list(self.node_states(v)) for v in clique}))
        return tree
