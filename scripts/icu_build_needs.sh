#!/usr/bin/env bash
# PyICU (names that look alike: docs/accounts.md) has no Linux wheel: uv builds it
# against the system's ICU. Where ICU's headers, pkg-config or g++ are missing,
# Debian's packages are installed (as root, or with sudo that asks no password), as
# scripts/test.sh does for Chromium; where that cannot be done, say what to install
# before uv fails on it with a compiler's error.
set -uo pipefail

has_build_needs() {
    pkg-config --exists icu-i18n 2>/dev/null && command -v g++ >/dev/null
}

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else return 1; fi
}

has_build_needs && exit 0
if command -v apt-get >/dev/null; then
    echo "Installing Debian's libicu-dev, pkg-config and g++ to build PyICU..."
    as_root apt-get update -qq >/dev/null 2>&1
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libicu-dev pkg-config g++ \
        >/dev/null 2>&1
fi
has_build_needs && exit 0
echo "PyICU is built from source and needs ICU's headers, pkg-config and g++:" \
    "on Debian, apt-get install libicu-dev pkg-config g++ (as root)." >&2
exit 1
