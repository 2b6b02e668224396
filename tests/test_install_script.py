"""tools/install-test-packages.sh, run against a stand-in apt-get that records its calls."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "tools" / "install-test-packages.sh"


def _stand_ins(bin_dir: Path, log: Path) -> None:
    """A PATH holding only what the script runs, curl and the rest missing from it, with an
    apt-get that writes its arguments down and a sudo that runs what it is given."""
    bin_dir.mkdir()
    for tool in ("env", "id"):
        found = shutil.which(tool)
        assert found, tool
        (bin_dir / tool).symlink_to(found)
    (bin_dir / "apt-get").write_text(f'#!/bin/sh\necho "$*" >> {log}\n')
    (bin_dir / "sudo").write_text('#!/bin/sh\nexec "$@"\n')
    for name in ("apt-get", "sudo"):
        (bin_dir / name).chmod(0o755)


def test_the_install_waits_a_bounded_time_for_another_apt_to_let_go_of_the_lock(
    tmp_path: Path,
) -> None:
    log = tmp_path / "apt-get.log"
    _stand_ins(tmp_path / "bin", log)
    bash = shutil.which("bash")
    assert bash
    done = subprocess.run(
        [bash, str(SCRIPT)],
        env={**os.environ, "PATH": str(tmp_path / "bin")},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    calls = log.read_text().splitlines()
    assert len(calls) == 2 and " update " in calls[0] and " install " in calls[1], calls
    for call in calls:  # both the update and the install wait, at most ten minutes
        assert "-o DPkg::Lock::Timeout=600" in call, call
    assert "curl" in calls[1].split()
