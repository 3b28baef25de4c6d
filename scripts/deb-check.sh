#!/usr/bin/env bash
# Builds the .deb from build/ and installs it with apt in a fresh Debian 12 (bookworm, minbase,
# made by debootstrap in a temporary folder), then runs the installed posenc there: the package's
# Depends must bring every shared library it needs. Needs root and Debian's mirror; not part of
# scripts/test.sh (test_install.py checks the Depends list against posenc's NEEDED libraries).
#   scripts/deb-check.sh [MIRROR]     (default: http://deb.debian.org/debian)
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $(id -u) -eq 0 ]] || { echo "deb-check: run as root (debootstrap and chroot)" >&2; exit 2; }
mirror="${1:-http://deb.debian.org/debian}"
scripts/setup.sh
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >&2
rm -f build/posenc_*.deb
(cd build && cpack -G DEB >/dev/null)
root="$(mktemp -d /tmp/posenc-deb-check.XXXXXX)"
trap 'rm -rf "$root"' EXIT
debootstrap --variant=minbase bookworm "$root" "$mirror" >/dev/null
cp build/posenc_*.deb "$root/root/"
cp /etc/resolv.conf "$root/etc/resolv.conf"
chroot "$root" /bin/bash -c '
  set -e
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq /root/posenc_*.deb >/dev/null
  posenc --version
  posenc generate sinusoidal --len 4 --dim 4 --format csv
  posenc generate rope --len 64 --dim 32 -o /tmp/rope.png
  test -s /tmp/rope.png && test -s /usr/share/man/man1/posenc.1.gz -o -s /usr/share/man/man1/posenc.1
  test -s /usr/share/bash-completion/completions/posenc'
echo "deb-check: the .deb installs with apt in a fresh Debian 12 and posenc runs there"
