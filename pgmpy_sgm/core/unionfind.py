"""Disjoint sets over ``0 .. n-1`` (union-find with path halving)."""

from __future__ import annotations

__all__ = ["DisjointSets"]


class DisjointSets:
    """A partition of ``0 .. n-1`` into disjoint sets, merged by :meth:`union`.

    Parameters
    ----------
    n : int
        Number of elements; each starts in a set of its own.

    Examples
    --------
    >>> sets = DisjointSets(4)
    >>> sets.union(0, 2)
    True
    >>> sets.find(2) == sets.find(0), sets.find(1) == sets.find(0)
    (True, False)
    >>> sets.components()
    [[0, 2], [1], [3]]
    """

    __slots__ = ("parent",)

    def __init__(self, n: int):
        self.parent = list(range(int(n)))

    def find(self, a: int) -> int:
        """The representative of the set holding ``a``.

        Examples
        --------
        >>> DisjointSets(3).find(1)
        1
        """
        parent = self.parent
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    def union(self, a: int, b: int) -> bool:
        """Merge the sets holding ``a`` and ``b``; False when they were already one set.

        Examples
        --------
        >>> sets = DisjointSets(2)
        >>> sets.union(1, 0), sets.union(0, 1)
        (True, False)
        """
        ra, rb = self.find(a), self.find(b)
        if ra == rb:
            return False
        self.parent[rb] = ra
        return True

    def roots(self) -> list[int]:
        """The representative of every element, in element order.

        Examples
        --------
        >>> sets = DisjointSets(3)
        >>> _ = sets.union(0, 2)
        >>> sets.roots()
        [0, 1, 0]
        """
        return [self.find(a) for a in range(len(self.parent))]

    def components(self) -> list[list[int]]:
        """The sets, each sorted, ordered by their smallest element.

        Examples
        --------
        >>> sets = DisjointSets(3)
        >>> _ = sets.union(2, 1)
        >>> sets.components()
        [[0], [1, 2]]
        """
        groups: dict[int, list[int]] = {}
        for a, root in enumerate(self.roots()):
            groups.setdefault(root, []).append(a)
        return sorted(groups.values(), key=min)
