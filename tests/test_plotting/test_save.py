"""save_figure: valid files, atomic replacement and clear errors."""

import os

import matplotlib.pyplot as plt
import pytest

from pgmpy_sgm.plotting import plot_stratified_graph, save_figure

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_png_of_heart_graph(tmp_path, heart_sg):
    ax = plot_stratified_graph(heart_sg)
    out = save_figure(ax.figure, tmp_path / "sg.png")
    data = out.read_bytes()
    assert out == tmp_path / "sg.png"
    assert data[:8] == PNG_MAGIC and len(data) > 1000
    assert os.listdir(tmp_path) == ["sg.png"]


def test_axes_and_str_path_and_other_formats(tmp_path, synthetic_sg):
    ax = plot_stratified_graph(synthetic_sg)
    assert save_figure(ax, str(tmp_path / "sg.svg")).read_text().lstrip().startswith("<?xml")
    assert save_figure(ax, tmp_path / "sg.pdf").read_bytes()[:4] == b"%PDF"


def test_overwrite(tmp_path):
    fig, _ = plt.subplots()
    path = tmp_path / "f.png"
    path.write_bytes(b"old")
    with pytest.raises(FileExistsError):
        save_figure(fig, path, overwrite=False)
    assert path.read_bytes() == b"old"
    save_figure(fig, path)
    assert path.read_bytes()[:8] == PNG_MAGIC


def test_failed_save_keeps_old_file_and_leaves_no_temp(tmp_path):
    fig, _ = plt.subplots()
    path = tmp_path / "f.png"
    path.write_bytes(b"old")
    with pytest.raises(TypeError):
        save_figure(fig, path, not_a_savefig_option=1)
    assert path.read_bytes() == b"old"
    assert os.listdir(tmp_path) == ["f.png"]


def test_errors(tmp_path):
    fig, _ = plt.subplots()
    with pytest.raises(ValueError, match="suffix"):
        save_figure(fig, tmp_path / "f.xyz")
    with pytest.raises(FileNotFoundError, match="does not exist"):
        save_figure(fig, tmp_path / "missing" / "f.png")
    with pytest.raises(TypeError, match="Figure"):
        save_figure("fig", tmp_path / "f.png")


def test_permissions_follow_umask(tmp_path):
    fig, _ = plt.subplots()
    umask = os.umask(0o022)
    try:
        out = save_figure(fig, tmp_path / "f.png")
    finally:
        os.umask(umask)
    assert out.stat().st_mode & 0o777 == 0o644
