"""Where the importer reads a round: one small "list files / read bytes" interface with two
implementations, a bare git directory at HEAD (one long-lived `git cat-file --batch`) and a plain
folder such as a clone (commit facts from git when it is a work tree). Nothing is written."""

from __future__ import annotations

import hashlib
import re
import subprocess
from pathlib import Path
from typing import IO

ROUND_RE = re.compile(r"(?:^|[_+-])(v\d+\.\d+)$")


class GitSource:
    """A bare git directory read at HEAD; one long-lived `git cat-file --batch`."""

    def __init__(self, git_dir: Path):
        self.git_dir = str(git_dir)
        self.commit = self._git("rev-parse", "HEAD").strip()
        self.commit_date = self._git("log", "-1", "--format=%cs", self.commit).strip()
        self.blobs = self._tree()
        self.batch = subprocess.Popen(
            ["git", "--git-dir", self.git_dir, "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def _git(self, *args: str) -> str:
        return subprocess.run(
            ["git", "--git-dir", self.git_dir, *args], check=True, capture_output=True
        ).stdout.decode("utf-8", "replace")

    def _tree(self) -> dict[str, str]:
        out = subprocess.run(
            ["git", "--git-dir", self.git_dir, "ls-tree", "-r", "-z", self.commit],
            check=True,
            capture_output=True,
        ).stdout
        entries = (line.split(b"\t", 1) for line in out.split(b"\0") if line)
        return {
            path.decode("utf-8", "replace"): meta.split()[2].decode()
            for meta, path in entries
            if meta.split()[1] == b"blob"
        }

    def files(self) -> list[str]:
        return sorted(self.blobs)

    def lacking(self) -> int:
        return 0  # a commit's tree is the round whole

    def digest(self, path: str) -> str:
        return self.blobs[path]

    def read(self, path: str) -> bytes | None:
        """The file's bytes; None when the snapshot lacks the blob."""
        send, receive = self._pipes()
        send.write(self.blobs[path].encode() + b"\n")
        send.flush()
        header = receive.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            return None
        data = receive.read(int(header[2]))
        receive.read(1)
        return data

    def _pipes(self) -> tuple[IO[bytes], IO[bytes]]:
        """The batch process's input and output (both opened as pipes in __init__)."""
        assert self.batch.stdin is not None and self.batch.stdout is not None
        return self.batch.stdin, self.batch.stdout

    def close(self) -> None:
        self._pipes()[0].close()
        self.batch.wait()


class FolderSource:
    """A plain folder (for example a clone); commit facts from git when it is a work tree."""

    def __init__(self, root: Path):
        self.root = root
        self.paths = sorted(
            p.relative_to(root).as_posix()
            for p in root.rglob("*")
            if p.is_file() and ".git" not in p.relative_to(root).parts
        )
        self.commit, self.commit_date = self._head()

    def _head(self) -> tuple[str | None, str | None]:
        run = subprocess.run(
            ["git", "-C", str(self.root), "log", "-1", "--format=%H %cs"], capture_output=True, text=True
        )
        parts = run.stdout.split() if run.returncode == 0 else []
        return (parts[0], parts[1]) if len(parts) == 2 else (None, None)

    def files(self) -> list[str]:
        return self.paths

    def lacking(self) -> int:
        """How many files of its git commit this work tree lacks (deleted, or left out by a
        sparse checkout): a clone that does not hold its round whole. 0 outside git."""
        found = 0
        for args, keep in ((["--deleted"], None), (["-t"], "S ")):
            run = subprocess.run(["git", "-C", str(self.root), "ls-files", "-z", *args], capture_output=True)
            names = [n for n in run.stdout.split(b"\0") if n] if run.returncode == 0 else []
            found += sum(1 for n in names if keep is None or n.startswith(keep.encode()))
        return found

    def digest(self, path: str) -> str:
        data = self.read(path)
        if data is None:
            return "missing:" + path
        return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()  # git's blob id

    def read(self, path: str) -> bytes | None:
        try:
            return (self.root / path).read_bytes()
        except OSError:
            return None

    def close(self) -> None:
        pass


def open_source(path: Path):
    if (path / "HEAD").is_file() and (path / "objects").is_dir():
        return GitSource(path)
    return FolderSource(path)


def round_of(path: Path) -> str | None:
    for part in reversed(path.resolve().parts):
        if match := ROUND_RE.search(part):
            return match.group(1)
    return None
