"""Marginal pseudo-likelihood of undirected graphs with edge contexts (contextual Markov networks)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from numbers import Real

import networkx as nx
import numpy as np
from pgmpy.structure_score import BaseStructureScore

from pgmpy_sgm.core._label_search import local_search
from pgmpy_sgm.core.bdeu_groups import CachedBlockWeights, dirichlet_class_weights
from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.core.lines import canonical_groups
from pgmpy_sgm.core.optimize import GroupsResult, best_partition_by_block, exact_search_fits, partition_space
from pgmpy_sgm.core.pooling import pooled_input
from pgmpy_sgm.structure_score._base import LOCAL_SCORE_CACHE_SIZE, LocalScoreCache
from pgmpy_sgm.structure_score._mpl_groups import blanket_groups, close_contexts, common_neighbours

__all__ = ["MPLScore", "DEFAULT_ALPHA", "DEFAULT_KAPPA", "check_mpl_settings"]

#: Default Dirichlet hyperparameter per state and blanket class (BDgraph's ``bdgraph.mpl`` default).
DEFAULT_ALPHA = 0.5

#: Default structure-prior factor per free parameter removed by contexts (chosen on held-out data,
#: see :class:`MPLScore`; the package's LDAG score has the same default).
DEFAULT_KAPPA = 0.2

#: Largest number of blanket configurations whose optimal classes are searched exactly.
MAX_EXACT_BLANKET_CONFIGS = 16


def check_mpl_settings(alpha, kappa) -> None:
    """Refuse, naming the value, an ``alpha`` or ``kappa`` that :class:`MPLScore` cannot take.

    Examples
    --------
    >>> check_mpl_settings(0.5, 0.2)
    >>> check_mpl_settings(0.5, 0)
    Traceback (most recent call last):
        ...
    ValueError: kappa must be a number in (0, 1]. Got: 0
    """
    if not (alpha == "bdeu" if isinstance(alpha, str) else
            isinstance(alpha, Real) and not isinstance(alpha, bool) and math.isfinite(alpha) and alpha > 0):
        raise ValueError(f"alpha must be a positive number or 'bdeu'. Got: {alpha!r}")
    if isinstance(kappa, bool) or not isinstance(kappa, Real) or not 0 < kappa <= 1:
        raise ValueError(f"kappa must be a number in (0, 1]. Got: {kappa!r}")


class MPLScore(LocalScoreCache, BaseStructureScore):
    r"""Marginal pseudo-likelihood (MPL) of Markov networks with edge contexts (Pensar et al., 2017).

    The pseudo-likelihood replaces the joint distribution by the product over variables of
    each variable's conditional distribution given its Markov blanket :math:`mb(j)` (its
    neighbours), which every undirected graph determines without a normalising constant.
    With independent Dirichlet priors on those conditionals the parameters integrate out:

    .. math::

        \log \hat p(X \mid G) = \sum_j \sum_{c} \Big[\log\Gamma(r_j\alpha_c)
        - \log\Gamma(n_{jc} + r_j\alpha_c)
        + \sum_{i=1}^{r_j} \big(\log\Gamma(n_{jci} + \alpha_c) - \log\Gamma(\alpha_c)\big)\Big],

    where :math:`c` runs over the *classes* of configurations of :math:`mb(j)` and
    :math:`n_{jci}` counts the rows with :math:`X_j` in state :math:`i` and the blanket in class
    :math:`c`. For a plain Markov network every configuration is a class of its own (the MPL of
    Pensar, Nyman, Niiranen & Corander); in a contextual Markov network a context ``x`` of an
    edge ``{j, v}`` (an outcome of the common neighbours of ``j`` and ``v``, in which
    :math:`X_j \perp X_v` given the rest) merges the configurations of :math:`mb(j)` that
    agree with ``x`` and differ only in :math:`X_v` (Pensar, Nyman & Corander). Contexts are
    closed first: a line of configurations lying inside one class states its context too
    (``pgmpy_sgm.structure_score._mpl_groups``).

    **Hyperparameters.** ``alpha`` (a number) puts :math:`\alpha_c = \alpha` on every state of
    every class, the convention of BDgraph's ``bdgraph.mpl`` (R), whose default is 0.5;
    ``alpha="bdeu"`` gives a class of :math:`\lambda_c` configurations
    :math:`\alpha_c = \lambda_c / (q_j r_j)` (equivalent sample size 1 per variable, pooled as
    the package's SG and LDAG scores pool theirs).

    **Structure prior.** :math:`\log P = \sum_j (q_j - |C_j|)(r_j - 1)\log\kappa`, with
    :math:`|C_j|` classes of :math:`q_j` configurations: each free parameter of a conditional
    that contexts remove costs :math:`\kappa` (the form the package's LDAG score uses);
    ``kappa=1`` is flat over graphs and contexts. The prior matters: the pseudo-likelihood
    counts the parameters of each saturated conditional table, so a context, which ties whole
    lines of configurations in the conditionals of both ends, looks cheaper to it than the
    log-linear constraint it is; with a flat prior, false contexts win on samples of a few
    thousand rows and cost held-out likelihood. The default ``kappa=0.2``
    (:data:`DEFAULT_KAPPA`) was chosen by held-out log-likelihood of ``MPLSearch`` over
    ``kappa`` in {1, 0.5, 0.2, 0.1} on data the benchmark does not use
    (``benchmarks/mpl_tuning.py``; see ``benchmarks/RESULTS.md``). The
    graph's edges carry no prior (flat over graphs).

    Parameters
    ----------
    data : pandas.DataFrame or dask.dataframe.DataFrame
        Discrete data, one row per observation or a table of counts (see ``weights``).
    state_names : dict, optional
        ``{variable: [states]}`` as in pgmpy.
    weights : str or array-like, optional
        Name of a count column of ``data``, or one count per row.
    alpha : float or "bdeu", default=0.5
        Dirichlet hyperparameter (see above).
    kappa : float, default=0.2
        Structure-prior factor per removed free parameter, in ``(0, 1]``.
    max_cells : int, optional
        Refuse contingency tables larger than this.

    Examples
    --------
    >>> from pgmpy_sgm.datasets import load_heart_disease
    >>> score = MPLScore(load_heart_disease(as_counts=True), weights="count")
    >>> chain = nx.Graph([("smoking", "systolic_bp"), ("systolic_bp", "lipoprotein_ratio")])
    >>> round(score.score(chain), 2)
    -7078.14
    >>> round(score.local_score("smoking", ("systolic_bp",)), 2)
    -1276.05

    References
    ----------
    .. [1] J. Pensar, H. Nyman, J. Niiranen and J. Corander. Marginal pseudo-likelihood learning
       of discrete Markov network structures. Bayesian Analysis 12(4), 1195-1215, 2017.
    .. [2] J. Pensar, H. Nyman and J. Corander. Structure learning of contextual Markov networks
       using marginal pseudo-likelihood. Scandinavian Journal of Statistics 44, 455-479, 2017.
    """

    _tags = {
        "name": "mpl",
        "supported_datatype": "discrete",
        "default_for": None,
        "is_parameteric": False,
    }

    def __init__(self, data, state_names=None, weights=None, alpha=DEFAULT_ALPHA, kappa: float = DEFAULT_KAPPA,
                 max_cells=None):  # fmt: skip
        check_mpl_settings(alpha, kappa)
        data, weights = pooled_input(data, weights)
        self.encoded = EncodedData(data, weights=weights, state_names=state_names, max_cells=max_cells)
        self.data = data
        self.weights = weights
        self.alpha = alpha
        self.kappa = float(kappa)
        self.max_cells = max_cells
        self.variables = list(self.encoded.variables)
        self.state_names = self.encoded.state_names
        self.dtypes = {v: "C" for v in self.variables}
        self.order = {v: i for i, v in enumerate(self.variables)}
        self._init_local_score_cache()
        self._extensions: dict = {}  # terms counted by extension_terms, read by _local_score
        super(BaseStructureScore, self).__init__()

    # -- class weights -------------------------------------------------------------------
    def class_weights(self, pooled: np.ndarray, sizes: np.ndarray, n_configs: int) -> np.ndarray:
        """MPL term plus prior charge of every class: ``pooled`` counts (classes x states), ``sizes`` configurations.

        Examples
        --------
        >>> import pandas as pd
        >>> score = MPLScore(pd.DataFrame({"a": [0, 1]}))
        >>> w = score.class_weights(np.array([[1.0, 1.0]]), np.array([1.0]), 1)[0]
        >>> bool(np.isclose(w, math.log(0.5 * 0.5 / (1.0 * 2.0))))  # Beta(1/2, 1/2): (1/2)(1/2) / (1 * 2)
        True
        """
        r = pooled.shape[1]
        alphas = (sizes / (n_configs * r)) if self.alpha == "bdeu" else float(self.alpha)
        return dirichlet_class_weights(pooled, alphas, sizes, math.log(self.kappa))

    def _blanket_counts(self, variable, blanket: tuple) -> np.ndarray:
        table = self.encoded.counts(tuple(blanket) + (variable,))
        return np.asarray(table, dtype=np.float64).reshape(-1, self.encoded.cardinality[variable])

    def grouped_term(self, variable, blanket, group_ids) -> float:
        """Local MPL term (with its prior charge) of ``variable`` whose blanket configurations fall into classes.

        ``group_ids`` gives the class of every configuration of ``blanket`` in C order (the last
        variable fastest), as the blanket is given.

        Examples
        --------
        >>> import pandas as pd
        >>> score = MPLScore(pd.DataFrame({"a": [0, 1, 0, 1], "b": [0, 1, 1, 1]}))
        >>> score.grouped_term("b", ("a",), [0, 1]) == score.local_score("b", ("a",))
        True
        """
        blanket = tuple(blanket)
        self._check_family(variable, blanket)
        counts = self._blanket_counts(variable, blanket)
        groups = np.asarray(group_ids, dtype=np.int64)
        if groups.shape != (counts.shape[0],) or (groups.size and groups.min() < 0):
            raise ValueError(f"group_ids must give a class (>= 0) to each of the {counts.shape[0]} configurations "
                             f"of {list(blanket)}. Got shape {groups.shape}")  # fmt: skip
        return self._classes_term(counts, canonical_groups(groups))

    def _classes_term(self, counts: np.ndarray, groups: np.ndarray) -> float:
        """:meth:`grouped_term` of the blanket's ``counts`` (configurations x states) under canonical ``groups``."""
        n_groups = int(groups.max()) + 1
        pooled = np.zeros((n_groups, counts.shape[1]))
        np.add.at(pooled, groups, counts)
        sizes = np.bincount(groups, minlength=n_groups).astype(np.float64)
        return float(math.fsum(self.class_weights(pooled, sizes, counts.shape[0])))

    def _local_score(self, variable, parents: tuple) -> float:
        """MPL term of ``variable`` given the blanket ``parents``, every configuration a class of its own.

        (``grouped_term`` with one class per configuration, without its grouping work; or the
        term :meth:`extension_terms` counted, the same number.)
        """
        found = self.__dict__.get("_extensions", {}).get((variable, tuple(parents)))
        if found is not None:
            return found
        counts = self._blanket_counts(variable, tuple(parents))
        return float(math.fsum(self.class_weights(counts, np.ones(counts.shape[0]), counts.shape[0])))

    def extension_terms(self, variable, blanket: tuple, candidates) -> list[float]:
        """``[local_score(variable, blanket + (w,)) for w in candidates]``, the tables counted in one pass.

        Each term is the same number :meth:`local_score` gives (the blanket's order does not
        change a term: its configurations are summed exactly), counted for every candidate at
        once, and kept for :meth:`local_score`. Tables larger in all than the data's
        ``max_cells`` are left to :meth:`local_score` (which refuses one too large alone).

        Examples
        --------
        >>> import pandas as pd
        >>> score = MPLScore(pd.DataFrame({"a": [0, 1, 0, 1, 1], "b": [0, 1, 1, 1, 0], "c": [1, 1, 0, 2, 0]}))
        >>> score.extension_terms("a", ("b",), ["c"]) == [score.local_score("a", ("b", "c"))]
        True
        """
        blanket, candidates = tuple(blanket), list(candidates)
        self._check_family(variable, (*blanket, *candidates))  # each candidate's family, checked at once
        if not candidates:
            return []
        encoded = self.encoded
        cards = encoded.cardinality
        r = cards[variable]
        n_base = math.prod(cards[w] for w in blanket)
        configs = [n_base * cards[w] for w in candidates]
        if sum(configs) * r > encoded.max_cells:
            return [self.local_score(variable, tuple(sorted((*blanket, w), key=self.order.__getitem__)))
                    for w in candidates]  # fmt: skip
        counts = encoded.extension_counts(variable, blanket, candidates)
        rows = np.repeat(np.asarray(configs, dtype=np.int64), configs)
        if self.alpha == "bdeu":
            alphas = np.ones(rows.size) / (rows * r).astype(np.float64)
        else:
            alphas = float(self.alpha)
        weights = dirichlet_class_weights(counts, alphas, np.ones(rows.size), math.log(self.kappa))
        ends = np.cumsum(configs)
        terms = [float(math.fsum(weights[end - q:end])) for q, end in zip(configs, ends.tolist(), strict=True)]
        kept = self.__dict__.setdefault("_extensions", {})
        for w, term in zip(candidates, terms, strict=True):
            if len(kept) < LOCAL_SCORE_CACHE_SIZE:  # for the local terms asked later (the climb's)
                kept[(variable, tuple(sorted((*blanket, w), key=self.order.__getitem__)))] = term
        return terms

    # -- graphs with contexts --------------------------------------------------------------
    def _graph(self, model) -> nx.Graph:
        if isinstance(model, nx.DiGraph):
            raise TypeError("MPLScore scores undirected graphs (Markov networks); got a directed graph.")
        if isinstance(model, nx.Graph):
            edges = list(model.edges())
            nodes = list(model.nodes())
        elif isinstance(model, str | bytes | Mapping) or not isinstance(model, Iterable):
            raise TypeError(f"model must be an undirected networkx graph (e.g. a ContextualMarkovNetwork) or a list "
                            f"of edges. Got: {model!r}")  # fmt: skip
        else:
            edges = [tuple(e) for e in model]
            nodes = [v for e in edges for v in e]
        unknown = sorted({v for v in nodes if v not in self.order}, key=str)
        if unknown:
            raise ValueError(f"The graph has node(s) {unknown} that are not columns of the data {self.variables}")
        graph = nx.Graph()
        graph.add_nodes_from(self.variables)
        for u, v in edges:
            if u == v:
                raise ValueError(f"Self-loop on {u!r}: a Markov network's edge joins two different variables.")
            graph.add_edge(u, v)
        return graph

    def encode_contexts(self, graph: nx.Graph, contexts) -> dict:
        """Contexts ``{(u, v): [{w: state, ...}, ...]}`` (states as in the data) in the internal layout.

        Returns ``{frozenset({u, v}): set of frozensets of (variable, state index)}``; each
        context must give a state to exactly the common neighbours of ``u`` and ``v``.

        Examples
        --------
        >>> import pandas as pd
        >>> score = MPLScore(pd.DataFrame({"a": ["x", "y"], "b": [0, 1], "c": [0, 1]}))
        >>> g = nx.complete_graph(["a", "b", "c"])
        >>> encoded = score.encode_contexts(g, {("b", "c"): [{"a": "y"}]})
        >>> [(sorted(edge), [sorted(c) for c in found]) for edge, found in encoded.items()]
        [(['b', 'c'], [[('a', 1)]])]
        >>> score.encode_contexts(g, {("b", "c"): [{"b": 0}]})
        Traceback (most recent call last):
            ...
        ValueError: A context of edge ('b', 'c') must give a state to its common neighbours ['a'] exactly. Got: {'b': 0}
        """
        out: dict = {}
        if not contexts:
            return out
        if not isinstance(contexts, Mapping):
            raise TypeError(f"contexts must be a dict {{(u, v): [context, ...]}}. Got: {type(contexts).__name__}")
        for edge, found in contexts.items():
            if not isinstance(edge, tuple | list | frozenset) or len(edge) != 2:
                raise ValueError(f"contexts keys must be edges (u, v). Got: {edge!r}")
            u, v = tuple(edge)
            if not graph.has_edge(u, v):
                raise ValueError(f"contexts name the edge ({u!r}, {v!r}), which is not in the graph")
            shared = common_neighbours(graph, u, v, self.order)
            for context in found:
                if not isinstance(context, Mapping) or set(context) != set(shared):
                    raise ValueError(f"A context of edge ({u!r}, {v!r}) must give a state to its common neighbours "
                                     f"{list(shared)} exactly. Got: {context!r}")  # fmt: skip
                pairs = []
                for w in shared:
                    states = self.state_names[w]
                    if context[w] not in states:
                        raise ValueError(f"State {context[w]!r} of {w!r} in a context of edge ({u!r}, {v!r}) is not "
                                         f"one of its states {list(states)}")  # fmt: skip
                    pairs.append((w, states.index(context[w])))
                out.setdefault(frozenset((u, v)), set()).add(frozenset(pairs))
        return out

    def _model_contexts(self, model, graph: nx.Graph, contexts) -> dict:
        if contexts is None:
            contexts = getattr(model, "contexts", None) if isinstance(model, nx.Graph) else None
        return close_contexts(graph, self.encoded.cardinality, self.encode_contexts(graph, contexts), self.order)

    def node_term(self, graph: nx.Graph, closed: dict, node) -> float:
        """Local term of one node of ``graph`` under closed contexts (internal layout).

        Examples
        --------
        >>> import pandas as pd
        >>> score = MPLScore(pd.DataFrame({"a": [0, 1, 1], "b": [0, 1, 0]}))
        >>> g = nx.Graph([("a", "b")])
        >>> score.node_term(g, {}, "a") == score.local_score("a", ("b",))
        True
        """
        blanket = tuple(sorted(graph.adj[node], key=self.order.__getitem__))
        if not any(frozenset((node, w)) in closed for w in blanket):
            return self.local_score(node, blanket)
        groups = blanket_groups(node, blanket, self.encoded.cardinality, closed)  # canonical already
        return self._classes_term(self._blanket_counts(node, blanket), groups)

    def log_pseudo_likelihood(self, model, contexts=None) -> float:
        """Log marginal pseudo-likelihood plus the structure prior of an undirected graph with contexts.

        Parameters
        ----------
        model : networkx.Graph, ContextualMarkovNetwork or iterable of edges
            Variables of the data missing from the graph are isolated nodes.
        contexts : dict, optional
            ``{(u, v): [{w: state, ...}, ...]}``; default: ``model.contexts`` when it has them.

        Examples
        --------
        >>> import pandas as pd
        >>> score = MPLScore(pd.DataFrame({"a": [0, 1], "b": [0, 1]}))
        >>> round(score.log_pseudo_likelihood([]), 6)  # two binary variables, Beta(1/2, 1/2) each: 2 log(1/8)
        -4.158883
        """
        graph = self._graph(model)
        closed = self._model_contexts(model, graph, contexts)
        return float(math.fsum(self.node_term(graph, closed, v) for v in self.variables))

    def score(self, model, contexts=None) -> float:
        """The MPL score (log marginal pseudo-likelihood plus log structure prior) of a Markov network.

        Same as :meth:`log_pseudo_likelihood`; directed graphs are refused.

        Examples
        --------
        >>> import pandas as pd
        >>> score = MPLScore(pd.DataFrame({"a": [0, 1] * 20, "b": [0, 1] * 20}))
        >>> score.score([("a", "b")]) > score.score([])
        True
        """
        return self.log_pseudo_likelihood(model, contexts)

    def closed_contexts(self, model, contexts=None) -> dict:
        """The contexts of a model with every implied one added, as ``{(u, v): [{w: state}, ...]}``.

        Examples
        --------
        >>> import pandas as pd
        >>> score = MPLScore(pd.DataFrame({"a": [0, 1], "b": [0, 1], "c": [0, 1]}))
        >>> score.closed_contexts(nx.complete_graph(["a", "b", "c"]), {("b", "c"): [{"a": 1}]})
        {('b', 'c'): [{'a': 1}]}
        """
        graph = self._graph(model)
        return self.decode_contexts(self._model_contexts(model, graph, contexts))

    def decode_contexts(self, closed: dict) -> dict:
        """Internal contexts as ``{(u, v): [{w: state}, ...]}`` with states as in the data, in a fixed order.

        Examples
        --------
        >>> import pandas as pd
        >>> score = MPLScore(pd.DataFrame({"a": ["x", "y"], "b": [0, 1], "c": [0, 1]}))
        >>> score.decode_contexts({frozenset(("c", "b")): {frozenset({("a", 1)})}})
        {('b', 'c'): [{'a': 'y'}]}
        """
        order = self.order
        out = {}
        for edge in sorted(closed, key=lambda e: sorted(order[w] for w in e)):
            if not closed[edge]:
                continue
            u, v = sorted(edge, key=order.__getitem__)
            rows = sorted(tuple(s for _, s in sorted(c, key=lambda p: order[p[0]])) for c in closed[edge])
            names = [w for w, _ in sorted(next(iter(closed[edge])), key=lambda p: order[p[0]])]
            out[(u, v)] = [{w: self.state_names[w][s] for w, s in zip(names, row, strict=True)} for row in rows]
        return out

    # -- one variable's optimal classes ------------------------------------------------------
    def optimal_blanket_groups(self, variable, blanket, method: str = "auto") -> GroupsResult:
        """Best maximal regular classes of ``variable``'s blanket configurations, for its local term alone.

        The classes are those a set of line merges makes (each merge a context over the rest of
        the blanket, as when the variable and its blanket form a clique); the objective is the
        variable's local MPL term with its prior charge. ``"exact"`` uses the package's
        partition dynamic programme (:func:`~pgmpy_sgm.core.optimize.best_partition_by_block`,
        up to 16 configurations); ``"heuristic"`` its greedy line merges and local moves;
        ``"auto"`` exact where it fits.

        Examples
        --------
        >>> import pandas as pd
        >>> rng = np.random.default_rng(0)
        >>> a, b = rng.integers(0, 2, 400), rng.integers(0, 2, 400)
        >>> c = np.where((a == 1) | (b == 1), rng.random(400) < 0.9, rng.random(400) < 0.1).astype(int)
        >>> score = MPLScore(pd.DataFrame({"a": a, "b": b, "c": c}))
        >>> res = score.optimal_blanket_groups("c", ("a", "b"))
        >>> res.group_ids.tolist(), res.exact
        ([0, 1, 1, 1], True)
        """
        if method not in ("auto", "exact", "heuristic"):
            raise ValueError(f"method must be one of ('auto', 'exact', 'heuristic'). Got: {method!r}")
        blanket = tuple(blanket)
        self._check_family(variable, blanket)
        counts = self._blanket_counts(variable, blanket)
        cards = self.encoded.cards(blanket)
        q = counts.shape[0]
        kept = tuple(k for k in cards if k > 1)
        fits = q <= MAX_EXACT_BLANKET_CONFIGS and (len(kept) < 2 or exact_search_fits(kept, (False,) * len(kept)))
        if method == "exact" and not fits:
            raise ValueError(f"method='exact' handles blankets of at most {MAX_EXACT_BLANKET_CONFIGS} configurations; "
                             f"{list(blanket)} has {q}")  # fmt: skip
        if len(kept) < 2:  # no line lies in a context of other blanket variables: merging would delete an edge
            groups, exact, used = np.arange(q, dtype=np.int64), True, "exact"
        elif method == "heuristic" or (method == "auto" and not fits):
            space = partition_space(kept, (False,) * len(kept))
            weights = CachedBlockWeights(counts, lambda pooled, lam: self.class_weights(pooled, lam, q))
            groups = space.group_ids(local_search(space, weights))
            exact, used = False, "heuristic"
        else:
            groups = best_partition_by_block(kept, (False,) * len(kept), counts,
                                             lambda pooled, lam: self.class_weights(pooled, lam, q))
            exact, used = True, "exact"
        groups = canonical_groups(groups)
        groups.setflags(write=False)
        return GroupsResult(groups, self.grouped_term(variable, blanket, groups), exact, used)
