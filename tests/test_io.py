from __future__ import annotations

import os
import stat

import pytest

from augnb._io import atomic_open, write_text_atomic


def test_atomic_write_replaces_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "out.txt"
    write_text_atomic(target, "one")
    write_text_atomic(target, "two")
    assert target.read_text() == "two"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_failed_write_keeps_the_old_file(tmp_path):
    target = tmp_path / "out.txt"
    target.write_text("old")
    with pytest.raises(RuntimeError), atomic_open(target) as fh:
        fh.write("half")
        raise RuntimeError("boom")
    assert target.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"]


def test_written_files_get_the_usual_permissions(tmp_path):
    umask = os.umask(0o022)
    try:
        write_text_atomic(tmp_path / "f.txt", "x")
    finally:
        os.umask(umask)
    mode = stat.S_IMODE((tmp_path / "f.txt").stat().st_mode)
    assert mode == 0o644


def test_a_folder_as_the_target_is_named_before_writing(tmp_path):
    # Not the temporary file's name in os.replace's error, after the work.
    (tmp_path / "out").mkdir()
    with pytest.raises(IsADirectoryError, match=r"'.*out' is a folder") as info:
        write_text_atomic(tmp_path / "out", "x")
    assert ".tmp" not in str(info.value)
    assert [p.name for p in tmp_path.iterdir()] == ["out"]


def test_a_target_that_cannot_be_made_is_named_not_its_temporary(tmp_path):
    target = tmp_path / "missing" / "out.txt"
    with pytest.raises(FileNotFoundError, match=r"cannot write '.*out.txt'") as info:
        write_text_atomic(target, "x")
    assert ".tmp" not in str(info.value)
