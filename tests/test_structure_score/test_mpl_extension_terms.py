"""MPLScore.extension_terms (the pre-screen's terms counted in one pass) against row-by-row terms and local_score."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from pgmpy_sgm.structure_score import MPLScore


def _data(n=400, seed=0, cards=(2, 3, 2, 4, 2)):
    rng = np.random.default_rng(seed)
    frame = pd.DataFrame({f"v{i}": rng.integers(0, k, n) for i, k in enumerate(cards)})
    frame["v1"] = np.where(rng.random(n) < 0.6, frame["v0"], frame["v1"])
    return frame


def _term_by_rows(frame, variable, blanket, alpha=0.5, weights=None):
    """The local MPL term of ``variable`` given ``blanket``, its counts summed over the rows here."""
    weights = np.ones(len(frame)) if weights is None else np.asarray(weights, dtype=float)
    r = int(frame[variable].max()) + 1  # the data hold every state (checked below)
    counts: dict = {}
    for row, w in zip(frame.itertuples(index=False), weights, strict=True):
        values = row._asdict()
        config = tuple(values[b] for b in blanket)
        counts.setdefault(config, np.zeros(r))[values[variable]] += w
    q = math.prod(int(frame[b].max()) + 1 for b in blanket)
    total = 0.0
    for by_state in counts.values():
        a = 1.0 / (q * r) if alpha == "bdeu" else alpha
        total += math.lgamma(r * a) - math.lgamma(by_state.sum() + r * a)
        total += sum(math.lgamma(c + a) - math.lgamma(a) for c in by_state)
    return total  # unobserved configurations add lgamma(ra) - lgamma(ra) = 0


@pytest.mark.parametrize("alpha", [0.5, 2.0, "bdeu"])
@pytest.mark.parametrize("blanket", [(), ("v1",), ("v0", "v3")])
def test_extension_terms_equal_row_by_row_terms(alpha, blanket):
    frame = _data()
    assert all(frame[c].nunique() == frame[c].max() + 1 for c in frame.columns)
    score = MPLScore(frame, alpha=alpha, kappa=1.0)
    candidates = [v for v in frame.columns if v not in blanket and v != "v2"]
    got = score.extension_terms("v2", blanket, candidates)
    order = {v: i for i, v in enumerate(frame.columns)}
    for w, term in zip(candidates, got, strict=True):
        full = tuple(sorted((*blanket, w), key=order.__getitem__))
        assert term == pytest.approx(_term_by_rows(frame, "v2", full, alpha), rel=1e-12, abs=1e-9)
        assert term == MPLScore(frame, alpha=alpha, kappa=1.0).local_score("v2", full)  # counted the usual way
        assert score.local_score("v2", full) == term  # kept for the climb


def test_extension_terms_with_row_counts_equal_local_score_exactly():
    frame = _data(n=200, seed=3)
    weights = np.random.default_rng(4).integers(0, 4, len(frame)).astype(float)
    score = MPLScore(frame, weights=weights)
    got = score.extension_terms("v1", ("v0",), ["v2", "v3", "v4"])
    fresh = MPLScore(frame, weights=weights)
    assert got == [fresh.local_score("v1", ("v0", w)) for w in ("v2", "v3", "v4")]
    pooled_rows = score.encoded.codes.shape[0]
    assert pooled_rows <= len(frame)
    by_rows = _term_by_rows(frame, "v1", ("v0", "v3"), weights=weights)
    assert got[1] == pytest.approx(by_rows, rel=1e-12)


def test_extension_terms_checks_the_family():
    score = MPLScore(_data(n=50))
    assert score.extension_terms("v0", ("v1",), []) == []
    with pytest.raises(ValueError, match="cannot be its own parent"):
        score.extension_terms("v0", ("v1",), ["v0"])
    with pytest.raises(ValueError, match="not columns of the data"):
        score.extension_terms("v0", ("v1",), ["nope"])


def test_extension_terms_above_max_cells_take_the_checked_path():
    frame = _data(n=100)
    score = MPLScore(frame, max_cells=40)  # v0, v3 and a candidate with v2: up to 2 * 4 * 3 * 2 = 48 cells
    with pytest.raises(ValueError, match="max_cells"):
        score.extension_terms("v2", ("v0", "v3"), ["v1"])
    assert score.extension_terms("v2", ("v0",), ["v4"]) == [MPLScore(frame).local_score("v2", ("v0", "v4"))]
