"""Files of a labelled DAG: pgmpy's formats written atomically, and the lossless JSON form."""

from __future__ import annotations

import os
import tempfile

from pgmpy.models import DiscreteBayesianNetwork

__all__ = ["PGMPY_FILE_TYPES", "file_type", "save_network", "read_json_network"]

#: The file formats of pgmpy's ``save``/``load``.
PGMPY_FILE_TYPES = ("bif", "uai", "xmlbif", "xdsl", "net")


def file_type(filename, filetype: str) -> str:
    """pgmpy's rule: a known extension of ``filename`` wins over ``filetype``; "json" added.

    Examples
    --------
    >>> file_type("net.xmlbif", "bif"), file_type("net.txt", "json")
    ('xmlbif', 'json')
    """
    known = (*PGMPY_FILE_TYPES, "json")
    if filetype not in known:
        raise ValueError(f"Unsupported file format: {filetype!r}; use one of {', '.join(known)}")
    extension = str(filename).rsplit(".", 1)[-1].lower()
    return extension if extension in known else filetype


def save_network(model, filename, filetype: str, overwrite: bool) -> None:
    """Write ``model`` (a labelled network) as :meth:`~pgmpy_sgm.models.LabeledBayesianNetwork.save` does.

    Examples
    --------
    >>> import os, tempfile
    >>> from pgmpy_sgm.models import LabeledBayesianNetwork
    >>> path = os.path.join(tempfile.mkdtemp(), "net.json")
    >>> save_network(LabeledBayesianNetwork([("a", "b")], state_names={"a": [0, 1], "b": [0, 1]}), path, "bif", False)
    >>> sorted(read_json_network(path).edges())
    [('a', 'b')]
    """
    filetype = file_type(filename, filetype)
    if filetype == "json":
        from pgmpy_sgm.readwrite import write_ldag_json  # readwrite imports the models

        write_ldag_json(model, filename, overwrite=overwrite)
        return
    _save_with_pgmpy(model, filename, filetype, overwrite)


def read_json_network(filename):
    """The labelled network of a JSON file written by :func:`save_network`.

    Examples
    --------
    >>> import os, tempfile
    >>> from pgmpy_sgm.models import LabeledBayesianNetwork
    >>> path = os.path.join(tempfile.mkdtemp(), "net.json")
    >>> LabeledBayesianNetwork([("a", "b")], state_names={"a": [0, 1], "b": [0, 1]}).save(path)
    >>> read_json_network(path).nodes()
    NodeView(('a', 'b'))
    """
    from pgmpy_sgm.readwrite import read_ldag_json  # readwrite imports the models

    return read_ldag_json(filename)


def _save_with_pgmpy(model, filename, filetype: str, overwrite: bool) -> None:
    """Write with pgmpy's writer into a scratch folder, then move the text into place atomically."""
    from pgmpy_sgm.readwrite._fields import atomic_write_text  # readwrite imports the models

    if os.path.exists(filename) and not overwrite:
        raise FileExistsError(f"{str(filename)!r} exists; pass overwrite=True to replace it")
    with tempfile.TemporaryDirectory() as scratch:
        path = os.path.join(scratch, f"network.{filetype}")
        DiscreteBayesianNetwork.save(model, path, filetype=filetype)
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    atomic_write_text(filename, text, overwrite)
