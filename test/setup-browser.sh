#!/usr/bin/env bash
# Installs the browsers the demo and the tests drive, when they are missing: Debian's
# Chromium (end-to-end tests, the demo) with its translations (chromium-l10n: the
# German and Japanese runs), a Japanese font (fonts-ipafont-gothic), Firefox ESR (the
# Firefox smoke test), and Xvfb with xdotool (test/e2e/qr-scan.test.ts: the browser gives
# a tab's pixels only after a real key press, in a real window). Needs root or sudo; does nothing when all are already there.
set -euo pipefail

have_chromium() {
  for candidate in "${CHROMIUM_PATH:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
    if [ -n "$candidate" ] && [ -x "$candidate" ]; then return 0; fi
  done
  return 1
}

missing=()
have_chromium || missing+=(chromium)
[ -e /usr/lib/chromium/locales/ja.pak ] || [ -n "${CHROMIUM_PATH:-}" ] || missing+=(chromium-l10n)
[ -n "$(fc-list :lang=ja family 2>/dev/null)" ] || missing+=(fonts-ipafont-gothic)
command -v firefox-esr >/dev/null 2>&1 || missing+=(firefox-esr)
command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
command -v xdotool >/dev/null 2>&1 || missing+=(xdotool)

if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" -eq 0 ]; then
    run=()
  elif command -v sudo >/dev/null 2>&1; then
    run=(sudo)
  else
    echo "Missing: ${missing[*]}. Install as root: apt-get install -y --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
  echo "Installing Debian's ${missing[*]}…"
  "${run[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${run[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
echo "Chromium: $(chromium --version 2>/dev/null || echo 'at CHROMIUM_PATH')"
echo "Firefox:  $(firefox-esr --version 2>/dev/null)"
