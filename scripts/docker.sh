#!/usr/bin/env bash
# A Docker engine for the tests, when the machine can have one: Debian's docker.io, its daemon
# started with no bridge and no iptables (containers get --network none or host, never a
# private-range network), and the images the tests use built here from nothing pulled.
# Best effort: without an engine the Docker tests are skipped with the reason.
set -uo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"

engine_up() { "$PY" -c "import docker; docker.from_env().ping()" >/dev/null 2>&1; }

if ! engine_up; then
  if ! command -v dockerd >/dev/null 2>&1; then
    echo "docker: installing docker.io from Debian"
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
      $SUDO apt-get install -y -qq docker.io >/dev/null || { echo "docker: not installed"; exit 0; }
  fi
  echo "docker: starting dockerd --bridge=none --iptables=false --ip6tables=false"
  $SUDO sh -c 'nohup dockerd --bridge=none --iptables=false --ip6tables=false \
    >/tmp/asuka-dockerd.log 2>&1 &'
  for _ in $(seq 60); do engine_up && break; sleep 0.5; done
  engine_up || { echo "docker: the daemon did not answer (see /tmp/asuka-dockerd.log)"; exit 0; }
fi
"$PY" -m asuka.deploy.docker_image || true
"$PY" -m asuka.codeagents.images codex || true
