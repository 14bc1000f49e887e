"""Exact computations on a small Markov network from its whole joint table.

When the network's variables have few joint states (:data:`DENSE_JOINT_CELLS` at most), the
joint table is small enough to hold whole: adding a potential is one pass multiplying the cells
and every marginal one pass summing them, where a junction tree passes a message per clique of
tables of a few cells each. :class:`DenseJoint` offers the methods of
:class:`~pgmpy_sgm.models._cmn_inference.Propagation` that cyclical projection and the edge
additions of ``MPLSearch`` use, so either serves them; the results agree to rounding.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np

from pgmpy_sgm.models._cmn_inference import JunctionTreeEngine, Propagation, align
from pgmpy_sgm.models._dense_kernels import marginal_cells, scale_cells, sum_cells

__all__ = ["DENSE_JOINT_CELLS", "DenseJoint", "held_whole", "propagation_for"]

#: Largest joint table (cells) held whole; beyond it the junction tree's messages are cheaper.
DENSE_JOINT_CELLS = 2**13


def held_whole(engine: JunctionTreeEngine) -> bool:
    """Whether the joint table of ``engine``'s variables has at most :data:`DENSE_JOINT_CELLS` cells.

    Examples
    --------
    >>> import networkx as nx
    >>> held_whole(JunctionTreeEngine(nx.path_graph(3), {0: 2, 1: 3, 2: 4})), DENSE_JOINT_CELLS
    (True, 8192)
    """
    return math.prod(float(engine.cards[v]) for v in _variables(engine)) <= DENSE_JOINT_CELLS


def _variables(engine: JunctionTreeEngine) -> list:
    """The variables of ``engine``'s cliques, in the order they first appear."""
    return list(dict.fromkeys(v for clique in engine.cliques for v in clique))


@functools.lru_cache(maxsize=256)  # at most 256 x 8 bytes x DENSE_JOINT_CELLS = 16 MB
def _cell_index(shape: tuple, axes: tuple) -> np.ndarray:
    """Each cell of a C-ordered table of ``shape``: its flat index in the table over the axes ``axes`` (cached)."""
    flat = marginal_cells(np.array(shape, dtype=np.int64), np.array(axes, dtype=np.int64))
    flat.flags.writeable = False
    return flat


class DenseJoint:
    """The joint distribution of a small network, changed potential by potential.

    The table is kept normalised, with ``log Z`` beside it: adding a log-potential multiplies
    the table by its exponential and renormalises, so a marginal is a sum, without logarithms.
    The starting potentials are summed in log space first, so that cells one of them puts far
    below its largest and another brings back are not lost to underflow.

    Parameters
    ----------
    engine : JunctionTreeEngine
        Its cliques name the variables (the table's axes, in the order they first appear).
    factors : sequence of (variables, log table)
        The starting log-potentials.

    Examples
    --------
    >>> import networkx as nx
    >>> joint = DenseJoint(JunctionTreeEngine(nx.path_graph(3), dict.fromkeys(range(3), 2)), [])
    >>> joint.add((0, 1), np.log(np.array([[1.0, 1.0], [1.0, 3.0]])))
    >>> joint.marginal([1]).round(3).tolist()
    [0.333, 0.667]
    """

    def __init__(self, engine: JunctionTreeEngine, factors: Sequence[tuple]):
        self.engine = engine
        self.variables = _variables(engine)
        self.shape = tuple(engine.cards[v] for v in self.variables)
        log_joint = np.zeros(self.shape)
        for scope, log_table in factors:
            log_joint = log_joint + align(np.asarray(log_table, dtype=float), scope, self.variables)
        top = float(log_joint.max())
        if not math.isfinite(top):  # no cell possible
            self.table, self.log_z = np.zeros(log_joint.size), -math.inf
            return
        table = np.exp(log_joint - top).ravel()  # flat, in C order of the axes
        total = float(table.sum())
        self.table, self.log_z = table / total, top + math.log(total)

    def _cells_of(self, scope: tuple) -> np.ndarray:
        """Each joint cell's cell of the table over ``scope`` (flat indices)."""
        return _cell_index(self.shape, tuple(self.variables.index(v) for v in scope))

    def add(self, scope: Sequence, log_table: np.ndarray) -> None:
        """Add a log-potential over ``scope``.

        Examples
        --------
        >>> import networkx as nx
        >>> joint = DenseJoint(JunctionTreeEngine(nx.path_graph(2), {0: 2, 1: 2}), [])
        >>> joint.add((0,), np.log(np.array([1.0, 3.0])))
        >>> joint.marginal([0]).round(6).tolist(), round(float(np.exp(joint.log_z)), 6)
        ([0.25, 0.75], 8.0)
        """
        log_table = np.asarray(log_table, dtype=float)
        top = float(log_table.max()) if log_table.size else 0.0
        top = top if math.isfinite(top) else 0.0
        total = scale_cells(self.table, self._cells_of(tuple(scope)), np.exp(log_table - top).ravel())
        if total > 0:
            self.table *= 1.0 / total
            self.log_z += top + math.log(total)
        else:
            self.log_z = -math.inf

    def marginal(self, variables: Sequence) -> np.ndarray:
        """``P(X_variables)`` (axes in the given order).

        Examples
        --------
        >>> import networkx as nx
        >>> DenseJoint(JunctionTreeEngine(nx.path_graph(2), {0: 2, 1: 2}), []).marginal([1]).tolist()
        [0.5, 0.5]
        """
        scope = tuple(variables)
        shape = [self.engine.cards[v] for v in scope]
        return sum_cells(self.table, self._cells_of(scope), math.prod(shape)).reshape(shape)


def propagation_for(engine: JunctionTreeEngine, factors: Sequence[tuple]) -> DenseJoint | Propagation:
    """A :class:`DenseJoint` when the joint table is small enough, else a junction tree's :class:`Propagation`.

    Examples
    --------
    >>> import networkx as nx
    >>> small = JunctionTreeEngine(nx.path_graph(3), dict.fromkeys(range(3), 2))
    >>> wide = JunctionTreeEngine(nx.path_graph(20), dict.fromkeys(range(20), 2))
    >>> type(propagation_for(small, [])).__name__, type(propagation_for(wide, [])).__name__
    ('DenseJoint', 'Propagation')
    """
    return DenseJoint(engine, factors) if held_whole(engine) else Propagation(engine, factors)
