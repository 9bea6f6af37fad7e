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


@pytest.mark.skipif(os.name != "posix", reason="POSIX modes")
def test_writing_leaves_the_process_umask_alone(tmp_path, monkeypatch):
    # Reading the umask takes setting it: the old code set it to 0 for a
    # moment, so files other threads created meanwhile were world-writable
    # (and two threads saving at once could leave it 0).
    umask = os.umask(0o077)
    calls = []
    real = os.umask
    monkeypatch.setattr(os, "umask", lambda mask: calls.append(mask) or real(mask))
    try:
        write_text_atomic(tmp_path / "f.txt", "x")
        with atomic_open(tmp_path / "g.bin", "wb") as fh:
            fh.write(b"\n")
    finally:
        real(umask)
    assert calls == []
    assert stat.S_IMODE((tmp_path / "f.txt").stat().st_mode) == 0o600
    assert (tmp_path / "g.bin").read_bytes() == b"\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.txt", "g.bin"]


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


def test_a_link_is_written_through_and_kept(tmp_path):
    # A link to the output (a shared results folder, say): the file it names
    # is replaced, atomically; the link stays a link.
    real = tmp_path / "real.csv"
    real.write_text("old")
    link = tmp_path / "link.csv"
    link.symlink_to(real)
    write_text_atomic(link, "new")
    assert link.is_symlink() and real.read_text() == "new"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_pipe_or_device_is_written_to_not_replaced(tmp_path):
    # A named pipe, a device (/dev/null) or /dev/stdout cannot be half
    # written as a file can: it is written to, not replaced by a file.
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    reader = os.open(pipe, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_text_atomic(pipe, "rows")
        assert os.read(reader, 100) == b"rows"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.stat(pipe).st_mode)
    assert os.listdir(tmp_path) == ["pipe"]
