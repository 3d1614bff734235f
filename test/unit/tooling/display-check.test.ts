/**
 * `npm start`'s display check (scripts/display-check.mjs): on Linux without DISPLAY or WAYLAND_DISPLAY
 * it stops with words that name the headless way (the CLI); macOS and Windows never need either.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingDisplayReason, noDisplayMessage } from '../../../scripts/display-check.mjs';

const root = resolve(import.meta.dirname, '../../..');

describe('missingDisplayReason', () => {
  it('finds no display on Linux when neither DISPLAY nor WAYLAND_DISPLAY names one', () => {
    expect(missingDisplayReason('linux', {})).toMatch(/no display/);
    expect(missingDisplayReason('linux', { DISPLAY: '', WAYLAND_DISPLAY: '' })).toMatch(/no display/);
  });

  it('lets Linux start with an X11 or a Wayland display', () => {
    expect(missingDisplayReason('linux', { DISPLAY: ':0' })).toBeUndefined();
    expect(missingDisplayReason('linux', { WAYLAND_DISPLAY: 'wayland-0' })).toBeUndefined();
  });

  it('never asks macOS or Windows for a display variable', () => {
    expect(missingDisplayReason('darwin', {})).toBeUndefined();
    expect(missingDisplayReason('win32', {})).toBeUndefined();
  });
});

describe('noDisplayMessage', () => {
  it('says what is missing and how to run headless with the CLI', () => {
    const message = noDisplayMessage(missingDisplayReason('linux', {})!);
    expect(message).toMatch(/^npm start: there is no display/);
    expect(message).toContain('skindesk demo');
    expect(message).toContain('skindesk sync');
    expect(message).toContain('npm run web');
  });
});

describe('npm start without a display', () => {
  // The check itself is Linux's alone (above); here the script is run as `npm start` runs it.
  it.skipIf(process.platform !== 'linux')(
    'says there is no display, names the CLI and exits 1 before building anything',
    () => {
      const env: Record<string, string | undefined> = { ...process.env };
      delete env['DISPLAY'];
      delete env['WAYLAND_DISPLAY'];
      const run = spawnSync(process.execPath, [join(root, 'scripts/start.mjs')], {
        cwd: root,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(noDisplayMessage(missingDisplayReason('linux', {})!));
      // no electron-vite build ran: its output would be on stdout
      expect(run.stdout).toBe('');
    },
  );
});
