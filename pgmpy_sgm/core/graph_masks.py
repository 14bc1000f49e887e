"""Undirected graphs as lists of neighbour bit masks: reach, connected components, maximum cardinality search."""

from __future__ import annotations

from pgmpy_sgm.core.bitsets import iter_bits

__all__ = ["reach", "adjacent_to_all", "component_masks", "chordal_families"]


def reach(adj: list[int], start: int, allowed: int) -> int:
    """The set mask of the nodes reachable from node ``start`` through nodes of the set mask ``allowed``.

    Examples
    --------
    >>> reach([0b010, 0b101, 0b010], 0, -1)  # the path 0 - 1 - 2
    7
    >>> reach([0b010, 0b101, 0b010], 0, 0b001)  # node 1 not allowed
    1
    """
    reach = frontier = 1 << start
    while frontier:
        nxt = 0
        m = frontier
        while m:
            low = m & -m
            nxt |= adj[low.bit_length() - 1]
            m ^= low
        frontier = nxt & allowed & ~reach
        reach |= frontier
    return reach


def adjacent_to_all(adj: list[int], nodes: int) -> int:
    """The set mask of the nodes adjacent to every node of the set mask ``nodes`` (-1, all, for no nodes).

    Examples
    --------
    >>> adjacent_to_all([0b110, 0b101, 0b011], 0b011)  # the triangle: only node 2 touches both 0 and 1
    4
    >>> adjacent_to_all([0b110, 0b101, 0b011], 0)
    -1
    """
    common = -1
    m = nodes
    while m:
        low = m & -m
        common &= adj[low.bit_length() - 1]
        m ^= low
    return common


def component_masks(adj: list[int]) -> list[int]:
    """The connected component of every node, as a set mask.

    Examples
    --------
    >>> component_masks([0b010, 0b001, 0b000])  # the edge 0 - 1 and the isolated node 2
    [3, 3, 4]
    """
    components = [0] * len(adj)
    for v in range(len(adj)):
        if not components[v]:
            mask = reach(adj, v, -1)
            for w in iter_bits(mask):
                components[w] = mask
    return components


def chordal_families(adj: list[int]) -> list[tuple[int, int]] | None:
    """Families ``(v, earlier neighbours of v)`` of a maximum cardinality search, or None.

    The search order reversed is a perfect elimination order when the graph is chordal;
    the earlier neighbours of each node then form a clique (Tarjan & Yannakakis, 1984).
    Returns None when the graph is not chordal.

    Examples
    --------
    >>> chordal_families([0b110, 0b101, 0b011])  # a triangle
    [(0, 0), (1, 1), (2, 3)]
    >>> chordal_families([0b1010, 0b0101, 0b1010, 0b0101]) is None  # a 4-cycle
    True
    """
    n = len(adj)
    numbered = 0
    order_pos = [-1] * n
    weight = [0] * n
    # buckets[w]: the unnumbered nodes of weight w, as a set mask (the next node is the lowest
    # of the highest non-empty bucket): time linear in nodes and edges, up to mask operations
    buckets = [(1 << n) - 1]
    top = 0
    families = []
    for step in range(n):
        while not buckets[top]:
            top -= 1
        low = buckets[top] & -buckets[top]
        v = low.bit_length() - 1
        buckets[top] ^= low
        earlier = adj[v] & numbered
        if earlier:
            # the most recently numbered earlier neighbour must be adjacent to the others
            last = max(iter_bits(earlier), key=order_pos.__getitem__)
            rest = earlier & ~(1 << last)
            if rest & ~adj[last]:
                return None
        families.append((v, earlier))
        order_pos[v] = step
        numbered |= low
        for w in iter_bits(adj[v] & ~numbered):
            bit = 1 << w
            old = weight[w]
            buckets[old] ^= bit
            weight[w] = old + 1
            if old + 1 == len(buckets):
                buckets.append(0)
            buckets[old + 1] |= bit
            if old + 1 > top:
                top = old + 1
    return families
