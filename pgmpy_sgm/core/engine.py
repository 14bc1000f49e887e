"""The score engine: every term of the SGM score of one data set, cached and keyed by set masks.

============== ==================================================================
term           meaning
============== ==================================================================
node           a variable, by its column index ``0 .. d-1`` in the data
set mask       a set of nodes as an integer bitmask (bit ``i`` = node ``i``)
pair index     the position of the pair ``i < j`` in :attr:`ScoreEngine.pairs`
forbidden      a mask over pair indices: the edges of a clique lying in a separator
============== ==================================================================

The log unnormalized posterior of a decomposable graph ``G`` with labelling ``L`` is

    ``sum_C D(C) - sum_S D(S) + sum_C [labelled term of C - D(C)] + (d - f(G)) log 2``

with ``D(A)`` the Dirichlet log marginal likelihood of ``A`` with 1 per cell (a *set
term*), ``f(G) = sum_C (|X_C| - 1) - sum_S (|X_S| - 1)`` (*size terms*) and the prior
weight ``log 2`` (``prior="paper"``) or 0 (``"uniform"``). A clique is *labelable* when
it has from 3 to ``max_labelled_clique`` variables; other cliques are unlabelled. The
best labelling of a clique given its forbidden pairs is cached per
``(clique, center, forbidden directions at that center)``, the piece that other
processes may share (:meth:`ScoreEngine.take_fresh`, :meth:`ScoreEngine.absorb`).
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections.abc import Iterable, Mapping

import numpy as np

from pgmpy_sgm.core._exact_partition import exact_center
from pgmpy_sgm.core._pair_terms import pair_set_terms
from pgmpy_sgm.core.bitsets import iter_bits
from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.core.labelling import CliqueLabelling, contexts_from_groups, groups_from_contexts
from pgmpy_sgm.core.lines import dirichlet_log_ml, group_weights, labelled_clique_term
from pgmpy_sgm.core.optimize import GroupsResult, cached_solved_exactly, combine_centers, optimal_groups

__all__ = ["ScoreEngine", "PRIORS", "LOG2", "iter_bits", "check_settings", "center_pair_bits"]

LOG2 = math.log(2.0)

#: Structure priors: ``"paper"`` is ``P(G) ∝ 2^(d - f(G))``, ``"uniform"`` is flat.
PRIORS = ("paper", "uniform")


@functools.cache
def center_pair_bits(size: int) -> tuple[tuple[int, ...], ...]:
    """For each center of a clique of ``size`` nodes, the local bits of its pairs with the others, in node order.

    A clique's own pairs are numbered as :meth:`ScoreEngine.clique_pairs` lists them (the
    nodes in increasing order, each with the later ones); the pair of the ``a``-th and the
    ``b``-th node (``a < b``) is bit ``a (size - 1) - a (a - 1) / 2 + b - a - 1``.

    Examples
    --------
    >>> center_pair_bits(3)  # pairs (0, 1), (0, 2), (1, 2) are bits 0, 1, 2
    ((0, 1), (0, 2), (1, 2))
    """

    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise ValueError(f"size must be a positive int (the number of nodes of a clique). Got: {size!r}")

    def bit(a: int, b: int) -> int:
        a, b = min(a, b), max(a, b)
        return a * (size - 1) - a * (a - 1) // 2 + b - a - 1

    return tuple(tuple(bit(center, u) for u in range(size) if u != center) for center in range(size))


def _check_local(clique: int, local: int) -> None:
    """Refuse local forbidden bits that are not an int over the clique's own pairs."""
    n_pairs = math.comb(clique.bit_count(), 2) if isinstance(clique, int) and clique >= 0 else -1
    if n_pairs < 0 or isinstance(local, bool) or not isinstance(local, int) or not 0 <= local < 1 << n_pairs:
        raise ValueError(f"local must be an int of bits over the clique's {max(n_pairs, 0)} own pairs "
                         f"(ScoreEngine.local_forbidden) and clique a set mask. Got clique={clique!r}, "
                         f"local={local!r}")  # fmt: skip


def check_settings(prior, max_labelled_clique) -> None:
    """Raise ``ValueError`` unless ``prior`` and ``max_labelled_clique`` are valid engine settings.

    Examples
    --------
    >>> check_settings("flat", 5)
    Traceback (most recent call last):
        ...
    ValueError: prior must be one of ('paper', 'uniform'). Got: 'flat'
    """
    if prior not in PRIORS:
        raise ValueError(f"prior must be one of {PRIORS}. Got: {prior!r}")
    if (
        isinstance(max_labelled_clique, bool)
        or not isinstance(max_labelled_clique, int | np.integer)
        or max_labelled_clique < 2
    ):
        raise ValueError(f"max_labelled_clique must be an integer >= 2. Got: {max_labelled_clique!r}")


class ScoreEngine:
    """Cached score terms of one data set: set terms, size terms, prior and clique labellings.

    Parameters
    ----------
    encoded : EncodedData
        The data; node ``i`` is ``encoded.variables[i]``.
    prior : {"paper", "uniform"}, default="paper"
        Structure prior (see :data:`PRIORS`).
    max_labelled_clique : int, default=5
        Cliques with more variables are unlabelled.

    Attributes
    ----------
    variables : list of str
    n : int
        Number of variables ``d``.
    cards : list of int
        Cardinality of every node.
    state_names : dict
    pairs : list of (int, int)
        All pairs ``i < j``, in pair-index order.
    pair_index : list of list of int
        ``pair_index[i][j]`` is the index of the pair ``{i, j}`` (-1 on the diagonal).
    prior_weight : float
        ``log 2`` or 0.
    label_method : str
        The labelling schedule of :meth:`gain` and :meth:`clique_strata`: ``"auto"`` (the
        default, the score of the package) or ``"fast"`` (the cheaper schedule a structure
        search may set while it moves, see
        :func:`~pgmpy_sgm.core.optimize.optimal_groups`); its gains never exceed the
        optimum.

    Notes
    -----
    A pickled engine holds only the encoded data and the settings (the caches start
    empty on the other side); share labellings with :meth:`take_fresh` / :meth:`absorb`.

    Examples
    --------
    >>> from pgmpy_sgm.datasets import load_heart_disease
    >>> engine = ScoreEngine(EncodedData(load_heart_disease(as_counts=True), weights="count"))
    >>> engine.n, engine.pairs[:2], engine.size_term(0b11)
    (6, [(0, 1), (0, 2)], 3)
    >>> round(engine.set_term(0b1), 2)  # D(smoking): 961 and 880 smokers, lgamma(2) - lgamma(1843) + ...
    -1277.84
    """

    def __init__(self, encoded: EncodedData, prior: str = "paper", max_labelled_clique: int = 5):
        if not isinstance(encoded, EncodedData):
            raise TypeError(f"encoded must be an EncodedData. Got: {type(encoded).__name__}")
        check_settings(prior, max_labelled_clique)
        self.encoded = encoded
        self.prior = prior
        self.max_labelled_clique = int(max_labelled_clique)
        self.variables = list(encoded.variables)
        self.n = len(self.variables)
        self.cards = [int(encoded.cardinality[v]) for v in self.variables]
        self.state_names = encoded.state_names
        self.index = {v: i for i, v in enumerate(self.variables)}
        self.prior_weight = LOG2 if prior == "paper" else 0.0
        self.pairs = [(i, j) for i in range(self.n) for j in range(i + 1, self.n)]
        self.pair_index = [[-1] * self.n for _ in range(self.n)]
        for p, (i, j) in enumerate(self.pairs):
            self.pair_index[i][j] = self.pair_index[j][i] = p
        self._d: dict[int, float]
        self._size: dict[int, int]
        self._clique_pairs: dict[int, tuple[int, ...]]
        self._labellings: dict[tuple, CliqueLabelling]
        self._center_cache: dict[tuple, tuple]  # (clique, center, flags, method) -> (GroupsResult, base value)
        self._center_base: dict[tuple, float]
        self._strata: dict[tuple, tuple[dict, int]]
        self._fresh: list[tuple]
        self.label_method = "auto"
        self.clear()
        self._fingerprint: str | None = None

    def __getstate__(self) -> dict:
        return {
            "encoded": self.encoded,
            "prior": self.prior,
            "max_labelled_clique": self.max_labelled_clique,
            "label_method": self.label_method,
        }

    def __setstate__(self, state: dict) -> None:
        self.__init__(state["encoded"], state["prior"], state["max_labelled_clique"])
        self.label_method = state.get("label_method", "auto")

    def __repr__(self) -> str:
        settings = f"prior={self.prior!r}, max_labelled_clique={self.max_labelled_clique}"
        return f"<ScoreEngine over {self.n} variables, {settings}>"

    def clear(self) -> None:
        """Forget every cached term and labelling (the encoded data keep their table cache).

        Examples
        --------
        >>> import pandas as pd
        >>> engine = ScoreEngine(EncodedData(pd.DataFrame({"a": [0, 1]})))
        >>> _ = engine.set_term(1)
        >>> engine.clear()
        >>> len(engine._d)
        1
        """
        self._d = {0: 0.0}
        self._pair_terms = None  # D of every pair in pair-index order, once primed
        self._size = {0: 0}
        self._clique_pairs = {}
        self._labellings = {}
        self._center_cache = {}
        self._center_base = {}
        self._strata = {}
        self._fresh = []
        self._memo: dict[str, object] = {}

    def memo(self, name: str, compute):
        """A derived table of this engine's data, computed by ``compute()`` on first use and kept.

        For tables that searches need now and then (e.g. triple partners); they live and
        die with the engine, like every other cache of it.

        Examples
        --------
        >>> import pandas as pd
        >>> engine = ScoreEngine(EncodedData(pd.DataFrame({"a": [0, 1]})))
        >>> engine.memo("answer", lambda: 42), engine.memo("answer", lambda: 0)
        (42, 42)
        """
        if name not in self._memo:
            self._memo[name] = compute()
        return self._memo[name]

    @property
    def fingerprint(self) -> str:
        """SHA-1 of the data, their state names and the settings: equal fingerprints give equal results.

        Examples
        --------
        >>> import pandas as pd
        >>> frame = pd.DataFrame({"a": [0, 1]})
        >>> ScoreEngine(EncodedData(frame)).fingerprint == ScoreEngine(EncodedData(frame)).fingerprint
        True
        >>> recoded = pd.DataFrame({"a": ["no", "yes"]})  # same codes, other state names
        >>> ScoreEngine(EncodedData(recoded)).fingerprint == ScoreEngine(EncodedData(frame)).fingerprint
        False
        """
        if self._fingerprint is None:
            codes = np.ascontiguousarray(self.encoded.codes)
            digest = hashlib.sha1()
            digest.update(codes.tobytes())
            digest.update(str(codes.dtype).encode())
            digest.update(np.ascontiguousarray(self.encoded.weights, dtype=np.float64).tobytes())
            digest.update(
                repr((tuple(self.variables), tuple(self.cards), self.prior, self.max_labelled_clique)).encode()
            )
            states = [(type(s).__name__, s) for v in self.variables for s in self.state_names[v]]
            digest.update(repr(states).encode())
            self._fingerprint = digest.hexdigest()
        return self._fingerprint

    # -- names and masks ----------------------------------------------------------------
    def mask(self, variables: Iterable[str]) -> int:
        """The set mask of some variables.

        Raises
        ------
        ValueError
            If a variable is not a column of the data.

        Examples
        --------
        >>> import pandas as pd
        >>> ScoreEngine(EncodedData(pd.DataFrame({"a": [0], "b": [1], "c": [0]}))).mask(["c", "a"])
        5
        """
        out = 0
        for v in variables:
            i = self.index.get(v)
            if i is None:
                raise ValueError(f"Variable {v!r} is not a column of the data {self.variables}")
            out |= 1 << i
        return out

    def names(self, mask: int) -> tuple[str, ...]:
        """The variables of a set mask, in data order.

        Examples
        --------
        >>> import pandas as pd
        >>> ScoreEngine(EncodedData(pd.DataFrame({"a": [0], "b": [1], "c": [0]}))).names(0b101)
        ('a', 'c')
        """
        return tuple(self.variables[i] for i in iter_bits(mask))

    def key(self, edges: Iterable[tuple[str, str]]) -> int:
        """The key (mask over pair indices) of a graph given by named edges.

        Examples
        --------
        >>> import pandas as pd
        >>> ScoreEngine(EncodedData(pd.DataFrame({"a": [0], "b": [1], "c": [0]}))).key([("c", "b")])
        4
        """
        pairs = []
        for u, v in edges:
            i, j = self.index.get(u), self.index.get(v)
            if i is None or j is None:
                raise ValueError(f"The edge {(u, v)!r} has a node that is not a column of the data {self.variables}")
            if i == j:
                raise ValueError(f"The edge {(u, v)!r} is a self-loop")
            pairs.append((i, j))
        return self.pairs_key(pairs)

    def pairs_key(self, pairs: Iterable[tuple[int, int]]) -> int:
        """The key (mask over pair indices) of a graph given by variable index pairs (the one graph key builder).

        Examples
        --------
        >>> import pandas as pd
        >>> ScoreEngine(EncodedData(pd.DataFrame({"a": [0], "b": [1], "c": [0]}))).pairs_key([(2, 1), (0, 1)])
        5
        """
        out = 0
        for i, j in pairs:
            out |= 1 << self.pair_index[i][j]
        return out

    def clique_pairs(self, mask: int) -> tuple[int, ...]:
        """Pair indices of all pairs inside a set mask.

        Examples
        --------
        >>> import pandas as pd
        >>> ScoreEngine(EncodedData(pd.DataFrame({"a": [0], "b": [1], "c": [0]}))).clique_pairs(0b111)
        (0, 1, 2)
        """
        value = self._clique_pairs.get(mask)
        if value is None:
            nodes = list(iter_bits(mask))
            index = self.pair_index
            value = tuple(index[a][b] for k, a in enumerate(nodes) for b in nodes[k + 1 :])
            self._clique_pairs[mask] = value
        return value

    # -- terms ----------------------------------------------------------------------------
    def set_term(self, mask: int) -> float:
        """``D(A)``: log marginal likelihood of a set mask with 1 per cell (0 for the empty set; cached).

        Examples
        --------
        >>> import pandas as pd
        >>> round(ScoreEngine(EncodedData(pd.DataFrame({"a": [0, 1]}))).set_term(0b1), 6)  # 1! 1! 1! / 3!
        -1.791759
        """
        value = self._d.get(mask)
        if value is None:
            value = self._primed_pair_term(mask)
            if value is None:
                value = dirichlet_log_ml(self.encoded.counts(self.names(mask)))
            self._d[mask] = value
        return value

    def _primed_pair_term(self, mask: int) -> float | None:
        """``D`` of a pair from :meth:`prime_pair_terms`, or None (not a pair, or not primed)."""
        if self._pair_terms is None or mask.bit_count() != 2:
            return None
        return float(self._pair_terms[self.pair_index[(mask & -mask).bit_length() - 1][mask.bit_length() - 1]])

    def prime_pair_terms(self) -> np.ndarray | None:
        """Compute ``D`` of every pair of variables at once (one matrix product), for :meth:`set_term`.

        The values are those :meth:`set_term` computes pair by pair, bit for bit; it looks a
        pair up here before counting it. Returns them in the order of :attr:`pairs`
        (read-only), or None (computing nothing) for fractional weights or too many states
        (:func:`~pgmpy_sgm.core._pair_terms.pair_set_terms`), where the pairs are then counted
        one by one on demand. Kept as one array rather than in the term cache: at 1,000
        variables half a million cache entries keyed by wide masks cost seconds to insert and
        about 100 MB, for pairs most searches never score.

        Examples
        --------
        >>> import pandas as pd
        >>> engine = ScoreEngine(EncodedData(pd.DataFrame({"a": [0, 1, 1], "b": [0, 0, 1], "c": [1, 1, 0]})))
        >>> terms = engine.prime_pair_terms()
        >>> len(terms), bool(engine.set_term(0b011) == terms[0] == ScoreEngine(engine.encoded).set_term(0b011))
        (3, True)
        """
        terms = pair_set_terms(self.encoded.codes, self.encoded.weights, self.cards)
        if terms is None:
            return None
        self._pair_terms = np.array([terms[pair] for pair in self.pairs], dtype=np.float64)
        self._pair_terms.flags.writeable = False
        return self._pair_terms

    def size_term(self, mask: int) -> int:
        """``|X_A| - 1``, the free parameters of a saturated table over ``A``.

        Examples
        --------
        >>> import pandas as pd
        >>> ScoreEngine(EncodedData(pd.DataFrame({"a": [0, 1, 2], "b": [0, 1, 1]}))).size_term(0b11)
        5
        """
        value = self._size.get(mask)
        if value is None:
            value = math.prod(self.cards[i] for i in iter_bits(mask)) - 1
            self._size[mask] = value
        return value

    def log_prior(self, f: int) -> float:
        """Log structure prior of a graph with ``f`` free parameters: ``(d - f) log 2`` or 0.

        Examples
        --------
        >>> import pandas as pd
        >>> engine = ScoreEngine(EncodedData(pd.DataFrame({"a": [0, 1], "b": [0, 1]})))
        >>> round(engine.log_prior(3), 6)  # d = 2, one edge: f = 3
        -0.693147
        """
        return (self.n - f) * self.prior_weight

    def labelable(self, mask: int) -> bool:
        """Whether a clique may carry labels: 3 to ``max_labelled_clique`` variables.

        Examples
        --------
        >>> import pandas as pd
        >>> engine = ScoreEngine(EncodedData(pd.DataFrame({c: [0, 1] for c in "abcd"})), max_labelled_clique=3)
        >>> engine.labelable(0b11), engine.labelable(0b111), engine.labelable(0b1111)
        (False, True, False)
        """
        return 3 <= mask.bit_count() <= self.max_labelled_clique

    def labelled_term(self, parents: tuple[str, ...], center: str, group_ids) -> float:
        """Log marginal likelihood of a clique labelled at ``center`` with the given groups.

        ``group_ids`` gives the group of every configuration of ``parents`` in their order
        (C order, the last parent fastest).

        Examples
        --------
        >>> import pandas as pd
        >>> df = pd.DataFrame({"a": [0, 0, 1, 1], "b": [0, 1, 0, 1], "c": [0, 0, 1, 1]})
        >>> engine = ScoreEngine(EncodedData(df))
        >>> bool(np.isclose(engine.labelled_term(("a", "b"), "c", [0, 1, 2, 3]), engine.set_term(0b111)))
        True
        """
        counts = self.encoded.counts(tuple(parents) + (center,))
        n_configs = int(np.prod(counts.shape[:-1]))
        group_ids = np.asarray(group_ids, dtype=np.int64)
        if group_ids.shape != (n_configs,):
            raise ValueError(
                f"group_ids must give a group for each of the {n_configs} configurations of {tuple(parents)}; "
                f"got shape {group_ids.shape}"
            )
        return labelled_clique_term(counts.reshape(n_configs, -1), group_ids)

    # -- labellings -----------------------------------------------------------------------
    def labelling(self, clique: int, forbidden: int, method: str = "auto") -> CliqueLabelling:
        """Best labelling of a clique given the pair-index mask of its forbidden (separator) edges.

        ``center`` of the result is a position in the clique's nodes (increasing order);
        cliques that are not :meth:`labelable` are unlabelled (``method="unlabelled"``).
        The optimum at each center depends only on the forbidden pairs at that center and
        is cached per ``(clique, center, forbidden directions, method)``.

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> engine = ScoreEngine(EncodedData(load_heart_disease(as_counts=True), weights="count"))
        >>> best = engine.labelling(0b11001, 1 << engine.pair_index[0][4])  # smoking, systolic_bp, lipoprotein
        >>> best.center, best.group_ids.tolist()
        (1, [0, 0, 1, 0])
        """
        return self.local_labelling(clique, self.local_forbidden(clique, forbidden), method)

    def local_labelling(self, clique: int, local: int, method: str = "auto") -> CliqueLabelling:
        """Best labelling of a clique given its forbidden pairs as bits over its own pairs.

        As :meth:`labelling`, with the forbidden pairs given as :meth:`local_forbidden`
        gives them: the same cache, without reading a mask as wide as every pair of
        variables (searches that track their separators per pair build these bits directly).

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> engine = ScoreEngine(EncodedData(load_heart_disease(as_counts=True), weights="count"))
        >>> clique, forbidden = 0b11001, 1 << engine.pair_index[0][4]
        >>> local = engine.local_forbidden(clique, forbidden)
        >>> engine.local_labelling(clique, local) is engine.labelling(clique, forbidden)
        True
        """
        key = (clique, local, method)
        value = self._labellings.get(key)
        if value is None:  # only checked keys are cached, so a bad one is refused here
            _check_local(clique, local)
            value = self._best_labelling(clique, local, method)
            self._labellings[key] = value
        return value

    def local_forbidden(self, clique: int, forbidden: int) -> int:
        """The forbidden pairs inside a clique, as bits over its own pairs (in :meth:`clique_pairs` order).

        A labelling depends on these bits only. The pair-index mask is as wide as the
        highest pair index (2.5 kB at 200 variables, 62 kB at 1,000), so the caches of
        labellings are keyed by these few bits instead.

        Examples
        --------
        >>> import pandas as pd
        >>> engine = ScoreEngine(EncodedData(pd.DataFrame({"a": [0], "b": [1], "c": [0], "d": [1]})))
        >>> engine.clique_pairs(0b1110), engine.local_forbidden(0b1110, 1 << engine.pair_index[2][3] | 1)
        ((3, 4, 5), 4)
        """
        if not forbidden:
            return 0
        local = 0
        for k, p in enumerate(self.clique_pairs(clique)):
            if forbidden >> p & 1:
                local |= 1 << k
        return local

    def _best_labelling(self, clique: int, local: int, method: str) -> CliqueLabelling:

        if not self.labelable(clique):
            return CliqueLabelling(None, None, 0.0, True, "unlabelled")
        candidates = []
        for center, bits in enumerate(center_pair_bits(clique.bit_count())):
            flags = tuple(bool(local >> k & 1) for k in bits)
            res, base = self._center_groups(clique, center, flags, method)
            candidates.append((center, res, res.value - base))
        return combine_centers(candidates)

    def _center_groups(self, clique: int, center: int, flags: tuple, method: str):

        key = (clique, center, flags, method)
        hit = self._center_cache.get(key)
        if hit is None:
            arr = self.encoded.counts(self.names(clique))
            counts2d = np.moveaxis(np.asarray(arr, dtype=np.float64), center, -1).reshape(-1, arr.shape[center])
            cards = tuple(arr.shape[u] for u in range(arr.ndim) if u != center)
            if cached_solved_exactly(cards, flags, method, counts2d.shape[1]):  # compiled, without input checks
                group_ids, value, base = exact_center(cards, flags, np.ascontiguousarray(counts2d))
                group_ids.setflags(write=False)
                res = GroupsResult(group_ids, value, True, "exact")
            else:
                res = optimal_groups(counts2d, cards, list(flags), method=method, seed=0)
                base = self._center_base.get((clique, center))
                if base is None:
                    base = group_weights(counts2d, np.arange(counts2d.shape[0]))
                    self._center_base[(clique, center)] = base
            hit = self._center_cache[key] = (res, base)
            self._fresh.append(key)
        return hit

    def gain(self, clique: int, forbidden: int) -> float:
        """Gain of the best labelling over the unlabelled clique (0 for cliques that cannot be labelled).

        The labelling is searched with :attr:`label_method`.

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> engine = ScoreEngine(EncodedData(load_heart_disease(as_counts=True), weights="count"))
        >>> engine.gain(0b11, 0)  # two variables: nothing to label
        0.0
        """
        if not self.labelable(clique):
            return 0.0
        return self.labelling(clique, forbidden, self.label_method).gain

    def local_gain(self, clique: int, local: int) -> float:
        """:meth:`gain` with the forbidden pairs as bits over the clique's own pairs (:meth:`local_labelling`).

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> engine = ScoreEngine(EncodedData(load_heart_disease(as_counts=True), weights="count"))
        >>> clique, forbidden = 0b11001, 1 << engine.pair_index[0][4]
        >>> engine.local_gain(clique, engine.local_forbidden(clique, forbidden)) == engine.gain(clique, forbidden)
        True
        """
        if not self.labelable(clique):
            return 0.0
        return self.local_labelling(clique, local, self.label_method).gain

    def take_fresh(self) -> dict:
        """Per-center optima computed since the last call (to share with other processes).

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> engine = ScoreEngine(EncodedData(load_heart_disease(as_counts=True), weights="count"))
        >>> _ = engine.gain(0b111, 0)
        >>> len(engine.take_fresh()), len(engine.take_fresh())  # one entry per center
        (3, 0)
        """
        out = {key: self._center_cache[key] for key in self._fresh}
        self._fresh = []
        return out

    def absorb(self, entries: Mapping) -> None:
        """Add per-center optima computed elsewhere (same data and settings) to the cache.

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> data = EncodedData(load_heart_disease(as_counts=True), weights="count")
        >>> first, second = ScoreEngine(data), ScoreEngine(data)
        >>> _ = first.gain(0b111, 0)
        >>> second.absorb(first.take_fresh())
        >>> second.gain(0b111, 0) == first.gain(0b111, 0) and second.take_fresh() == {}
        True
        """
        for key, value in entries.items():
            self._center_cache.setdefault(key, value)

    # -- groups <-> named contexts ------------------------------------------------------------
    def clique_strata(self, clique: int, forbidden: int) -> tuple[dict, int]:
        """The strata of a clique's best labelling and their number of labels (cached).

        Edges are ``(u, v)`` in data order; contexts as :attr:`StratifiedGraph.strata
        <pgmpy_sgm.models.StratifiedGraph.strata>` gives them.

        Examples
        --------
        >>> from pgmpy_sgm.datasets import load_heart_disease
        >>> engine = ScoreEngine(EncodedData(load_heart_disease(as_counts=True), weights="count"))
        >>> strata, n_labels = engine.clique_strata(0b11001, 1 << engine.pair_index[0][4])
        >>> strata  # center systolic_bp; the paper's best stratified graph (Nyman et al., Section 5)
        {('smoking', 'systolic_bp'): [{'lipoprotein_ratio': 1}], ('systolic_bp', 'lipoprotein_ratio'): [{'smoking': 0}]}
        >>> n_labels
        2
        """
        key = (clique, self.local_forbidden(clique, forbidden), self.label_method)
        hit = self._strata.get(key)
        if hit is None:
            labelling = self.local_labelling(*key)
            strata: dict = {}
            if labelling.center is not None:
                nodes = list(iter_bits(clique))
                center = nodes[labelling.center]
                parents = [w for w in nodes if w != center]
                names = [self.variables[w] for w in parents]
                contexts = contexts_from_groups(names, labelling.group_ids, self.state_names)
                for u, name in zip(parents, names, strict=True):
                    if name in contexts:
                        a, b = min(u, center), max(u, center)
                        strata[(self.variables[a], self.variables[b])] = contexts[name]
            hit = self._strata[key] = (strata, sum(len(c) for c in strata.values()))
        return hit

    def labelling_from_strata(self, clique: int, strata: Mapping) -> CliqueLabelling | None:
        """The labelling of a clique stated by the strata of its edges (None when none is labelled).

        The center is the node shared by the labelled edges (the later one in data order
        when a single edge is labelled); ``clique`` and ``center`` of the result are names.

        Examples
        --------
        >>> import pandas as pd
        >>> engine = ScoreEngine(EncodedData(pd.DataFrame({c: [0, 1] for c in "abc"})))
        >>> labelling = engine.labelling_from_strata(0b111, {("b", "c"): [{"a": 1}]})
        >>> labelling.center, labelling.parents, labelling.group_ids
        ('c', ('a', 'b'), (0, 1, 2, 2))
        """
        names = self.names(clique)
        members = set(names)
        labelled = [tuple(e) for e in strata if set(e) <= members]
        if not labelled:
            return None
        common = set.intersection(*(set(e) for e in labelled))
        center = max(common, key=self.index.__getitem__)
        parents = tuple(w for w in names if w != center)
        contexts = {(e[0] if e[1] == center else e[1]): strata[e] for e in labelled}
        groups = groups_from_contexts(parents, contexts, self.state_names)
        return CliqueLabelling(center, groups, clique=names)
