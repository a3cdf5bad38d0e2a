"""Matching algorithms for expected-vs-actual call lists.

Why a hand-written bipartite matching and no library: the graph is tiny and one-sided (the
expected calls of a check, against the calls that satisfy them), we need a *maximum* matching
rather than a minimum-cost one, and the only candidates are SciPy's
``linear_sum_assignment`` (a heavy compiled dependency for 40 lines of code, and it wants a
dense cost matrix: 10,000 calls × 50 expectations of dense floats for a boolean relation) and
networkx (a large pure-Python dependency whose Hopcroft–Karp needs graph objects built per
check). Kuhn's augmenting-path algorithm with a greedy start is O(V·E) in the worst case and
close to O(E) in practice, where E is bounded by the candidates of the same tool.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

T = TypeVar("T")

__all__ = ["max_bipartite_matching", "subsequence"]


def max_bipartite_matching(n_right: int, adjacency: Sequence[Sequence[int]]) -> list[int | None]:
    """A maximum matching of left vertices to right vertices.

    Args:
        n_right: number of right vertices (actual calls), numbered ``0..n_right-1``.
        adjacency: for every left vertex (expected call), the right vertices it may take, in
            order of preference (earlier calls first, so that ties resolve to the earliest).

    Returns:
        For every left vertex, the right vertex matched to it, or ``None``.
    """
    match_left: list[int | None] = [None] * len(adjacency)
    match_right: list[int | None] = [None] * n_right
    # Greedy start: most vertices find a free partner at once, so augmenting is rare.
    for u, nbrs in enumerate(adjacency):
        for v in nbrs:
            if match_right[v] is None:
                match_right[v] = u
                match_left[u] = v
                break
    for u in range(len(adjacency)):
        if match_left[u] is None:
            _augment(u, adjacency, match_left, match_right)
    return match_left


def _augment(
    root: int,
    adjacency: Sequence[Sequence[int]],
    match_left: list[int | None],
    match_right: list[int | None],
) -> bool:
    """Find an augmenting path from the free left vertex *root* and flip it (iterative DFS)."""
    seen: set[int] = set()
    stack: list[tuple[int, Iterator[int]]] = [(root, iter(adjacency[root]))]
    # path[i] is the right vertex through which stack[i + 1] was entered (len(stack) - 1 items).
    path: list[int] = []
    while stack:
        _, it = stack[-1]
        for v in it:
            if v in seen:
                continue
            seen.add(v)
            owner = match_right[v]
            path.append(v)
            if owner is None:
                # Every left vertex on the stack takes the right vertex after it on the path.
                for (u, _), w in zip(stack, path, strict=True):
                    match_left[u] = w
                    match_right[w] = u
                return True
            stack.append((owner, iter(adjacency[owner])))
            break
        else:
            stack.pop()
            if path:
                path.pop()
    return False


def subsequence(n_expected: int, actual: Sequence[T], fits: Callable[[int, T], bool]) -> list[int]:
    """Greedy leftmost embedding of the expected items, in order, into *actual*.

    Greedy is optimal here: taking the earliest fitting call for each expected item never
    removes a possibility for the next one (the exchange argument of subsequence testing),
    whatever the per-item predicates. Returns the positions matched, in order; fewer than
    *n_expected* means expected item ``len(result)`` could not be placed.
    """
    out: list[int] = []
    j = 0
    for i, item in enumerate(actual):
        if j == n_expected:
            break
        if fits(j, item):
            out.append(i)
            j += 1
    return out
