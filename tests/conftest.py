"""Shared fixtures: the bundled heart-disease data and the paper's reference models."""

import itertools

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

HEART_EDGES = [
    ("smoking", "physical_work"),
    ("smoking", "systolic_bp"),
    ("smoking", "lipoprotein_ratio"),
    ("mental_work", "physical_work"),
    ("physical_work", "lipoprotein_ratio"),
    ("systolic_bp", "lipoprotein_ratio"),
]
HEART_BEST_STRATA = {
    ("smoking", "systolic_bp"): [{"lipoprotein_ratio": 1}],
    ("systolic_bp", "lipoprotein_ratio"): [{"smoking": 0}],
}
HEART_SECOND_EXTRA_EDGE = ("mental_work", "lipoprotein_ratio")
HEART_SECOND_EXTRA_STRATUM = {("mental_work", "lipoprotein_ratio"): [{"physical_work": 0}]}


@pytest.fixture(scope="session")
def heart_counts():
    from pgmpy_sgm.datasets import load_heart_disease

    return load_heart_disease(as_counts=True)


@pytest.fixture(scope="session")
def heart_rows():
    from pgmpy_sgm.datasets import load_heart_disease

    return load_heart_disease()


@pytest.fixture(scope="session")
def heart_score(heart_counts):
    from pgmpy_sgm import SGMScore

    return SGMScore(heart_counts, weights="count")


@pytest.fixture(scope="session")
def heart_paper():
    """Edges (as frozensets) and strata of the paper's best and second stratified graphs."""
    from types import SimpleNamespace

    return SimpleNamespace(
        nodes=["smoking", "mental_work", "physical_work", "systolic_bp", "lipoprotein_ratio", "family_history"],
        edges=list(HEART_EDGES),
        best_edges={frozenset(e) for e in HEART_EDGES},
        best_strata=dict(HEART_BEST_STRATA),
        second_edges={frozenset(e) for e in HEART_EDGES + [HEART_SECOND_EXTRA_EDGE]},
        second_strata={**HEART_BEST_STRATA, **HEART_SECOND_EXTRA_STRATUM},
    )


@pytest.fixture(scope="session")
def heart_reference_models():
    """The three models of DESIGN section 3 with their log unnormalized posteriors."""
    from pgmpy_sgm import StratifiedGraph

    nodes = ["smoking", "mental_work", "physical_work", "systolic_bp", "lipoprotein_ratio", "family_history"]
    best = StratifiedGraph(HEART_EDGES, strata=HEART_BEST_STRATA, nodes=nodes)
    second = StratifiedGraph(
        HEART_EDGES + [HEART_SECOND_EXTRA_EDGE], strata={**HEART_BEST_STRATA, **HEART_SECOND_EXTRA_STRATUM}, nodes=nodes
    )
    gm = StratifiedGraph(HEART_EDGES, nodes=nodes)
    return {"best": (best, -6715.90), "second": (second, -6716.66), "gm": (gm, -6720.18)}


def _brute_sgm_joint(model) -> np.ndarray:
    """A fitted SGM's joint (node order) as explicit products of its per-clique conditionals."""
    nodes = list(model.nodes())
    card = {v: len(model.states(v)) for v in nodes}
    out = np.zeros([card[v] for v in nodes])
    for combo in itertools.product(*[range(card[v]) for v in nodes]):
        x = dict(zip(nodes, combo, strict=True))
        p = 1.0
        for f in model.clique_factors:
            p *= float(f.table[tuple(x[w] for w in f.table_variables)])
            if f.center is not None:
                config = 0
                for w in f.parents:
                    config = config * card[w] + x[w]
                p *= float(f.group_values[x[f.center], f.group_ids[config]])
        out[combo] = p
    return out


def _brute_log_joint(nodes: list, cards: dict, factors: list) -> np.ndarray:
    """The log of a Markov network's unnormalised joint (axes in ``nodes`` order), cell by cell from its
    log-potentials ``[(variables, log table), ...]``."""
    log_joint = np.zeros([cards[v] for v in nodes])
    for cell in itertools.product(*(range(cards[v]) for v in nodes)):
        state = dict(zip(nodes, cell, strict=True))
        log_joint[cell] = sum(table[tuple(state[v] for v in scope)] for scope, table in factors)
    return log_joint


@pytest.fixture(scope="session")
def brute_log_joint():
    """The function computing a Markov network's log joint by brute force, independently of the package."""
    return _brute_log_joint


@pytest.fixture(scope="session")
def brute_sgm_joint():
    """The function computing a fitted SGM's joint by brute force, independently of the package."""
    return _brute_sgm_joint


def _noisy_tree_data(n_vars: int = 12, n: int = 300, seed: int = 0, keep: float = 0.8) -> pd.DataFrame:
    """Binary data: each variable a noisy copy (kept with probability ``keep``) of an earlier random one."""
    rng = np.random.default_rng(seed)
    x = np.zeros((n, n_vars), dtype=np.int64)
    x[:, 0] = rng.integers(0, 2, n)
    for v in range(1, n_vars):
        parent = x[:, rng.integers(v)]
        x[:, v] = np.where(rng.random(n) < keep, parent, rng.integers(0, 2, n))
    return pd.DataFrame(x, columns=[f"v{i}" for i in range(n_vars)])


@pytest.fixture(scope="session")
def noisy_tree_data():
    """The function simulating binary data from a random tree of noisy copies."""
    return _noisy_tree_data


def _random_dag_masks(d: int, p: float, rng) -> list[int]:
    """Parent bit masks of a random DAG: each pair joined with probability ``p``, along a random order."""
    order = rng.permutation(d)
    parents = [0] * d
    for i, j in itertools.combinations(range(d), 2):
        if rng.random() < p:
            parents[order[j]] |= 1 << int(order[i])
    return parents


@pytest.fixture(scope="session")
def random_dag_masks():
    """The function drawing a random DAG as parent bit masks."""
    return _random_dag_masks
