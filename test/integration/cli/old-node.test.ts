/**
 * Every entry (the `skindesk` command, `npm run web`, `npm test`, bench, soak) says plainly that Node is
 * too old instead of failing on the first .ts file with "bad option: --experimental-strip-types" or
 * "unknown file extension .ts". An old Node is played by the one running the tests, its version made
 * older before the entry loads (`--import` of a data: module); the real check against an old binary is
 * the machine's own Node where it is older (as on this workplace's machines).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { NODE_MINIMUM, nodeIsTooOld } from '../../../bin/node-version.mjs';

const file = (path: string) => fileURLToPath(new URL(`../../../${path}`, import.meta.url));
const AS_NODE_20 = `data:text/javascript,${encodeURIComponent(
  "Object.defineProperty(process.versions, 'node', { value: '20.19.0' }); Object.defineProperty(process, 'version', { value: 'v20.19.0' });",
)}`;
const TOO_OLD =
  /needs Node\.js 22\.12\.0 or newer, and this is v20\.\d+\.\d+ \(.+\)\.\nInstall Node\.js 24 LTS/;

describe('an older Node than Skindesk needs', () => {
  it("is package.json's engines, told apart by major and minor version", () => {
    const engines = (JSON.parse(readFileSync(file('package.json'), 'utf8')) as { engines: { node: string } })
      .engines;
    expect(`${engines.node}.0`).toBe(`>=${NODE_MINIMUM}`);
    expect(['20.19.0', '22.11.9', '18.0.0', '21.99.0'].filter(nodeIsTooOld)).toEqual([
      '20.19.0',
      '22.11.9',
      '18.0.0',
      '21.99.0',
    ]);
    expect(['22.12.0', '22.18.1', '23.0.0', '24.11.1', '30.1.2'].filter(nodeIsTooOld)).toEqual([]);
  });

  it.each([
    ['skindesk', 'bin/skindesk.mjs', ['status', '--db', 'x.db']],
    ['npm run web', 'scripts/web.mjs', ['--no-build']],
    ['npm test', 'scripts/test.mjs', []],
  ])('%s: one plain line on stderr, exit 1, nothing run', (command, entry, args) => {
    const out = spawnSync(process.execPath, ['--import', AS_NODE_20, file(entry), ...args], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(out.stderr).toMatch(new RegExp(`^${command}: Skindesk ${TOO_OLD.source}`));
    expect([out.status, out.stdout]).toEqual([1, '']);
  });

  const machineNode = '/usr/bin/node';
  const machineVersion = existsSync(machineNode)
    ? spawnSync(machineNode, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim()
    : '';
  it.skipIf(!machineVersion || !nodeIsTooOld(machineVersion))(
    `the machine's own older Node (${machineNode} ${machineVersion || 'absent'})`,
    () => {
      const out = spawnSync(machineNode, [file('bin/skindesk.mjs'), '--help'], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(out.stderr).toMatch(new RegExp(`^skindesk: Skindesk ${TOO_OLD.source}`));
      expect(out.status).toBe(1);
    },
  );
});
