"""What every chain of one fit of the non-reversible search does: a :class:`SearchPlan`."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["SearchPlan"]


@dataclass(frozen=True)
class SearchPlan:
    """What every chain of one fit does (the same for all chains; small and picklable).

    Attributes
    ----------
    strata : bool
        Score graphs with their optimal strata.
    pair_cdf : tuple of float or None
        Cumulative proposal weights of the pairs (None: uniform, the paper's proposal).
    relocate_every : int
        Every this many iterations the proposal is a relocation
        (:func:`~pgmpy_sgm.core.search.relocate`) instead of one toggle; 0 never.
    polish_every : int
        Every this many iterations, if the chain's best graph is new since the last
        polish, a :func:`~pgmpy_sgm.core.search.polish` (relocation sweeps,
        clique-insertion sweeps with ``clique_partners`` and relocating-insertion sweeps
        with ``relocating_insertions``) starts from it and the chain
        jumps to the result when it is better; 0 never.
    deadline : float or None
        Wall-clock time (:func:`time.time`) at which every chain stops.
    clique_partners : tuple of tuple of int or None
        :func:`~pgmpy_sgm.core.search.clique_partners` for the polish's clique insertions
        (None: relocation sweeps only).
    owner_pid : int or None
        Process id of the fit; a worker process started by it (its direct child) exits
        when that process has gone, e.g. after ``kill -9``.
    graft_every : int
        Every this many iterations, when the chain's current graph differs from its best,
        the parts in which the current graph is better are imported into the best graph
        (:func:`~pgmpy_sgm.core.search.recombine`); 0 never.
    relocating_insertions : bool
        Polishes try relocating insertions, with the run's
        :func:`~pgmpy_sgm.core.search.triple_partners`, computed the first time a polish
        needs them (:func:`triples_for`).
    polish_after : int
        A polish also starts as soon as the chain's best graph, not yet polished, has
        stood for this many iterations without a better one; 0 never.
    settle_age : int
        A chain *settles* (stops) once its best graph has been polished (when the plan
        polishes) and has stood for ``max(settle_age, settle_ratio * best_iteration)``
        iterations, times ``2 ** settle_round`` of the chain (:class:`ChainState`); 0: chains
        run their iterations.
    settle_ratio : float
        See ``settle_age``.
    candidates : CandidatePairs or None
        :class:`~pgmpy_sgm.core.candidates.CandidatePairs`: relocations, clique insertions
        and relocating insertions climb over their candidate pairs, and polishes follow the
        part of the graph that changed (None: every pair, every node).
    """

    strata: bool = True
    pair_cdf: tuple | None = None
    relocate_every: int = 0
    polish_every: int = 0
    deadline: float | None = None
    owner_pid: int | None = None
    clique_partners: tuple | None = None
    graft_every: int = 0
    relocating_insertions: bool = False
    polish_after: int = 0
    settle_age: int = 0
    settle_ratio: float = 0.0
    candidates: object = None

    def settled(self, iteration: int, best_iteration: int, best_key: int, polished_key: int, settle_round: int) -> bool:
        """Whether a chain in this position has settled (see ``settle_age``).

        Examples
        --------
        >>> plan = SearchPlan(polish_after=100, settle_age=1000, settle_ratio=0.5)
        >>> plan.settled(3000, 1500, best_key=7, polished_key=7, settle_round=0)  # stood 1500 >= max(1000, 750)
        True
        >>> plan.settled(3000, 1500, best_key=7, polished_key=7, settle_round=1)  # needs 3000 in round 1
        False
        >>> plan.settled(3000, 1500, best_key=7, polished_key=5, settle_round=0)  # best not polished yet
        False
        """
        if not self.settle_age or (self.polishes and best_key != polished_key):
            return False
        need = max(self.settle_age, int(self.settle_ratio * best_iteration)) << settle_round
        return iteration - best_iteration >= need

    @property
    def polishes(self) -> bool:
        """Whether chains polish their best graphs."""
        return bool(self.polish_every or self.polish_after)

    def polish_due(self, iteration: int, best_iteration: int) -> bool:
        """Whether a chain polishes at ``iteration`` (if its best graph is new since the last polish).

        Examples
        --------
        >>> plan = SearchPlan(polish_every=5000, polish_after=800)
        >>> plan.polish_due(5000, 4900), plan.polish_due(1800, 1000), plan.polish_due(1700, 1000)
        (True, True, False)
        """
        periodic = self.polish_every and iteration % self.polish_every == 0
        return bool(periodic or (self.polish_after and iteration - best_iteration >= self.polish_after))
