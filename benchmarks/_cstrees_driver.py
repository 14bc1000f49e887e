"""Fit a CStree (package ``cstrees``) in its own environment; called by predictive.py through subprocess.

Usage: python _cstrees_driver.py TRAIN.csv TEST.csv OUT.json
The CSVs hold integer codes 0..k-1 with a header; the first data row of TRAIN.csv holds the cardinalities.
"""

import json
import sys
import time

import numpy as np
import pandas as pd


def main() -> None:
    train_path, test_path, out_path = sys.argv[1:4]
    gibbs = int(sys.argv[4]) if len(sys.argv) > 4 else 2000
    max_cvars = int(sys.argv[5]) if len(sys.argv) > 5 else 2
    import cstrees.learning as ctl
    import cstrees.scoring as sc

    train = pd.read_csv(train_path)
    test = pd.read_csv(test_path)
    cards = [int(c) for c in train.iloc[0]]
    np.random.seed(0)
    import random

    random.seed(0)
    start = time.perf_counter()
    # the steps of CStree.fit (which fails on string labels in cstrees 1.3.1): PC restricts the
    # context variables, a Gibbs order sampler finds the MAP order, then the optimal staging
    from causallearn.search.ConstraintBased.PC import pc

    graph = pc(train.values[1:], 0.05, "gsq", node_names=train.columns, show_progress=False)
    poss_cvars = ctl.causallearn_graph_to_posscvars(graph, labels=train.columns)
    score_table, context_scores, _ = sc.order_score_tables(
        train, max_cvars=max_cvars, alpha_tot=1.0, method="BDeu", poss_cvars=poss_cvars)
    orders, scores = ctl.gibbs_order_sampler(gibbs, score_table)
    tree = ctl._optimal_cstree_given_order(orders[scores.index(max(scores))], context_scores)
    tree.estimate_stage_parameters(train, alpha_tot=5.0, method="BDeu")  # pgmpy's BayesianEstimator default
    fit_time = time.perf_counter() - start
    labels = list(test.columns)
    values = test.to_numpy()
    ll = np.array([tree.pmf_log(list(row), label_order=labels) for row in values])
    n_params = 0
    for level, stages in tree.stages.items():
        if level == -1 or level >= tree.p - 1:
            continue
        n_params += len(stages) * (cards[tree.labels.index(tree.labels[level + 1])] - 1)
    n_params += cards[tree.labels.index(tree.labels[0])] - 1
    with open(out_path, "w") as fh:
        json.dump({"ll_per_row": float(ll.mean()), "fit_time": fit_time, "n_params": int(n_params),
                   "order": [str(x) for x in tree.labels]}, fh)


if __name__ == "__main__":
    main()
