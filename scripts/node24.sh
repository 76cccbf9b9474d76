# Node 24 LTS for this shell, without changing the machine's own Node: source this file. Only
# needed to run tools by hand (npx vitest, npx playwright): the npm scripts (npm start, npm test,
# npm run build...) bring it themselves through bin/ensure-node.js.
#
#   source scripts/node24.sh && npx vitest run core/
#
# bin/ensure-node.js fetches Node once from the npm registry's node-<os>-<cpu> package into
# .cache/node24/ (git-ignored) when the machine's Node is older than package.json's engines.node;
# otherwise the machine's Node is kept. Its bin/ is put first on PATH. npm itself stays the
# machine's (it runs on whichever `node` is first on PATH). `npm_config_nodedir` points node-gyp
# at the package's include/node, so a native addon compiles without downloading headers.
# KDS_NODE_VERSION picks another version range (default: 24).

_kds_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
if _kds_bin="$(node "$_kds_root/bin/ensure-node.js" --bin-dir)"; then
	export PATH="$_kds_bin:$PATH"
	[ ! -d "$_kds_bin/../include/node" ] || export npm_config_nodedir="$(cd "$_kds_bin/.." && pwd)"
	unset _kds_root _kds_bin
else
	unset _kds_root _kds_bin
	return 1 2>/dev/null || exit 1
fi
