"""`python -m transformer store prune` with a file it cannot delete (issue 43 §3): it removes everything else it meant
to, says `removed …` for each file (a damaged one too), names the stuck file with the system's reason, gives advice
that fits one stuck file, and exits with status 1. The file is made undeletable for real: immutable (chattr +i), or,
where root lacks that capability, root's file in a sticky folder while the process acts as another user."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.transformer.test_store import HOUR, opened_ago, tiny
from transformer.__main__ import main
from transformer.store import ModelStore

NOBODY = 65534


def _immutable(path: Path) -> bool:
    """Whether chattr +i made path immutable (root with CAP_LINUX_IMMUTABLE, on a file system that has the flag)."""
    if shutil.which("chattr") is None:
        return False
    return subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode == 0


@contextlib.contextmanager
def undeletable(path: Path) -> Iterator[None]:
    """While inside, this process cannot delete path (and can delete the other files of its folder)."""
    if _immutable(path):
        try:
            yield
        finally:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        return
    if os.geteuid() != 0:
        pytest.skip("making one file undeletable needs root: chattr +i, or root's file in a sticky folder")
    folder = path.parent  # the sticky bit: only a file's owner deletes it, and this process acts as nobody
    folder.chmod(0o1777)
    for other in folder.iterdir():
        if other != path:
            os.chown(other, NOBODY, NOBODY)
    os.setegid(NOBODY)
    os.seteuid(NOBODY)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


@pytest.fixture
def store_folder(monkeypatch) -> Iterator[Path]:
    """A store folder every user can reach (pytest's tmp_path is root's alone), named in the environment."""
    parent = Path(tempfile.mkdtemp(prefix="stuck-store-"))
    parent.chmod(0o755)
    folder = parent / "store"
    monkeypatch.setenv("PLAYGROUND_MODEL_STORE", str(folder))
    yield folder
    shutil.rmtree(parent)


def test_prune_removes_all_it_can_past_a_file_it_cannot_delete_and_names_that_file(store_folder, capsys, monkeypatch):
    store = ModelStore(store_folder)
    keys = [store.publish(tiny(seed), f"model {seed}")[0].hash for seed in (1, 2, 3, 4, 5)]
    for key, hours in zip(keys, (6, 5, 4, 3, 0)):
        opened_ago(store, key, hours * HOUR)
    damaged = f"{keys[4]}-{time.time_ns()}.damaged"
    (store_folder / damaged).write_bytes(b"set aside earlier")
    oldest = store_folder / f"{keys[0]}.safetensors"
    monkeypatch.setenv("PLAYGROUND_MODEL_STORE_MODELS", "1")
    with undeletable(oldest):
        status = main(["store", "prune"])
        out, err = capsys.readouterr()
    lines = out.splitlines()
    assert status == 1
    assert lines[0] == f"removed {damaged} (damaged, set aside)"  # said, as every file removed
    assert [line.split(" (")[0] for line in lines[1:4]] == [f"removed {k}" for k in keys[1:4]]  # past the stuck one
    assert lines[4] == f"could not remove {keys[0]}.safetensors (least recently opened): Operation not permitted"
    assert lines[5].startswith(f"{store_folder}: 2 models of at most 1, ")
    assert sorted(p.name for p in store_folder.iterdir() if p.name != ".lock") == sorted(
        [f"{keys[0]}.safetensors", f"{keys[0]}.json", f"{keys[4]}.safetensors", f"{keys[4]}.json"]
    )
    assert "cannot write to the model store" not in err and "PLAYGROUND_MODEL_STORE to a folder" not in err
    assert err == (
        "prune: the file above could not be removed, the rest of the store was pruned: the system refuses to delete "
        "it (Operation not permitted), so it is immutable or append-only (lsattr shows an i or an a; chattr -i or -a, "
        "as root, clears it) or another user's in a folder with the sticky bit. Clear that or delete it by hand, then "
        "run prune again.\n"
    )
    assert main(["store", "prune"]) == 0  # once it can be deleted, prune finishes the job
    assert capsys.readouterr().out.startswith(f"removed {keys[0]} (least recently opened, ")
    assert [e.hash for e in store.entries()] == keys[4:]
