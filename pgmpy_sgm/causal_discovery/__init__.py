"""Structure learning of decomposable stratified graphical models."""

from pgmpy_sgm.causal_discovery.exhaustive import exhaustive_posterior

__all__ = ["exhaustive_posterior"]
