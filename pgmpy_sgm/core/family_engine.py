"""The family engine: every family term of the labelled-DAG score of one data set, labelled and cached.

============== ==================================================================
term           meaning
============== ==================================================================
family         a variable and a tuple of its parents (column names)
configuration  a joint state of the parents, indexed in C order (the last fastest)
labelling      classes of the configurations sharing one distribution of the child
parent set     the parents in the data's column order: one labelling is searched per set
============== ==================================================================

A family's term is its BDeu log marginal likelihood with the configurations of each class
pooled, plus the log structure prior ``(|c| - 1)(r - 1) log kappa`` per class ``c``
(:func:`~pgmpy_sgm.core.bdeu_groups.bdeu_class_weights`). :meth:`FamilyEngine.best_labelling`
finds the best labelling with :func:`~pgmpy_sgm.core.bdeu_groups.optimal_bdeu_groups` once per
parent set and permutes it to the order asked for. The engine owns its cache; nothing outside
it reads the cache, and a new engine (a new score) starts empty.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from pgmpy_sgm.core.bdeu_groups import bdeu_class_weights, optimal_bdeu_groups
from pgmpy_sgm.core.data import EncodedData
from pgmpy_sgm.core.lines import canonical_groups, identity_groups
from pgmpy_sgm.core.optimize import GroupsResult

__all__ = ["FamilyEngine", "check_family_settings"]

#: Labelling searches per family (:func:`~pgmpy_sgm.core.bdeu_groups.optimal_bdeu_groups`).
METHODS = ("auto", "exact", "heuristic")


def check_family_settings(equivalent_sample_size, kappa, labels, method, max_labelled_configs) -> None:
    """Refuse, naming the value, settings of the labelled family terms that are not valid.

    Examples
    --------
    >>> check_family_settings(5.0, 0.2, True, "auto", 64)
    >>> check_family_settings(5.0, 1.5, True, "auto", 64)
    Traceback (most recent call last):
        ...
    ValueError: kappa must be a number in (0, 1]. Got: 1.5
    """
    ess = equivalent_sample_size
    if isinstance(ess, bool) or not isinstance(ess, int | float | np.number) or not (math.isfinite(ess) and ess > 0):
        raise ValueError(f"equivalent_sample_size must be a positive number. Got: {ess!r}")
    if isinstance(kappa, bool) or not isinstance(kappa, int | float | np.number) or not (0 < kappa <= 1):
        raise ValueError(f"kappa must be a number in (0, 1]. Got: {kappa!r}")
    if not isinstance(labels, bool | np.bool_):
        raise TypeError(f"labels must be a bool. Got: {labels!r}")
    if method not in METHODS:
        raise ValueError(f"method must be 'auto', 'exact' or 'heuristic'. Got: {method!r}")
    if max_labelled_configs is not None and (isinstance(max_labelled_configs, bool)
                                             or not isinstance(max_labelled_configs, int | np.integer)
                                             or max_labelled_configs < 1):  # fmt: skip
        raise ValueError(f"max_labelled_configs must be a positive integer or None. Got: {max_labelled_configs!r}")


class FamilyEngine:
    """Labelled family terms of one encoded data set under BDeu with a label prior, cached per family.

    Parameters
    ----------
    encoded : EncodedData
        The data, with their state names and counts.
    equivalent_sample_size : float
        ESS of the BDeu hyperparameters.
    kappa : float
        Structure-prior factor per free parameter removed by labels, in ``(0, 1]`` (1: flat).
    labels : bool
        False scores every family unlabelled (each configuration its own class).
    method : {"auto", "exact", "heuristic"}
        Labelling search per family (:func:`~pgmpy_sgm.core.bdeu_groups.optimal_bdeu_groups`).
    max_labelled_configs : int or None
        Families with more parent configurations are scored unlabelled.

    Examples
    --------
    >>> import pandas as pd
    >>> df = pd.DataFrame({"a": [0, 0, 1, 1] * 25, "b": [0, 1, 0, 1] * 25, "c": [0, 0, 0, 1] * 25})
    >>> engine = FamilyEngine(EncodedData(df), 5.0, 1.0, True, "auto", 64)
    >>> engine.best_labelling("c", ("a", "b")).group_ids.tolist()  # c = a and b: three configurations alike
    [0, 0, 0, 1]
    >>> engine.best_labelling("c", ("b", "a")).group_ids.tolist(), engine.n_families_labelled
    ([0, 0, 0, 1], 2)
    """

    def __init__(self, encoded: EncodedData, equivalent_sample_size: float, kappa: float, labels: bool,
                 method: str, max_labelled_configs: int | None):  # fmt: skip
        check_family_settings(equivalent_sample_size, kappa, labels, method, max_labelled_configs)
        self.encoded = encoded
        self.equivalent_sample_size = float(equivalent_sample_size)
        self.log_kappa = math.log(kappa)
        self.labels = bool(labels)
        self.method = method
        self.max_labelled_configs = max_labelled_configs
        self._position = {v: i for i, v in enumerate(encoded.variables)}
        self._labellings: dict[tuple, GroupsResult] = {}

    @property
    def n_families_labelled(self) -> int:
        """How many families (a variable and its parents in one order) have been labelled so far.

        Examples
        --------
        >>> import pandas as pd
        >>> engine = FamilyEngine(EncodedData(pd.DataFrame({"a": [0, 1], "b": [1, 0]})), 5.0, 1.0, True, "auto", 64)
        >>> _ = engine.best_labelling("b", ("a",))
        >>> engine.n_families_labelled
        1
        """
        return len(self._labellings)

    def family_counts(self, variable, parents: tuple) -> np.ndarray:
        """The counts of a family as a (configurations x child states) array; unknown names are refused.

        Examples
        --------
        >>> import pandas as pd
        >>> engine = FamilyEngine(EncodedData(pd.DataFrame({"a": [0, 1, 1], "b": [1, 0, 0]})), 5.0, 1.0, True,
        ...                       "auto", 64)
        >>> engine.family_counts("b", ("a",)).tolist()
        [[0.0, 1.0], [2.0, 0.0]]
        """
        self._check_family(variable, parents)
        counts = self.encoded.counts(tuple(parents) + (variable,))
        return np.asarray(counts).reshape(-1, self.encoded.cardinality[variable])

    def best_labelling(self, variable, parents: tuple) -> GroupsResult:
        """The best classes of the configurations of ``parents`` for ``variable`` (cached per family).

        Examples
        --------
        >>> import pandas as pd
        >>> engine = FamilyEngine(EncodedData(pd.DataFrame({"a": [0, 1], "b": [1, 0]})), 5.0, 1.0, False, "auto", 64)
        >>> engine.best_labelling("b", ("a",)).group_ids.tolist()  # labels off: one class per configuration
        [0, 1]
        """
        parents = tuple(parents)
        hit = self._labellings.get((variable, parents))
        if hit is not None:
            return hit
        canon = self.canonical(parents)
        res = self._permuted(variable, canon, parents) if canon != parents else self._searched(variable, parents)
        self._labellings[(variable, parents)] = res
        return res

    def canonical(self, parents: tuple) -> tuple:
        """``parents`` in the column order of the data (unknown names last, for :meth:`family_counts` to refuse).

        Examples
        --------
        >>> import pandas as pd
        >>> engine = FamilyEngine(EncodedData(pd.DataFrame({"a": [0, 1], "b": [1, 0], "c": [0, 0]})), 5.0, 1.0,
        ...                       True, "auto", 64)
        >>> engine.canonical(("c", "a"))
        ('a', 'c')
        """
        position = self._position
        return tuple(sorted(parents, key=lambda p: position.get(p, len(position))))

    def _permuted(self, variable, canon: tuple, parents: tuple) -> GroupsResult:
        """The labelling of the parent set ``canon``, its configurations re-indexed for the order ``parents``."""
        res = self.best_labelling(variable, canon)
        self.family_counts(variable, parents)  # validates the names
        n_configs = res.group_ids.size
        if n_configs and res.group_ids[-1] == n_configs - 1:  # canonical ids ending at n - 1: no class merges
            return replace(res, group_ids=identity_groups(n_configs))
        perm = [canon.index(p) for p in parents]
        index = np.arange(res.group_ids.size).reshape(self.encoded.cards(canon)).transpose(perm).reshape(-1)
        ids = canonical_groups(res.group_ids[index])
        ids.setflags(write=False)
        return replace(res, group_ids=ids)

    def _searched(self, variable, parents: tuple) -> GroupsResult:
        """The best labelling of a family whose parents are in column order (unlabelled when too large or off)."""
        self._check_family(variable, parents)
        parent_cards = self.encoded.cards(parents)
        n_configs = math.prod(parent_cards)
        too_big = self.max_labelled_configs is not None and n_configs > self.max_labelled_configs
        if self.labels and not too_big:
            # single-state parents leave the configuration index unchanged and can carry no label
            cards = tuple(k for k in parent_cards if k > 1)
            counts2d = self.family_counts(variable, parents)
            return optimal_bdeu_groups(counts2d, cards, self.equivalent_sample_size, self.log_kappa, self.method)
        ids = identity_groups(n_configs)  # a view: most families of a wide search are unlabelled
        return GroupsResult(ids, self.encoded.family_bdeu(variable, parents, self.equivalent_sample_size), True,
                            "exact")

    def family_score(self, variable, parents: tuple, group_ids) -> float:
        """Log marginal likelihood plus log prior of a family with the given classes.

        Examples
        --------
        >>> import pandas as pd
        >>> engine = FamilyEngine(EncodedData(pd.DataFrame({"a": [0, 1, 1, 0], "b": [1, 0, 1, 0]})), 5.0,
        ...                       0.2, True, "auto", 64)
        >>> engine.family_score("b", ("a",), [0, 0]) - engine.family_score("b", ("a",), [7, 7])
        0.0
        """
        counts2d = self.family_counts(variable, tuple(parents))
        ids = np.asarray(group_ids)
        if ids.shape != (counts2d.shape[0],) or not np.issubdtype(ids.dtype, np.integer):
            raise ValueError(f"group_ids must hold one integer class id per parent configuration "
                             f"({counts2d.shape[0]}). Got: {group_ids!r}")  # fmt: skip
        classes = np.unique(ids, return_inverse=True)[1].astype(np.int64).ravel()  # ids 0..k-1 of the same classes
        return float(bdeu_class_weights(counts2d, classes, self.equivalent_sample_size, self.log_kappa))

    def unlabelled_score(self, variable, parents: tuple) -> float:
        """The family's BDeu term without labels (every configuration its own class), uncached.

        Examples
        --------
        >>> import pandas as pd
        >>> engine = FamilyEngine(EncodedData(pd.DataFrame({"a": [0, 1], "b": [1, 0]})), 5.0, 1.0, True, "auto", 64)
        >>> engine.unlabelled_score("b", ("a",)) == engine.family_score("b", ("a",), [0, 1])
        True
        """
        parents = tuple(parents)
        self._check_family(variable, parents)
        return self.encoded.family_bdeu(variable, parents, self.equivalent_sample_size)

    def _check_family(self, variable, parents: tuple) -> None:
        if variable not in self.encoded.cardinality:
            raise ValueError(f"Variable {variable!r} is not a column of the data {list(self.encoded.variables)}")
        if variable in parents:
            raise ValueError(f"Variable {variable!r} cannot be its own parent")
