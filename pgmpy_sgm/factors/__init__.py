"""Conditional probability distributions for stratified graphical models."""

from pgmpy_sgm.factors.tree_cpd import TreeCPD

__all__ = ["TreeCPD"]
