"""Published models: one folder of .safetensors files named by the model's fingerprint, shared by every app process.

An entry is two files: HASH.safetensors, written by checkpoint.save_checkpoint and read only through
checkpoint.load_checkpoint (which never unpickles), and HASH.json (its name and size). Both hold only what the model
and its name determine, so the same model published under the same name gives the same bytes anywhere; times live in
modification times: the model file's says when it was last opened, HASH.json's when it was published. Entries are
immutable: publishing a model that is there already stores nothing.

Every file is written under a temporary name in the folder, synced, then renamed into place, so a reader sees a whole
file or none. Publishing, evicting, removing and setting aside hold an exclusive lock on the folder's .lock file, so
two processes (on one machine, or on one shared volume) never make room or write an entry at the same time.

A hash is checked against a strict pattern before any file name is built from it; files are opened relative to the
folder and never through a symbolic link, so nothing outside the folder is read or written. A file the loader
refuses, or whose weights do not match the name it is stored under, is set aside (renamed HASH-TIME.damaged) and is
never served again; `prune` deletes it. In a store this process may not write, such a file cannot be set aside: it is
refused as damaged, and remembered (until it changes) so that this process does not read it again.

Names in the folder that are not regular files (a folder, a socket, a symbolic link) were not made by the store: they
are never entries, and are reported (`others`, `prune`) but never deleted.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import os
import re
import stat
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from .config import MAX_CHECKPOINT_BYTES
from .errors import CheckpointError, StoreError
from .store_files import (
    NO_FOLLOW,
    PARTIAL,
    NotAFile,
    Stuck,
    identity,
    non_file_kind,
    non_files,
    open_file,
    scan,
    sync,
    unlink_or_note,
    write_atomically,
)
from .text import visible

if TYPE_CHECKING:  # a model is loaded or saved only when one is opened or published: listing needs no torch
    from .translator import Translator

STORE_ENV = "PLAYGROUND_MODEL_STORE"  # the folder; default: the user's cache (honours XDG_CACHE_HOME)
MAX_BYTES_ENV = "PLAYGROUND_MODEL_STORE_BYTES"
MAX_MODELS_ENV = "PLAYGROUND_MODEL_STORE_MODELS"
DEFAULT_MAX_BYTES = 1_000_000_000  # about 1,300 models of the bundled model's size, or 20 of the largest
DEFAULT_MAX_MODELS = 200
KEEP_OPENED_SECONDS = 3600  # a model opened (or published) within the last hour is never evicted
HASH_DIGITS = 16  # hex digits of a fingerprint; links made before the store carry only the first 8
SHORT_DIGITS = 8
MAX_NAME_CHARS = 200  # longest name kept for a published model
MAX_META_BYTES = 4096  # largest HASH.json read

MODEL, META, DAMAGED = ".safetensors", ".json", ".damaged"
_LOCK = ".lock"
_FULL_HASH = re.compile(r"[0-9a-f]{16}")
_LINK_HASH = re.compile(r"[0-9a-f]{8}(?:[0-9a-f]{8})?")
MAX_UNMOVED = 1000  # damaged files remembered by one process
# (folder, hash) → (file identity, reason): damaged files that could not be set aside, not read again while unchanged
_UNMOVED: dict[tuple[str, str], tuple[tuple[int, ...], str]] = {}


def fingerprint(translator: Translator) -> str:
    """16 hex digits of the SHA-256 of the model's config, vocabularies, SentencePiece models (a Marian model's) and
    weights: any change changes it. Its first 8 digits are the fingerprint links carried before models could be
    published."""
    import torch

    digest = hashlib.sha256()
    digest.update(json.dumps(translator.config.to_dict(), sort_keys=True).encode())
    digest.update(json.dumps([translator.src_vocab.itos, translator.tgt_vocab.itos]).encode())
    for side in ("source_model", "target_model"):  # how text becomes pieces; other tokenizers have none
        if isinstance(model := getattr(translator.tokenizer, side, None), bytes):
            digest.update(side.encode() + len(model).to_bytes(8, "big") + model)
    for name, tensor in translator.model.state_dict().items():
        digest.update(name.encode())
        digest.update(tensor.detach().to("cpu", torch.float32).contiguous().numpy().tobytes())
    return digest.hexdigest()[:HASH_DIGITS]


def is_model_hash(text: object) -> bool:
    """Whether text is a fingerprint as links carry it: 8 or 16 of the characters 0-9 and a-f, nothing else."""
    return isinstance(text, str) and _LINK_HASH.fullmatch(text) is not None


def same_model(link_hash: str, full: str) -> bool:
    """Whether a link's fingerprint (16 digits, or the 8 of an older link) names the model whose fingerprint is full."""
    return is_model_hash(link_hash) and full.startswith(link_hash)


def default_folder(environ: Mapping[str, str] = os.environ) -> Path:
    """PLAYGROUND_MODEL_STORE, else transformer-playground/models in the user's cache folder."""
    if environ.get(STORE_ENV):
        return Path(environ[STORE_ENV]).expanduser()
    cache = environ.get("XDG_CACHE_HOME", "")
    base = Path(cache) if os.path.isabs(cache) else Path.home() / ".cache"  # XDG: a relative path is ignored
    return base / "transformer-playground" / "models"


def _limit(environ: Mapping[str, str], key: str, default: int) -> int:
    text = environ.get(key, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        shown = visible(text[:40])
        raise StoreError(f"{key} must be a whole number of at least 1, got {shown!r}.", "store_setting", setting=key)
    return value


@dataclass(frozen=True)
class Entry:
    """One published model: its fingerprint, file size, when it was last opened, when it was published, its name."""

    hash: str
    size: int  # bytes of HASH.safetensors
    opened: float  # last opened or published, in seconds since the epoch
    published: str = ""  # UTC time of publication, 2026-11-25T14:40:00Z ("" when its HASH.json is missing)
    name: str = ""

    @property
    def published_date(self) -> str:
        """The day it was published, 2026-11-25, or "" when unknown."""
        return self.published[:10]


@dataclass(frozen=True)
class PruneReport:
    """What prune did: files and models deleted, names left alone, and the models the one-hour guard kept."""

    removed: list[str]  # one line per file or model deleted
    left: list[str]  # one line per name that is not a regular file: reported, never deleted
    kept: list[Entry]  # models the limits would remove but that were opened within the hour, least recent first
    stuck: list[Stuck] = field(default_factory=list)  # files prune meant to delete and could not

    @property
    def over(self) -> bool:
        """Whether the store is still over its limits because of the one-hour guard."""
        return bool(self.kept)


class ModelStore:
    """The folder of published models, with its quota in bytes and in models."""

    def __init__(
        self, folder: str | Path, max_bytes: int = DEFAULT_MAX_BYTES, max_models: int = DEFAULT_MAX_MODELS
    ) -> None:
        self.folder = Path(os.path.abspath(Path(folder).expanduser()))
        self.max_bytes, self.max_models = max_bytes, max_models

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> ModelStore:
        """The store the environment names: PLAYGROUND_MODEL_STORE, _BYTES and _MODELS (each with a default)."""
        return cls(
            default_folder(environ),
            _limit(environ, MAX_BYTES_ENV, DEFAULT_MAX_BYTES),
            _limit(environ, MAX_MODELS_ENV, DEFAULT_MAX_MODELS),
        )

    # ------------------------------------------------------------ reading

    def entries(self) -> list[Entry]:
        """Every published model, in no particular order."""
        with self._folder() as dirfd:
            return [] if dirfd is None else self._entries(dirfd)

    def find(self, link_hash: str) -> Entry | None:
        """The entry a link's fingerprint names (16 digits, or 8 that start exactly one entry), or None."""
        _check(link_hash)
        with self._folder() as dirfd:
            return None if dirfd is None else self._find(dirfd, link_hash)

    def damaged(self) -> list[str]:
        """The names of files set aside as damaged (deleted by prune)."""
        with self._folder() as dirfd:
            found = {} if dirfd is None else scan(dirfd)
        return sorted(n for n, info in found.items() if n.endswith(DAMAGED) and stat.S_ISREG(info.st_mode))

    def others(self) -> list[str]:
        """One line per name in the folder that is not a regular file ("NAME (a folder)"): left alone, never deleted."""
        with self._folder() as dirfd:
            found = {} if dirfd is None else scan(dirfd)
        return non_files(found)

    def open(self, link_hash: str) -> tuple[Translator, Entry] | None:
        """The published model a link names and its entry, or None when it is not in the store; marks it opened.

        A file the loader refuses, or whose weights do not match its name, is set aside and refused with StoreError;
        where it cannot be set aside (a read-only store) it is refused, and not read again while it is unchanged.
        """
        _check(link_hash)
        with self._folder() as dirfd:
            if dirfd is None:
                return None
            entry = self._find(dirfd, link_hash)
            if entry is None:
                return None
            try:
                fd = open_file(dirfd, entry.hash + MODEL)
            except FileNotFoundError:  # removed since it was listed
                return None
            except NotAFile:
                self._damaged(dirfd, entry.hash, None, "it is not a regular file")
            except OSError as exc:
                if exc.errno != errno.ELOOP:  # a symbolic link put in its place
                    raise self._error("read", exc) from None
                self._damaged(dirfd, entry.hash, None, "it is a symbolic link")
            try:
                info = os.fstat(fd)
                known = _UNMOVED.get((str(self.folder), entry.hash))
                if known is not None and known[0] == identity(info):  # refused before and unchanged: not read again
                    self._damaged(dirfd, entry.hash, info, known[1])
                try:
                    translator = _load(fd, entry.hash)
                except CheckpointError as exc:
                    self._damaged(dirfd, entry.hash, info, str(exc))
                with suppress(OSError):  # another user's file on a shared volume: it just is not marked
                    os.utime(fd)
            except OSError as exc:
                raise self._error("read", exc) from None
            finally:
                os.close(fd)
            return translator, entry

    # ------------------------------------------------------------ writing

    def publish(self, translator: Translator, name: str = "") -> tuple[Entry, bool]:
        """Store the model (once: a model already there is kept as it is) and return its entry and whether it is new.

        A Marian model (opened, or trained further) is published as any other: its checkpoint holds its SentencePiece
        models. Refused with StoreError when its checkpoint is larger than the store takes, when the store is full of
        models opened within the last hour, or when a folder (or another non-file) takes one of its file names."""
        from .checkpoint import save_checkpoint
        from .checkpoint_spm import over_checkpoint_limits

        if (figures := over_checkpoint_limits(translator)) is not None:  # from its sizes: nothing saved
            raise StoreError(
                f"this model's weights are {figures['size']} bytes and its vocabulary {figures['vocab']} pieces, more "
                f"than a checkpoint of this app holds ({figures['limit']} bytes, {figures['vocab_limit']} pieces): it "
                "cannot be published. Save it as a Marian folder (python -m transformer train --from FOLDER --out "
                "NEW_FOLDER) and share the folder instead.",
                "store_model_not_a_checkpoint",
                **figures,
            )
        key = fingerprint(translator)
        data = save_checkpoint(translator)
        limit = min(MAX_CHECKPOINT_BYTES, self.max_bytes)
        if len(data) > limit:
            raise StoreError(
                f"this model's checkpoint is {len(data):,} bytes, more than the {limit:,} the model store takes: "
                "it cannot be published. Download it from the Train page and share the file instead.",
                "store_model_too_large",
                size=f"{len(data):,}",
                limit=f"{limit:,}",
            )
        name = " ".join(name.split())[:MAX_NAME_CHARS]  # kept as typed; shown through transformer.text
        try:
            with self._folder(create=True) as dirfd, self._locked(dirfd):
                existing = self._entry(dirfd, key)
                if existing is not None and self._intact(dirfd, key):
                    with suppress(OSError):  # published again: someone has it open now
                        os.utime(key + MODEL, dir_fd=dirfd, follow_symlinks=False)
                    return existing, False
                for taken in (key + META, key + MODEL):
                    _refuse_a_non_file(dirfd, taken, self.folder, symlink_ok=True)  # a link is replaced, not followed
                self._make_room(dirfd, len(data))
                meta = json.dumps({"name": name, "size": len(data)}, ensure_ascii=False, sort_keys=True)
                write_atomically(dirfd, key + META, meta.encode())  # its modification time is when it was published
                write_atomically(dirfd, key + MODEL, data)  # last: the entry exists from this rename on
                entry = self._entry(dirfd, key)
        except OSError as exc:
            raise self._error("write to", exc) from None
        if entry is None:
            raise StoreError(f"the model store at {self.folder} lost the model just written: try again.")
        return entry, True

    def remove(self, link_hash: str) -> Entry:
        """Delete one published model (even one opened recently), named by its 16 digits or 8 that start only it."""
        _check(link_hash)
        try:
            with self._folder() as dirfd:
                entry = None
                if dirfd is not None:
                    with self._locked(dirfd):
                        entry = self._find(dirfd, link_hash)
                        if entry is not None:
                            self._delete(dirfd, entry.hash)
        except OSError as exc:
            raise self._error("write to", exc) from None
        if entry is None:
            raise StoreError(
                f"there is no model {link_hash} in the model store at {self.folder} (8 digits must start exactly "
                "one model): `python -m transformer store list` shows what it holds.",
                "store_missing",
                hash=link_hash,
            )
        return entry

    def prune(self) -> PruneReport:
        """Delete damaged files, unfinished writes over an hour old and metadata without a model, then the least
        recently opened models (never one opened within the hour) until the store is within its limits.

        Names that are not regular files (a folder, a socket…) are reported and left alone. A file that cannot be
        deleted (immutable, another user's in a sticky folder) is named in the report with the reason, and prune goes
        on with the rest. The report also names the models the one-hour guard kept when the store is still over its
        limits."""
        removed: list[str] = []
        stuck: list[Stuck] = []
        try:
            with self._folder() as dirfd:
                if dirfd is None:
                    return PruneReport([], [], [])
                with self._locked(dirfd):
                    old = time.time() - KEEP_OPENED_SECONDS
                    found = scan(dirfd)
                    for name, info in found.items():
                        if not stat.S_ISREG(info.st_mode) or name == _LOCK:
                            continue  # not made by the store: reported below, never deleted
                        base, _, suffix = name.rpartition(".")
                        why = None
                        if name.endswith(DAMAGED):
                            why = "damaged, set aside"
                        elif name.startswith(PARTIAL) and info.st_mtime < old:
                            why = "an unfinished write"
                        elif f".{suffix}" == META and _FULL_HASH.fullmatch(base) and self._entry(dirfd, base) is None:
                            why = "metadata without a model"
                        if why and unlink_or_note(dirfd, name, why, stuck):
                            removed.append(f"{name} ({why})")
                    entries = sorted(self._entries(dirfd), key=lambda e: e.opened)
                    count, total = len(entries), sum(e.size for e in entries)
                    kept = []
                    for entry in entries:
                        if count <= self.max_models and total <= self.max_bytes:
                            break
                        if entry.opened > old:
                            kept.append(entry)  # opened within the hour: never removed, though the limits would
                        elif unlink_or_note(dirfd, entry.hash + MODEL, "least recently opened", stuck):  # gone now
                            line = f"{entry.hash} (least recently opened, {entry.size:,} bytes) {entry.name}"
                            removed.append(line.rstrip())
                            unlink_or_note(dirfd, entry.hash + META, "the metadata of a model removed", stuck)
                        count, total = count - 1, total - entry.size  # a stuck model is not replaced by another
                    sync(dirfd)
        except OSError as exc:
            raise self._error("write to", exc) from None
        return PruneReport(removed, non_files(found), kept, stuck)

    # ------------------------------------------------------------ inside

    @contextmanager
    def _folder(self, create: bool = False) -> Iterator[int | None]:
        """The folder opened as a directory (made first when create), or None when it does not exist."""
        try:
            if create:
                os.makedirs(self.folder, exist_ok=True)
            fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except FileNotFoundError:
            fd = None
        except OSError as exc:
            raise self._error("write to" if create else "read", exc) from None
        try:
            yield fd
        finally:
            if fd is not None:
                os.close(fd)

    @contextmanager
    def _locked(self, dirfd: int) -> Iterator[None]:
        """Hold the store's exclusive lock (every process that writes takes it)."""
        try:
            fd = os.open(_LOCK, os.O_RDONLY | os.O_CREAT | NO_FOLLOW, 0o644, dir_fd=dirfd)
        except OSError:
            _refuse_a_non_file(dirfd, _LOCK, self.folder)  # a folder or a link where the lock file goes
            raise
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield
        finally:
            os.close(fd)  # releases the lock

    def _error(self, doing: str, exc: OSError) -> StoreError:
        reason = exc.strerror or str(exc)
        return StoreError(
            f"cannot {doing} the model store at {self.folder} ({reason}): set {STORE_ENV} to a folder this user "
            "can write.",
            "store_unusable",
            folder=str(self.folder),
            reason=reason,
        )

    def _entries(self, dirfd: int) -> list[Entry]:
        found = (self._entry(dirfd, n[: -len(MODEL)]) for n in os.listdir(dirfd) if n.endswith(MODEL))
        return [e for e in found if e is not None]

    def _entry(self, dirfd: int, key: str) -> Entry | None:
        """The entry of a full fingerprint, or None (no such file, or not a regular file)."""
        if not _FULL_HASH.fullmatch(key):
            return None
        try:
            info = os.stat(key + MODEL, dir_fd=dirfd, follow_symlinks=False)
        except FileNotFoundError:
            return None
        if not stat.S_ISREG(info.st_mode):
            return None
        published, name = _read_meta(dirfd, key)
        return Entry(key, info.st_size, info.st_mtime, published, name)

    def _find(self, dirfd: int, link_hash: str) -> Entry | None:
        if len(link_hash) == HASH_DIGITS:
            return self._entry(dirfd, link_hash)
        matches = [e for e in self._entries(dirfd) if e.hash.startswith(link_hash)]
        return matches[0] if len(matches) == 1 else None

    def _intact(self, dirfd: int, key: str) -> bool:
        """Whether the stored file of key loads and has that fingerprint; if not, it is set aside (lock held)."""
        try:
            fd = open_file(dirfd, key + MODEL)
        except FileNotFoundError:
            return False
        except OSError:
            self._set_aside(dirfd, key, None)
            return False
        try:
            _load(fd, key)
        except CheckpointError:
            self._set_aside(dirfd, key, os.fstat(fd).st_ino)
            return False
        finally:
            os.close(fd)
        return True

    def _damaged(self, dirfd: int, key: str, info: os.stat_result | None, reason: str) -> NoReturn:
        """Set a damaged entry aside and refuse it; in a store this process may not write, refuse it and remember it."""
        try:
            with self._locked(dirfd):
                self._set_aside(dirfd, key, None if info is None else info.st_ino)
        except OSError as exc:
            why = exc.strerror or str(exc)
            if info is not None:
                if len(_UNMOVED) >= MAX_UNMOVED:
                    _UNMOVED.clear()
                _UNMOVED[(str(self.folder), key)] = (identity(info), reason)
            raise _damaged_unmoved(key, reason, why) from None
        _UNMOVED.pop((str(self.folder), key), None)
        raise StoreError(
            f"the published model {key} is damaged ({reason.rstrip('.')}); it was set aside and will not be opened "
            "again. Publish it again from a tab that has it.",
            "store_damaged",
            hash=key,
            reason=reason.rstrip("."),
        )

    @staticmethod
    def _set_aside(dirfd: int, key: str, inode: int | None) -> None:
        """Rename HASH.safetensors to HASH-TIME.damaged (lock held); not when it was replaced since it was read."""
        try:
            info = os.stat(key + MODEL, dir_fd=dirfd, follow_symlinks=False)
        except FileNotFoundError:
            return
        if inode is not None and info.st_ino != inode:
            return  # a good copy was published meanwhile
        os.replace(key + MODEL, f"{key}-{time.time_ns()}{DAMAGED}", src_dir_fd=dirfd, dst_dir_fd=dirfd)
        with suppress(FileNotFoundError):
            os.unlink(key + META, dir_fd=dirfd)
        sync(dirfd)

    def _make_room(self, dirfd: int, size: int) -> None:
        """Evict the least recently opened models (none opened within the hour) until one of size bytes fits."""
        entries = sorted(self._entries(dirfd), key=lambda e: e.opened)
        count, total = len(entries), sum(e.size for e in entries)
        recent = time.time() - KEEP_OPENED_SECONDS
        doomed = []
        for entry in entries:
            if count + 1 <= self.max_models and total + size <= self.max_bytes:
                break
            if entry.opened > recent:
                break  # this one and every later one were opened within the hour
            doomed.append(entry)
            count, total = count - 1, total - entry.size
        if count + 1 > self.max_models or total + size > self.max_bytes:
            raise StoreError(
                f"the model store is full ({count} models, {total:,} bytes; at most {self.max_models} models and "
                f"{self.max_bytes:,} bytes), and every model in it was opened within the last hour: try again later, "
                f"or ask whoever runs the server to remove models (python -m transformer store list, remove HASH) or "
                f"to raise {MAX_BYTES_ENV} or {MAX_MODELS_ENV}.",
                "store_full",
                count=count,
                total=f"{total:,}",
                max_models=self.max_models,
                max_bytes=f"{self.max_bytes:,}",
            )
        for entry in doomed:
            self._delete(dirfd, entry.hash)

    @staticmethod
    def _delete(dirfd: int, key: str) -> None:
        """Remove an entry: the model first (it is gone from then on), then its metadata."""
        for name in (key + MODEL, key + META):
            with suppress(FileNotFoundError):
                os.unlink(name, dir_fd=dirfd)
        sync(dirfd)


def _check(link_hash: object) -> None:
    """Refuse anything but 8 or 16 hex digits, before any file name is built from it."""
    if not is_model_hash(link_hash):
        text = str(link_hash)
        shown = visible(text[:40]) + ("…" if len(text) > 40 else "")
        raise StoreError(
            f"“{shown}” is not a model fingerprint (8 or 16 of the characters 0-9 and a-f): no model was looked up.",
            "store_bad_hash",
            text=shown,
        )


def _load(fd: int, key: str) -> Translator:
    """The model in an open store file, through the validating loader, checked to have the fingerprint key."""
    from .checkpoint import load_checkpoint

    chunks, size = [], 0
    while size <= MAX_CHECKPOINT_BYTES:
        chunk = os.read(fd, min(1 << 20, MAX_CHECKPOINT_BYTES + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    translator = load_checkpoint(b"".join(chunks))  # refuses more than MAX_CHECKPOINT_BYTES
    if fingerprint(translator) != key:
        raise CheckpointError("its weights do not match the fingerprint it is stored under")
    return translator


def _read_meta(dirfd: int, key: str) -> tuple[str, str]:
    """When the model was published (HASH.json's modification time, 2026-11-25T14:40:00Z) and its name, each "" when
    HASH.json is missing or malformed."""
    try:
        fd = open_file(dirfd, key + META)
    except OSError:
        return "", ""
    try:
        published = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(os.fstat(fd).st_mtime))
        data = os.read(fd, MAX_META_BYTES + 1)
    except OSError:
        return "", ""
    finally:
        os.close(fd)
    try:
        meta = json.loads(data.decode("utf-8")) if len(data) <= MAX_META_BYTES else None
    except (ValueError, RecursionError):
        return "", ""
    if not isinstance(meta, dict):
        return "", ""
    name = meta.get("name")
    return published, name[:MAX_NAME_CHARS] if isinstance(name, str) else ""


def _refuse_a_non_file(dirfd: int, name: str, folder: Path, symlink_ok: bool = False) -> None:
    """StoreError when name in the folder is there and is not a regular file (nor, when symlink_ok, a link)."""
    what = non_file_kind(dirfd, name)
    if what is None or (symlink_ok and what == "a symbolic link"):
        return
    raise StoreError(
        f"{name} in the model store at {folder} is {what}, where the store keeps a file: whoever runs the server "
        "should move it out of that folder.",
        "store_blocked",
        name=name,
        folder=str(folder),
    )


def _damaged_unmoved(key: str, reason: str, why: str) -> StoreError:
    """The refusal of a damaged model that could not be set aside (a store this process may not write)."""
    reason = reason.rstrip(".")
    return StoreError(
        f"the published model {key} is damaged ({reason}), and the model store would not let it be set aside ({why}): "
        f"it will not be opened, and whoever runs the server should delete {key}{MODEL} from the store.",
        "store_damaged_unmoved",
        hash=key,
        reason=reason,
        why=why,
    )
