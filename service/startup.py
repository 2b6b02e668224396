"""Settings the service cannot start with: one error, whose text is one line.

A setting read at start that cannot be used (a folder that is a file or read-only, a key
file that is missing or malformed, a port that is no port...) raises ``StartupError``:
its text names the setting, says what is wrong and what to do, and never quotes key
material. ``create_app`` raises it, and so do the server settings in
deploy/gunicorn.conf.py. Under gunicorn the master builds the app before any worker
(preload) and checks its own settings as it starts; gunicorn prints an error of this
kind as ``Error: <the line>`` and exits with status 1, with no traceback.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path


class StartupError(RuntimeError):
    """A setting the service cannot start with. ``str()`` is one line:
    ``<SETTING>: <what is wrong>; <what to do>``."""

    def __init__(self, setting: str, problem: str, remedy: str) -> None:
        self.setting = setting
        self.problem = problem
        self.remedy = remedy
        # One line whatever the parts hold (an OS message, a path with a newline in it).
        super().__init__(" ".join(f"{setting}: {problem}; {remedy}".split()))


def quoted(value: object) -> str:
    """A value as the message shows it: quoted, control characters escaped."""
    return repr(str(value))


def why(error: OSError) -> str:
    """Why the OS refused, in the words of the start-up messages."""
    if error.errno == errno.EROFS:
        return "the file system is read-only"
    if error.errno in (errno.EACCES, errno.EPERM):
        return f"permission denied to this process (uid {os.geteuid()})"
    if error.errno == errno.ENOTDIR:
        return "a part of its path is a file"
    if error.errno == errno.ENOSPC:
        return "no space is left on the device"
    return str(error.strerror or error)


def writable_folder(setting: str, path: str | Path, remedy: str, mode: int = 0o777) -> Path:
    """``path`` as a folder this process can write files in, made (with ``mode``) if it is
    missing. A file is written there and removed: permission bits alone do not say whether
    a process may write (root ignores them; a read-only mount refuses everyone)."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise StartupError(setting, f"{quoted(folder)} is a file, not a folder", remedy)
    try:
        folder.mkdir(mode=mode, parents=True, exist_ok=True)
    except OSError as error:
        problem = f"{quoted(folder)} does not exist and cannot be made: {why(error)}"
        raise StartupError(setting, problem, remedy) from None
    try:
        descriptor, probe = tempfile.mkstemp(prefix=".write-test-", dir=folder)
        os.close(descriptor)
        os.unlink(probe)
    except OSError as error:
        raise StartupError(
            setting, f"{quoted(folder)} is not writable: {why(error)}", remedy
        ) from None
    return folder
