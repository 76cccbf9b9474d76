#!/usr/bin/env bash
# npm test's first step: what the suites need besides Node and node_modules (README,
# "Prerequisites"). Present: prints nothing. Missing, as root on Debian/Ubuntu: installs it with
# apt-get (one line says what). Missing anywhere else (not root, not Debian/Ubuntu, macOS): one
# block naming each missing thing and the command that installs it, and exit 1: no suite is left
# out quietly. KDS_SETUP_INSTALL=0 only reports, never installs. KDS_SETUP_LIST=1 prints the
# missing Debian packages one a line (and `root` when not root) and exits 0: npm run test:local
# (scripts/test-local.mjs) reads it to tell which suites this machine can run.
# Not root, with everything present: one line saying the image tests need root, and exit 0.
set -euo pipefail

missing_packages=()
missing_lines=()
# need <test> <Debian package(s)> <what needs it>: the test succeeds when the thing is there.
need() {
	# No pipefail here: `grep -q` stops reading early, and fc-list's SIGPIPE is no failure.
	if ! (set +o pipefail && eval "$1") >/dev/null 2>&1; then
		# shellcheck disable=SC2206 # php-cli php-curl: two packages
		missing_packages+=($2)
		missing_lines+=("$(printf '  %-26s %s' "$2" "$3")")
	fi
}
need '[ -x /usr/bin/chromium ] || command -v chromium' chromium \
	"the browser tests (Playwright drives Debian's Chromium)"
need 'command -v python3' python3 'the client zoo (Python client) and the image recipes'
need 'python3 -c "import pytest"' python3-pytest "the Python fixture's pytest suite (conftest.py)"
need 'command -v javac' openjdk-17-jdk-headless \
	'the client zoo (`java Client.java` compiles in memory: the JDK, not only the JRE)'
need 'command -v curl' curl "the client zoo (curl client) and the README's curl example"
need 'command -v perl' perl 'the client zoo (Perl client)'
need 'command -v nc' netcat-openbsd "the home page's pasted \`nc -N\` example (tests/e2e/home.e2e.ts)"
need 'php -r "exit(function_exists(\"curl_init\") ? 0 : 1);"' 'php-cli php-curl' \
	'the client zoo (PHP clients, with cURL)'
need 'command -v ruby' ruby 'the client zoo (Ruby clients)'
need 'command -v ip' iproute2 "the Pi installer's run without network (its own network namespace)"
need 'command -v systemd-analyze' systemd "the Pi installer's unit check (systemd-analyze verify)"
# macOS draws CJK, emoji and the other scripts with its own fonts.
if [ "$(uname -s 2>/dev/null)" != Darwin ]; then
	need 'fc-list | grep -q "Noto Sans CJK"' fonts-noto-cjk 'CJK names and items on the cards'
	need 'fc-list | grep -q "Noto Color Emoji"' fonts-noto-color-emoji 'emoji on the cards'
	need 'fc-list :lang=th | grep -q Noto' fonts-noto-core 'Thai, Arabic, Devanagari and other scripts'
fi
need 'command -v podman' podman 'the image tests (npm run test:image: rootful podman)'
need 'command -v runc' runc "the image tests (crun fails on some kernels' cgroups)"
need 'command -v mmdebstrap' mmdebstrap 'the image tests (the local base image)'
need 'command -v iptables' iptables 'the image tests (published ports)'
need 'command -v docker-compose' docker-compose 'the image tests (the compose recipe)'
need 'python3 -c "import yaml"' python3-yaml "the image tests (the CI recipes' checks)"

# The image tests run rootful podman: as another user they cannot run at all.
not_root=''
[ "$(id -u)" = 0 ] || not_root=1

if [ "${KDS_SETUP_LIST:-0}" = 1 ]; then
	[ ${#missing_packages[@]} -eq 0 ] || printf '%s\n' "${missing_packages[@]}"
	[ -z "$not_root" ] || echo root
	exit 0
fi

if [ ${#missing_packages[@]} -eq 0 ] && [ -z "$not_root" ]; then exit 0; fi
if [ ${#missing_packages[@]} -eq 0 ]; then
	# Everything the suites need is here; only the image tests need root, and they say so first.
	echo "kds-sim set-up: everything is here; the image tests (npm run test:image) need root: npm test stops there as another user, npm run test:local runs every other suite." >&2
	exit 0
fi

debian=''
if command -v apt-get >/dev/null 2>&1 && [ -f /etc/debian_version ]; then debian=1; fi

if [ -n "$debian" ] && [ -z "$not_root" ] && [ "${KDS_SETUP_INSTALL:-1}" != 0 ]; then
	echo "kds-sim set-up: installing with apt-get: ${missing_packages[*]}" >&2
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing_packages[@]}" >/dev/null
	exit 0
fi

{
	echo "kds-sim set-up: npm test needs what this machine lacks (Debian package, and what needs it):"
	[ ${#missing_lines[@]} -eq 0 ] || printf '%s\n' "${missing_lines[@]}"
	[ -z "$not_root" ] || printf '  %-26s %s\n' 'root' 'the image tests (rootful podman): run npm test as root'
	if [ -n "$debian" ]; then
		echo "Install them, then run npm test again:"
		echo "  sudo apt-get install -y ${missing_packages[*]}"
		[ -z "$not_root" ] || echo "(as root, npm test installs them itself)"
	else
		echo "This is not Debian/Ubuntu (no apt-get): install the same tools with this system's package"
		echo "manager, then run npm test again. The image tests need Linux with rootful podman; the other"
		echo "suites run on their own: npm run test:local (docs/contributing.md)."
	fi
} >&2
exit 1
