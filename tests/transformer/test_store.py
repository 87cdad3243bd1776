"""The model store (transformer.store) and `python -m transformer store`: published once and immutable, atomic under
concurrent processes, evicted least recently opened first (never within the hour), hostile hashes refused before any
file is touched, damaged files refused and never served again (issue 22); what the store did not make left alone,
the one-hour guard reported by prune, a damaged file in a read-only store refused and remembered, byte-repeatable
files (issue 31)."""

from __future__ import annotations

import errno
import multiprocessing
import os
import pickle
import socket
import time
from pathlib import Path

import pytest

from tests.conftest import SEED_PAIRS, TINY
from transformer import Translator, checkpoint
from transformer.__main__ import main
from transformer.checkpoint import load_checkpoint, save_checkpoint
from transformer.errors import StoreError
from transformer.store import (
    KEEP_OPENED_SECONDS,
    ModelStore,
    default_folder,
    fingerprint,
    is_model_hash,
    same_model,
)

HOUR = KEEP_OPENED_SECONDS


def tiny(seed: int) -> Translator:
    """A tiny untrained model; each seed gives other weights, so another fingerprint."""
    return Translator.create(SEED_PAIRS, seed=seed, **TINY)


def files(folder: Path) -> dict[str, tuple[int, float]]:
    """Every name in the folder with its size and modification time (the lock file aside)."""
    if not folder.exists():
        return {}
    return {p.name: (p.lstat().st_size, p.lstat().st_mtime) for p in folder.iterdir() if p.name != ".lock"}


def opened_ago(store: ModelStore, key: str, seconds: float) -> None:
    """Make an entry look last opened `seconds` ago (its file's modification time is when it was last opened)."""
    path = store.folder / f"{key}.safetensors"
    os.utime(path, (time.time() - seconds, time.time() - seconds))


def test_a_model_is_published_once_and_opens_as_the_same_model(tmp_path):
    store, model = ModelStore(tmp_path / "store"), tiny(1)
    key = fingerprint(model)
    entry, new = store.publish(model, "  Lesson 3:\tcolours ")
    again, new_again = store.publish(tiny(1), "another name")  # the same weights, built again
    assert (new, new_again) == (True, False)
    assert again == entry and entry.hash == key and len(key) == 16
    assert entry.name == "Lesson 3: colours" and entry.published_date == time.strftime("%Y-%m-%d", time.gmtime())
    assert sorted(files(store.folder)) == [f"{key}.json", f"{key}.safetensors"]
    assert entry.size == (store.folder / f"{key}.safetensors").stat().st_size
    for link_hash in (key, key[:8]):  # a link of today, and one made when links carried 8 digits
        opened, found = store.open(link_hash)
        assert fingerprint(opened) == key and found.hash == key
        assert opened.translate("我 喜 欢 你").text == model.translate("我 喜 欢 你").text
    assert store.open(fingerprint(tiny(2))) is None  # never published


def test_the_fingerprint_changes_with_any_weight_and_old_8_digit_links_still_name_the_model():
    model = tiny(1)
    key = fingerprint(model)
    assert is_model_hash(key) and is_model_hash(key[:8]) and same_model(key[:8], key) and same_model(key, key)
    changed = load_checkpoint(save_checkpoint(model))
    with_one_weight_changed = next(iter(changed.model.parameters()))
    with_one_weight_changed.data[0].add_(1e-6)
    assert fingerprint(changed) != key
    assert fingerprint(load_checkpoint(save_checkpoint(model))) == key  # a checkpoint keeps it
    assert not same_model(key[:7], key) and not same_model(key[1:9], key)


def test_8_digits_name_the_one_model_they_start_and_none_when_they_start_two(tmp_path):
    store = ModelStore(tmp_path)
    for name in ("0123abcd00000000", "0123abcd11111111", "4567ef0022222222"):
        (tmp_path / f"{name}.safetensors").write_bytes(b"")  # entries by name (find reads no model)
    assert store.find("4567ef00").hash == "4567ef0022222222"
    assert store.find("0123abcd") is None  # two models start so: neither is meant more than the other
    assert store.find("0123abcd11111111").hash == "0123abcd11111111"
    assert store.find("89abcdef") is None


HOSTILE = [
    "../outside",
    "../../../../etc/passwd",
    "/etc/passwd",
    "a" * 10_000,
    "０１２３４５６７",  # fullwidth digits
    "0123456789ABCDEF",  # upper case
    "0123abcd\n",
    "0123abcd/..",
    "0123abc",
    "0123456789abcdef0",
    "",
    "0123abcd\x00",
    "🙂" * 8,
]


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
def test_a_hostile_hash_is_refused_before_any_file_is_touched(tmp_path, text):
    store = ModelStore(tmp_path / "store")
    store.publish(tiny(1))
    outside = tmp_path / "outside.safetensors"  # what "../outside" would name, were it ever made a path
    outside.write_bytes(save_checkpoint(tiny(2)))
    os.utime(outside, (1_000_000_000, 1_000_000_000))
    before, outside_before = files(store.folder), outside.stat()
    for call in (store.open, store.find, store.remove):
        with pytest.raises(StoreError) as refused:
            call(text)
        assert refused.value.code == "store_bad_hash"
        assert "is not a model fingerprint (8 or 16 of the characters 0-9 and a-f)" in str(refused.value)
        assert len(str(refused.value)) < 200
    assert files(store.folder) == before
    after = outside.stat()
    assert (after.st_mtime, after.st_atime) == (outside_before.st_mtime, outside_before.st_atime) == (1e9, 1e9)


def test_a_symbolic_link_in_the_store_is_never_followed(tmp_path):
    store, model = ModelStore(tmp_path / "store"), tiny(1)
    key = fingerprint(model)
    store.folder.mkdir()
    outside = tmp_path / "elsewhere.safetensors"
    data = save_checkpoint(model)
    outside.write_bytes(data)  # a good checkpoint of exactly that model, outside the folder
    os.utime(outside, (1_000_000_000, 1_000_000_000))
    (store.folder / f"{key}.safetensors").symlink_to(outside)
    assert store.open(key) is None and store.entries() == []  # not an entry: nothing is read through it
    entry, new = store.publish(model)  # the link is replaced by a file of the store; its target is untouched
    assert new and not (store.folder / f"{key}.safetensors").is_symlink()
    assert (outside.stat().st_mtime, outside.stat().st_atime) == (1e9, 1e9)  # never opened, never marked
    assert outside.read_bytes() == data
    assert fingerprint(store.open(key)[0]) == key


def _pickle_bytes() -> bytes:
    class Boom:
        def __reduce__(self):
            return (os.system, ("touch /tmp/store-pickle-ran",))

    return pickle.dumps({"weights": Boom()})


DAMAGE = {
    "truncated": lambda data: data[: len(data) // 2],
    "a pickle renamed": lambda data: _pickle_bytes(),
    "another model's weights": lambda data: save_checkpoint(tiny(7)),
    "empty": lambda data: b"",
}


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_a_damaged_file_is_refused_with_a_message_and_never_served_again(tmp_path, damage):
    store, model = ModelStore(tmp_path / "store"), tiny(1)
    key = fingerprint(model)
    store.publish(model)
    path = store.folder / f"{key}.safetensors"
    path.write_bytes(DAMAGE[damage](path.read_bytes()))
    with pytest.raises(StoreError) as refused:
        store.open(key)
    message = str(refused.value)
    assert message.startswith(f"the published model {key} is damaged (")
    assert "it was set aside and will not be opened again" in message
    if damage == "another model's weights":
        assert "its weights do not match the fingerprint it is stored under" in message
    assert not Path("/tmp/store-pickle-ran").exists()
    assert store.open(key) is None and store.find(key) is None and store.entries() == []  # not served again
    assert len(store.damaged()) == 1
    entry, new = store.publish(model)  # published again: a good copy, served
    assert new and fingerprint(store.open(key)[0]) == key
    set_aside = store.damaged()[0]
    assert set_aside.startswith(f"{key}-") and set_aside.endswith(".damaged")
    assert store.prune().removed == [f"{set_aside} (damaged, set aside)"] and store.damaged() == []


def test_publishing_over_a_damaged_copy_replaces_it(tmp_path):
    store, model = ModelStore(tmp_path / "store"), tiny(1)
    key = fingerprint(model)
    store.publish(model)
    (store.folder / f"{key}.safetensors").write_bytes(b"garbage")
    entry, new = store.publish(model)
    assert new and fingerprint(store.open(key)[0]) == key and len(store.damaged()) == 1


def test_the_least_recently_opened_model_is_evicted_first_and_never_one_opened_within_the_hour(tmp_path):
    store = ModelStore(tmp_path, max_models=3)
    a, b, c, d, e, f = (fingerprint(tiny(seed)) for seed in range(1, 7))
    for seed in (1, 2, 3):
        store.publish(tiny(seed))
    opened_ago(store, a, 5 * HOUR)
    opened_ago(store, b, 3 * HOUR)
    opened_ago(store, c, 2 * HOUR)
    store.open(a)  # opened now: no longer the least recently opened
    store.publish(tiny(4))
    assert {x.hash for x in store.entries()} == {a, c, d}  # b went: opened 3 hours ago, before c
    store.publish(tiny(5))
    assert {x.hash for x in store.entries()} == {a, d, e}  # then c
    with pytest.raises(StoreError) as full:  # a, d and e were all opened within the hour
        store.publish(tiny(6))
    assert full.value.code == "store_full"
    assert str(full.value).startswith("the model store is full (3 models, ")
    assert "every model in it was opened within the last hour" in str(full.value)
    assert {x.hash for x in store.entries()} == {a, d, e} and store.find(f) is None
    opened_ago(store, d, HOUR + 60)  # just over the hour: d may go now
    store.publish(tiny(6))
    assert {x.hash for x in store.entries()} == {a, e, f}


def test_the_byte_quota_evicts_and_a_model_larger_than_the_store_is_refused(tmp_path):
    size = len(save_checkpoint(tiny(1)))
    store = ModelStore(tmp_path, max_bytes=int(size * 2.5))
    first, second = fingerprint(tiny(1)), fingerprint(tiny(2))
    store.publish(tiny(1))
    store.publish(tiny(2))
    opened_ago(store, first, 2 * HOUR)
    opened_ago(store, second, 3 * HOUR)
    store.publish(tiny(3))
    assert {x.hash for x in store.entries()} == {first, fingerprint(tiny(3))}
    small = ModelStore(tmp_path / "small", max_bytes=size - 1)
    with pytest.raises(StoreError) as refused:
        small.publish(tiny(1))
    assert refused.value.code == "store_model_too_large"
    assert str(refused.value) == (
        f"this model's checkpoint is {size:,} bytes, more than the {size - 1:,} the model store takes: it cannot be "
        "published. Download it from the Train page and share the file instead."
    )
    assert not small.folder.exists()


def test_prune_brings_the_store_within_its_limits_and_clears_leftovers(tmp_path):
    store = ModelStore(tmp_path)
    keys = [store.publish(tiny(seed))[0].hash for seed in (1, 2, 3)]
    for key, hours in zip(keys, (4, 2, 0)):
        opened_ago(store, key, hours * HOUR)
    (tmp_path / ".partial-0123-x.safetensors").write_bytes(b"half")
    os.utime(tmp_path / ".partial-0123-x.safetensors", (time.time() - 2 * HOUR,) * 2)
    (tmp_path / ".partial-4567-y.safetensors").write_bytes(b"being written")  # young: perhaps still being written
    (tmp_path / f"{'f' * 16}.json").write_text("{}")
    assert sorted(store.prune().removed) == [  # within its limits: only leftovers go
        ".partial-0123-x.safetensors (an unfinished write)",
        f"{'f' * 16}.json (metadata without a model)",
    ]
    assert sorted(files(tmp_path)) == sorted(
        [f"{k}.safetensors" for k in keys] + [f"{k}.json" for k in keys] + [".partial-4567-y.safetensors"]
    )
    tight = ModelStore(tmp_path, max_models=1)
    removed = tight.prune().removed
    assert [line.split()[0] for line in removed] == keys[:2]  # the oldest first; the one opened now stays
    assert [x.hash for x in tight.entries()] == keys[2:]


def test_a_write_that_fails_halfway_leaves_no_entry_and_no_partial_file(tmp_path, monkeypatch):
    store, model = ModelStore(tmp_path / "store"), tiny(1)

    def disk_full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(StoreError) as refused:
        store.publish(model)
    assert refused.value.code == "store_unusable"
    assert str(refused.value).startswith(f"cannot write to the model store at {store.folder} (No space left on device)")
    monkeypatch.undo()
    assert store.entries() == [] and store.open(fingerprint(model)) is None
    assert not [name for name in files(store.folder) if name.endswith(".safetensors")]


def test_the_folder_follows_the_environment_and_the_limits_are_checked():
    assert default_folder({"PLAYGROUND_MODEL_STORE": "/srv/models"}) == Path("/srv/models")
    assert default_folder({"XDG_CACHE_HOME": "/c"}) == Path("/c/transformer-playground/models")
    home = Path.home() / ".cache" / "transformer-playground" / "models"
    assert default_folder({"XDG_CACHE_HOME": "relative/cache"}) == home  # XDG: a relative path is ignored
    assert default_folder({}) == home
    store = ModelStore.from_env({"PLAYGROUND_MODEL_STORE_BYTES": "5_000", "PLAYGROUND_MODEL_STORE_MODELS": "3"})
    assert (store.max_bytes, store.max_models) == (5000, 3)
    for bad in ("0", "-1", "lots", "1e9", "9" * 5000):
        with pytest.raises(StoreError, match="PLAYGROUND_MODEL_STORE_MODELS must be a whole number of at least 1"):
            ModelStore.from_env({"PLAYGROUND_MODEL_STORE_MODELS": bad})


# ---------------------------------------------------------------- processes at once


def _publish_in_child(folder: str, data: bytes, barrier, results) -> None:
    translator = load_checkpoint(data)
    barrier.wait()
    try:
        entry, new = ModelStore(folder).publish(translator, "from a child")
        results.put(("published", entry.hash, new))
    except Exception as exc:  # reported, so the test says what went wrong
        results.put(("error", repr(exc), False))


def _read_in_child(folder: str, keys: list[str], barrier, results) -> None:
    store, seen, deadline = ModelStore(folder), set(), time.monotonic() + 60
    barrier.wait()
    while len(seen) < len(keys) and time.monotonic() < deadline:
        for key in keys:
            try:
                found = store.open(key)
            except Exception as exc:  # a half-written or damaged file would land here
                results.put(("error", repr(exc), False))
                return
            if found is not None:
                if fingerprint(found[0]) != key:
                    results.put(("error", f"{key} opened another model", False))
                    return
                seen.add(key)
    results.put(("read", sorted(seen), True))


def test_processes_publishing_different_and_the_same_models_at_once_while_another_reads(tmp_path):
    context = multiprocessing.get_context("forkserver")  # the training processes' fork server: torch is loaded
    models = [tiny(1), tiny(2)]
    keys = [fingerprint(m) for m in models]
    data = [save_checkpoint(m) for m in models]
    folder = str(tmp_path / "store")
    barrier, results = context.Barrier(5), context.Queue()
    children = [
        context.Process(target=_publish_in_child, args=(folder, data[i % 2], barrier, results)) for i in range(4)
    ]
    children.append(context.Process(target=_read_in_child, args=(folder, keys, barrier, results)))
    for child in children:
        child.start()
    outcomes = [results.get(timeout=120) for _ in children]
    for child in children:
        child.join(timeout=30)
    assert not [o for o in outcomes if o[0] == "error"], outcomes
    published = sorted((key, new) for kind, key, new in outcomes if kind == "published")
    assert [key for key, _ in published] == sorted(keys * 2)
    assert sorted(new for _, new in published) == [False, False, True, True]  # each model stored once
    assert ("read", sorted(keys), True) in outcomes  # the reader opened both, and never a half-written file
    store = ModelStore(folder)
    assert sorted(e.hash for e in store.entries()) == sorted(keys)
    assert sorted(files(Path(folder))) == sorted([f"{k}.safetensors" for k in keys] + [f"{k}.json" for k in keys])
    assert store.damaged() == []


# ---------------------------------------------------------------- the command line


@pytest.fixture
def cli_store(tmp_path, monkeypatch) -> ModelStore:
    monkeypatch.setenv("PLAYGROUND_MODEL_STORE", str(tmp_path / "store"))
    return ModelStore.from_env()


def test_store_list_shows_every_model_with_its_name_as_text(cli_store, capsys):
    key = cli_store.publish(tiny(1), "lesson \x1b[31mred\x1b[0m")[0].hash
    assert main(["store", "list"]) == 0
    out = capsys.readouterr().out
    assert f"{cli_store.folder}: 1 models of at most 200, " in out
    line = next(line for line in out.splitlines() if line.startswith(key))
    assert "published " + time.strftime("%Y-%m-%d", time.gmtime()) in line
    assert line.endswith("lesson \\x1b[31mred\\x1b[0m") and "\x1b" not in out


def test_store_remove_deletes_one_model_and_refuses_bad_or_unknown_hashes_in_one_line(cli_store, capsys):
    key = cli_store.publish(tiny(1), "mine")[0].hash
    for bad, message in (
        ("../x", "error: “../x” is not a model fingerprint (8 or 16 of the characters 0-9 and a-f)"),
        ("0" * 16, f"error: there is no model {'0' * 16} in the model store at {cli_store.folder}"),
    ):
        assert main(["store", "remove", bad]) == 2
        err = capsys.readouterr().err
        assert err.startswith(message) and err.count("\n") == 1
    assert main(["store", "remove", key[:8]]) == 0
    assert capsys.readouterr().out.startswith(f"removed {key} (")
    assert cli_store.entries() == []


def test_store_prune_says_what_it_removed(cli_store, capsys, monkeypatch):
    keys = [cli_store.publish(tiny(seed))[0].hash for seed in (1, 2)]
    opened_ago(cli_store, keys[0], 2 * HOUR)
    monkeypatch.setenv("PLAYGROUND_MODEL_STORE_MODELS", "1")
    assert main(["store", "prune"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"removed {keys[0]} (least recently opened, ")
    assert out[1].startswith(f"{cli_store.folder}: 1 models of at most 1, ")
    monkeypatch.setenv("PLAYGROUND_MODEL_STORE_MODELS", "none")
    assert main(["store", "list"]) == 2
    assert capsys.readouterr().err == (
        "error: PLAYGROUND_MODEL_STORE_MODELS must be a whole number of at least 1, got 'none'.\n"
    )


# ---------------------------------------------------------------- what the store did not make, and what it cannot do


def test_folders_and_sockets_in_the_store_are_reported_and_left_alone_and_prune_still_evicts(
    cli_store, capsys, monkeypatch
):
    keys = [cli_store.publish(tiny(seed))[0].hash for seed in (1, 2)]
    opened_ago(cli_store, keys[0], 2 * HOUR)
    folder = cli_store.folder
    strays = ["0123456789abcdef.safetensors", f"{'e' * 16}.json", "0123-1.damaged", ".partial-old-x.safetensors"]
    for name in strays:
        (folder / name).mkdir()
        (folder / name / "kept.txt").write_text("someone's")
    os.utime(folder / ".partial-old-x.safetensors", (time.time() - 2 * HOUR,) * 2)
    os.mkfifo(folder / "pipe.damaged")
    monkeypatch.chdir(folder)  # a socket's path must be short: bound by its name in the folder
    with socket.socket(socket.AF_UNIX) as sock:
        sock.bind("listening.safetensors")
        monkeypatch.setenv("PLAYGROUND_MODEL_STORE_MODELS", "1")
        assert main(["store", "prune"]) == 0
        out, err = capsys.readouterr()
        assert main(["store", "list"]) == 0
        listed = capsys.readouterr().out
    left = [
        "left 0123-1.damaged (a folder) as it is",
        "left 0123456789abcdef.safetensors (a folder) as it is",
        "left .partial-old-x.safetensors (a folder) as it is",
        f"left {'e' * 16}.json (a folder) as it is",
        "left listening.safetensors (a socket) as it is",
        "left pipe.damaged (a named pipe) as it is",
    ]
    assert err == "" and "cannot write" not in out
    assert out.splitlines()[0].startswith(f"removed {keys[0]} (least recently opened, ")  # eviction still ran
    for text in (out, listed):
        assert [line for line in left if line in text] == left
    assert "not a file the store made; move it out of the folder" in listed
    assert all((folder / name / "kept.txt").read_text() == "someone's" for name in strays)
    assert [e.hash for e in cli_store.entries()] == keys[1:] and cli_store.damaged() == []

    blocked = fingerprint(tiny(3))  # a folder where a model's file goes: publishing it says so
    (folder / f"{blocked}.safetensors").mkdir()
    with pytest.raises(StoreError) as refused:
        ModelStore(folder, max_models=5).publish(tiny(3))
    assert refused.value.code == "store_blocked"
    assert str(refused.value) == (
        f"{blocked}.safetensors in the model store at {folder} is a folder, where the store keeps a file: whoever "
        "runs the server should move it out of that folder."
    )
    (folder / ".lock").unlink()
    (folder / ".lock").mkdir()
    with pytest.raises(StoreError, match=r"^\.lock in the model store at .* is a folder, where the store keeps"):
        cli_store.prune()


def test_prune_says_what_the_one_hour_guard_kept_and_exits_1_while_the_store_is_over_its_limits(
    cli_store, capsys, monkeypatch
):
    keys = [cli_store.publish(tiny(seed), f"model {seed}")[0].hash for seed in (1, 2, 3)]
    for key, minutes in zip(keys, (50, 30, 10)):
        opened_ago(cli_store, key, minutes * 60)
    monkeypatch.setenv("PLAYGROUND_MODEL_STORE_MODELS", "1")
    assert main(["store", "prune"]) == 1
    out, err = capsys.readouterr()
    lines = out.splitlines()
    assert [line.split(" (")[0] for line in lines[:2]] == [f"kept {keys[0]}", f"kept {keys[1]}"]  # oldest first
    assert lines[0].endswith(", within the hour; " + f"{cli_store.entries()[0].size:,} bytes) model 1")
    assert "nothing to remove" not in out and lines[2].startswith(f"{cli_store.folder}: 3 models of at most 1, ")
    again = time.strftime("%Y-%m-%d %H:%M", time.localtime(cli_store.find(keys[1]).opened + HOUR + 60))
    assert err.startswith("prune: the model store is still over its limits (3 models, ")
    assert err.endswith(
        "at most 1 models and 1,000,000,000 bytes): the 2 models above were opened within the last hour, and prune "
        f"never removes such a model. Run it again after {again}, or raise PLAYGROUND_MODEL_STORE_MODELS or "
        "PLAYGROUND_MODEL_STORE_BYTES.\n"
    )
    assert sorted(e.hash for e in cli_store.entries()) == sorted(keys)  # the guard holds
    opened_ago(cli_store, keys[0], 2 * HOUR)
    assert main(["store", "prune"]) == 1  # one could go; the other is still kept
    out, err = capsys.readouterr()
    assert out.startswith(f"removed {keys[0]} (") and f"kept {keys[1]}" in out and "the model above was" in err
    monkeypatch.setenv("PLAYGROUND_MODEL_STORE_MODELS", "2")
    assert main(["store", "prune"]) == 0  # within its limits: nothing kept, nothing said on stderr
    out, err = capsys.readouterr()
    assert err == "" and out.startswith(f"nothing to remove\n{cli_store.folder}: 2 models of at most 2, ")


READ_ONLY = ["chmod", "read-only file system"]


def _chmod_does_not_stop(tmp_path: Path) -> bool:
    """Whether this user writes in a folder whose mode forbids it (root, unless its DAC capabilities are dropped)."""
    probe = tmp_path / "probe"
    probe.mkdir(mode=0o555)
    try:
        (probe / "x").touch()
    except PermissionError:
        return False
    finally:
        probe.chmod(0o755)
    return True


@pytest.mark.parametrize("how", READ_ONLY)
def test_a_damaged_model_in_a_read_only_store_is_refused_as_damaged_and_not_read_again(tmp_path, monkeypatch, how):
    if how == "chmod" and _chmod_does_not_stop(tmp_path):
        pytest.skip("root may write anywhere: the read-only file system case makes the rename fail for root")
    store, model = ModelStore(tmp_path / "store"), tiny(1)
    key = fingerprint(model)
    store.publish(model)
    path = store.folder / f"{key}.safetensors"
    path.write_bytes(path.read_bytes()[:1000])  # truncated
    reads = []
    monkeypatch.setattr(checkpoint, "load_checkpoint", lambda data: reads.append(1) or load_checkpoint(data))
    reason = os.strerror(errno.EACCES if how == "chmod" else errno.EROFS)

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, reason)

    with monkeypatch.context() as read_only_store:
        if how == "chmod":
            store.folder.chmod(0o555)
        else:
            read_only_store.setattr(os, "replace", read_only)  # as on a file system mounted read-only
        try:
            for visit in range(3):
                with pytest.raises(StoreError) as refused:
                    store.open(key)
                assert refused.value.code == "store_damaged_unmoved", visit
                assert str(refused.value).startswith(f"the published model {key} is damaged (")
                assert str(refused.value).endswith(
                    f"and the model store would not let it be set aside ({reason}): it will not be opened, and "
                    f"whoever runs the server should delete {key}.safetensors from the store."
                )
            assert reads == [1]  # read once; remembered for this process
        finally:
            store.folder.chmod(0o755)
    with pytest.raises(StoreError) as refused:  # the store can be written again: set aside, still without a read
        store.open(key)
    assert refused.value.code == "store_damaged" and reads == [1]
    assert store.open(key) is None and len(store.damaged()) == 1
    path.write_bytes(b"another file since")  # a new file under that name is read
    with pytest.raises(StoreError):
        store.open(key)
    assert reads == [1, 1]


def test_the_same_model_published_under_the_same_name_gives_the_same_bytes(tmp_path, monkeypatch):
    first, second = ModelStore(tmp_path / "first"), ModelStore(tmp_path / "second")
    key = first.publish(tiny(1), "Lesson 3")[0].hash
    real_gmtime, real_time = time.gmtime, time.time
    monkeypatch.setattr(time, "time", lambda: real_time() + 86_400)  # published a day later
    monkeypatch.setattr(time, "gmtime", lambda secs=None: real_gmtime(real_time() + 86_400 if secs is None else secs))
    entry, new = second.publish(tiny(1), "Lesson 3")
    monkeypatch.undo()
    assert new and entry.hash == key
    for name in (f"{key}.safetensors", f"{key}.json"):
        assert (first.folder / name).read_bytes() == (second.folder / name).read_bytes(), name
    assert save_checkpoint(tiny(1)) == save_checkpoint(tiny(1))  # a download from the Train page too
    assert first.find(key).published_date == time.strftime("%Y-%m-%d", time.gmtime())  # HASH.json's time
