"""Stratified graphs and stratified graphical models."""

from pgmpy_sgm.models.stratified_graph import CliqueLabels, ContextSpecificIndependence, StratifiedGraph

__all__ = ["StratifiedGraph", "ContextSpecificIndependence", "CliqueLabels"]
