#!/usr/bin/env bash
# Debian packages the full test suite drives: nginx (the sidecar tests), chromium (the
# referee's page), curl, jq and openssl (the README walkthroughs), and wrk, the load
# generator of `make bench` and `make load`. Installs only what is missing; `make test`
# skips those tests with a hint when they are absent (fails under CI=1).
set -euo pipefail
missing=""
[ -x /usr/sbin/nginx ] || command -v nginx >/dev/null 2>&1 || missing="$missing nginx"
[ -x /usr/bin/chromium ] || missing="$missing chromium"
for tool in curl jq openssl wrk; do command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"; done
[ -n "$missing" ] || exit 0
# Another apt (an unattended upgrade, a second worktree's install) may hold the dpkg lock:
# wait for it, up to ten minutes, rather than fail at once.
lock_wait="-o DPkg::Lock::Timeout=600"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
# shellcheck disable=SC2086
$sudo env DEBIAN_FRONTEND=noninteractive apt-get $lock_wait update -qq
# shellcheck disable=SC2086
$sudo env DEBIAN_FRONTEND=noninteractive apt-get $lock_wait install -y -qq --no-install-recommends $missing >/dev/null
