// `.ci/run` with the machine stubbed out: dpkg/dpkg-query answer from a fake package database, and
// apt-get, sudo and npm only record how they were called. The script itself is the real one, copied
// beside a no-op ensure-node.sh (fetching Node is not what these tests are about).
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'skindesk-ci-run-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const clone = join(dir, 'clone');
const bin = join(dir, 'bin');
mkdirSync(join(clone, '.ci'), { recursive: true });
mkdirSync(join(clone, 'scripts'), { recursive: true });
mkdirSync(bin);
copyFileSync(join(root, '.ci/run'), join(clone, '.ci/run'));
writeFileSync(join(clone, 'scripts/ensure-node.sh'), 'echo "[ensure-node] stub" >&2\n');

const stub = (name: string, body: string) => {
  writeFileSync(join(bin, name), `#!/bin/bash\n${body}\n`);
  chmodSync(join(bin, name), 0o755);
};
// FAKE_DPKG: "name=state ..." where state is dpkg's two-letter abbreviation (ii installed, rc removed
// with its configuration files left). Like the real dpkg, `dpkg -s` succeeds for any package it knows
// of, whatever its state (checked against a real dpkg database while writing this test).
const lookup = 'state=""; for e in $FAKE_DPKG; do [ "${e%%=*}" = "$pkg" ] && state="${e#*=}"; done';
stub('dpkg', `[ "$1" = -s ] || exit 2; pkg="$2"; ${lookup}; [ -n "$state" ] || exit 1; echo "Package: $pkg"`);
stub(
  'dpkg-query',
  `pkg="\${@: -1}"; ${lookup}; if [ -z "$state" ]; then echo "dpkg-query: no packages found matching $pkg" >&2; exit 1; fi; printf '%s ' "$state"`,
);
stub('apt-get', 'echo "apt-get $*" >> "$CALLS"; [ "$1" = update ] || exit "${FAKE_APT_EXIT:-0}"');
stub('sudo', 'exec "$@"');
stub(
  'npm',
  'echo "npm $* ELECTRON_SKIP_BINARY_DOWNLOAD=${ELECTRON_SKIP_BINARY_DOWNLOAD:-unset}" >> "$CALLS"; [ "$1" = test ] && exit "${FAKE_NPM_TEST_EXIT:-0}"; exit 0',
);

function ciRun(env: { FAKE_DPKG: string; FAKE_APT_EXIT?: string; FAKE_NPM_TEST_EXIT?: string }) {
  const calls = join(dir, `calls-${Math.random().toString(36).slice(2)}`);
  const r = spawnSync('bash', [join(clone, '.ci/run')], {
    encoding: 'utf8',
    env: { PATH: `${bin}:/usr/bin:/bin`, HOME: dir, CALLS: calls, ...env },
  });
  const lines = existsSync(calls) ? readFileSync(calls, 'utf8').trim().split('\n') : [];
  return { status: r.status, output: r.stdout + r.stderr, calls: lines };
}

const ALL = 'chromium=ii xvfb=ii gnome-keyring=ii dbus-x11=ii';

describe('.ci/run', () => {
  it('installs only what is missing, counting a removed package (configuration left behind) as missing', () => {
    const r = ciRun({ FAKE_DPKG: 'chromium=ii xvfb=rc gnome-keyring=ii' });
    expect(r.status, r.output).toBe(0);
    expect(r.calls.filter((c) => c.startsWith('apt-get install'))).toEqual([
      'apt-get install -y --no-install-recommends xvfb dbus-x11',
    ]);
  });

  it('installs nothing on a machine that has it all, then runs npm ci without the Electron binary and exactly the README test command', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const testCommand = /```sh\n(npm test)\n```/.exec(readme)?.[1];
    expect(testCommand).toBe('npm test');
    const r = ciRun({ FAKE_DPKG: ALL });
    expect(r.status, r.output).toBe(0);
    expect(r.calls).toEqual([
      'npm ci ELECTRON_SKIP_BINARY_DOWNLOAD=1',
      `${testCommand} ELECTRON_SKIP_BINARY_DOWNLOAD=unset`,
    ]);
  });

  it('exits non-zero when the tests fail, and when a package cannot be installed (before any npm step)', () => {
    const failed = ciRun({ FAKE_DPKG: ALL, FAKE_NPM_TEST_EXIT: '3' });
    expect(failed.status).not.toBe(0);
    const noApt = ciRun({ FAKE_DPKG: 'xvfb=ii gnome-keyring=ii dbus-x11=ii', FAKE_APT_EXIT: '100' });
    expect(noApt.status).not.toBe(0);
    expect(noApt.calls.some((c) => c.startsWith('npm'))).toBe(false);
  });
});
