#!/usr/bin/env bash
# One-shot set-up on a fresh Debian machine: system packages, a venv, Python dependencies.
# Idempotent: re-running only installs what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

need_apt=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need_apt+=(chromium)
# the old headless shell: what the scripted checks run on (over twice as fast as full Chromium)
[ -x /usr/bin/chromium-headless-shell ] || need_apt+=(chromium-headless-shell)
command -v bwrap >/dev/null 2>&1 || need_apt+=(bubblewrap)
# a sandbox without a network that still looks online to a browser (``asuka.deploy.sandbox``)
command -v capsh >/dev/null 2>&1 || [ -x /usr/sbin/capsh ] || need_apt+=(libcap2-bin)
command -v ip >/dev/null 2>&1 || [ -x /usr/sbin/ip ] || need_apt+=(iproute2)
command -v node >/dev/null 2>&1 || need_apt+=(nodejs npm)
if [ ${#need_apt[@]} -gt 0 ]; then
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "setup: installing ${need_apt[*]} from Debian"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
fi
stamp=.venv/.asuka-installed
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/pip install -q --upgrade pip
  .venv/bin/pip install -q -e '.[test]'
  touch "$stamp"
fi
