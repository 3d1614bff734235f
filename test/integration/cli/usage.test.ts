/**
 * Usage text: asked for (`--help`, `-h`, `help`, `<command> --help`) it goes to stdout with exit 0; printed
 * because of a mistake (no command, an unknown one, bad flags) it goes to stderr with exit 2, so a script
 * that reads stdout never takes a usage text for output.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../../../bin/skindesk.mjs', import.meta.url));
const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 30_000 });

describe('skindesk usage', () => {
  it.each([['--help'], ['-h'], ['help']])('`skindesk %s` prints the commands on stdout, exit 0', (flag) => {
    const out = run([flag]);
    expect(out.status).toBe(0);
    expect(out.stdout).toMatch(/^skindesk — .*\n\nUsage: skindesk <command> \[flags\]\n/);
    expect(out.stdout).toMatch(/^ {2}sync {2,}mirror the marketplace book/m);
    expect(out.stderr).toBe('');
  });

  it('bare `skindesk` is a mistake: the commands on stderr, nothing on stdout, exit 2', () => {
    const out = run([]);
    expect(out.status).toBe(2);
    expect(out.stdout).toBe('');
    expect(out.stderr).toBe(`skindesk: no command given\n\n${run(['--help']).stdout}`);
  });

  it('an unknown command and bad flags: stderr, exit 2; `<command> --help`: stdout, exit 0', () => {
    const unknown = run(['bogus']);
    expect([unknown.status, unknown.stdout]).toEqual([2, '']);
    expect(unknown.stderr).toMatch(/^skindesk: unknown command 'bogus'\n\nskindesk — /);
    const bad = run(['status', '--bogus']);
    expect([bad.status, bad.stdout]).toEqual([2, '']);
    expect(bad.stderr).toMatch(/Usage: skindesk status --db FILE/);
    const asked = run(['status', '--help']);
    expect([asked.status, asked.stderr]).toEqual([0, '']);
    expect(asked.stdout).toMatch(/^Usage: skindesk status --db FILE/);
  });
});
