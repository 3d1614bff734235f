/**
 * On Node 22.12–22.17 the `skindesk` launcher re-executes Node with type stripping on and waits for that
 * child. A stop signal sent to the launcher must reach the child, which stops cleanly (exit 0), and the
 * launcher must wait for it: killed by the signal's default action, it used to leave the child serving
 * on, unseen. Node 24 takes the same path when started with --no-experimental-strip-types.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../../../bin/skindesk.mjs', import.meta.url));

describe('the launcher that re-executes Node', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'passes %s on to the demo market, waits for it, and exits 0',
    async (signal) => {
      const launcher = spawn(
        process.execPath,
        ['--no-experimental-strip-types', CLI, 'demo', '--port', '0', '--listings', '10', '--rate', '0'],
        {
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
      let stdout = '';
      let stderr = '';
      launcher.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
      const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        launcher.on('close', (code, sig) => resolve({ code, signal: sig })),
      );
      const baseUrl = await new Promise<string>((resolve, reject) => {
        launcher.stdout.on('data', (d: Buffer) => {
          stdout += d.toString('utf8');
          const match = /"base_url":"([^"]+)"/.exec(stdout);
          if (match?.[1]) resolve(match[1]);
        });
        launcher.on('close', () => reject(new Error(`the demo market never started: ${stderr}`)));
      });
      expect((await fetch(`${baseUrl}/public/v1/prices`)).status).toBeLessThan(500);

      launcher.kill(signal);
      expect(await closed, stderr).toEqual({ code: 0, signal: null });
      expect(stderr).toContain(`demo market: ${signal}, shutting down`);
      // the launcher ended after its child: nobody serves there any more
      await expect(fetch(`${baseUrl}/public/v1/prices`)).rejects.toThrow();
    },
  );
});
