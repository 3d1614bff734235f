/**
 * A display for Electron on Linux: the existing DISPLAY, else a private Xvfb started here (and stopped
 * after the tests), else a reason to skip.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface Display {
  env: Record<string, string>;
  stop(): void;
}

export async function acquireDisplay(): Promise<Display | { skip: string }> {
  if (process.platform !== 'linux' || process.env['DISPLAY'] || process.env['WAYLAND_DISPLAY']) {
    return { env: {}, stop: () => {} };
  }
  if (spawnSync('sh', ['-c', 'command -v Xvfb']).status !== 0) {
    return { skip: 'no DISPLAY and no Xvfb to provide one (apt install xvfb)' };
  }
  // a display number nobody uses: its socket does not exist yet
  let number = 90 + Math.floor(Math.random() * 100);
  for (let tries = 0; tries < 50 && existsSync(`/tmp/.X11-unix/X${number}`); tries++) number++;
  const xvfb: ChildProcess = spawn(
    'Xvfb',
    [`:${number}`, '-screen', '0', '1440x900x24', '-nolisten', 'tcp'],
    { stdio: 'ignore' },
  );
  const deadline = Date.now() + 10_000;
  while (!existsSync(`/tmp/.X11-unix/X${number}`)) {
    if (Date.now() > deadline || xvfb.exitCode !== null) {
      xvfb.kill();
      return { skip: `Xvfb :${number} did not start` };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { env: { DISPLAY: `:${number}` }, stop: () => void xvfb.kill() };
}
