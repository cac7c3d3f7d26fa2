#!/usr/bin/env bash
# Installs Debian's Chromium when it is missing (the demo and the end-to-end tests
# drive it). Needs root or sudo; does nothing when a Chromium is already there.
set -euo pipefail
for candidate in "${CHROMIUM_PATH:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
  if [ -n "$candidate" ] && [ -x "$candidate" ]; then
    echo "Chromium: $("$candidate" --version 2>/dev/null || echo "$candidate")"
    exit 0
  fi
done
if [ "$(id -u)" -eq 0 ]; then
  run=()
elif command -v sudo >/dev/null 2>&1; then
  run=(sudo)
else
  echo "Chromium is missing. Install it as root: apt-get install -y --no-install-recommends chromium" >&2
  exit 1
fi
echo "Installing Debian's chromium package…"
"${run[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${run[@]}" apt-get install -y -qq --no-install-recommends chromium >/dev/null
echo "Chromium: $(chromium --version)"
