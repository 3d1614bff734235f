/**
 * `skindesk demo` as a process: flags as the issue writes them, one JSON line on stdout, serving until
 * SIGTERM, exit code 0; --help explains every flag; a bad flag is a usage error (exit 2).
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ENDPOINTS, WS_PATH, parseJsonWithInt64 } from '../../../src/shared/api/index.ts';
import { connectSocket } from './helpers.ts';

const bin = fileURLToPath(new URL('../../../bin/skindesk.mjs', import.meta.url));
const children: ChildProcessWithoutNullStreams[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

async function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  let buffer = '';
  let errors = '';
  child.stderr.on('data', (d: Buffer) => (errors += d.toString()));
  for await (const chunk of child.stdout) {
    buffer += (chunk as Buffer).toString();
    const newline = buffer.indexOf('\n');
    if (newline >= 0) return buffer.slice(0, newline);
  }
  throw new Error(`no line on stdout; stderr: ${errors}`);
}

describe('skindesk demo', () => {
  it('prints one JSON line, serves the API, and exits 0 on SIGTERM', async () => {
    const seqStart = '9222000000000000000';
    const child = spawn(process.execPath, [bin, 'demo', '--port', '0', '--host', '127.0.0.1', '--listings', '2000', '--rate', '50', '--reorder', '0.1', '--duplicate', '0.1', '--seq-start', seqStart, '--time-scale', '10', '--seed', '3', '--webhook-url', 'http://127.0.0.1:9/hooks']);
    children.push(child);
    const line = await firstLine(child);
    const info = JSON.parse(line) as Record<string, string>;
    expect(Object.keys(info)).toEqual(['base_url', 'ws_url', 'api_key', 'webhook_secret']);
    expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.ws_url).toBe(`${info.base_url!.replace('http', 'ws')}${WS_PATH}`);
    expect(info.webhook_secret).toMatch(/^whsec_/);

    const res = await fetch(`${info.base_url}/public/v1`);
    expect(ENDPOINTS.info.response.safeParse(await res.json()).success).toBe(true);
    const book = await fetch(`${info.base_url}/public/v1/book`, { headers: { authorization: `Bearer ${info.api_key}` } });
    const snapshot = parseJsonWithInt64(await book.text(), ['seq']) as { seq: bigint; listings: unknown[] };
    expect(snapshot.seq).toBeGreaterThanOrEqual(BigInt(seqStart));
    expect(snapshot.listings.length).toBeGreaterThan(1_500);
    const socket = connectSocket(info.ws_url!, { key: info.api_key });
    const event = await socket.waitFor((f) => typeof f.seq === 'bigint');
    expect(event.frame.seq as bigint).toBeGreaterThan(BigInt(seqStart));
    await socket.close();

    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  it('explains every flag in --help', () => {
    const out = spawnSync(process.execPath, [bin, 'demo', '--help'], { encoding: 'utf8' });
    expect(out.status).toBe(0);
    for (const flag of ['--port', '--host', '--listings', '--rate', '--reorder', '--duplicate', '--seq-start', '--time-scale', '--seed', '--webhook-url']) {
      expect(out.stdout).toContain(flag);
    }
  });

  it('refuses bad flag values with exit code 2', () => {
    for (const args of [['--reorder', '2'], ['--port', 'x'], ['--seq-start', '99999999999999999999'], ['--bogus'], ['--webhook-url', 'http://10.0.0.1/x']]) {
      // (a flag may be given once: --port only when the case does not set it)
      const port = args.includes('--port') ? [] : ['--port', '0'];
      const out = spawnSync(process.execPath, [bin, 'demo', ...port, '--listings', '10', ...args], { encoding: 'utf8', timeout: 30_000 });
      expect(out.status, `${args.join(' ')}: ${out.stderr}`).toBe(2);
      expect(out.stdout).toBe('');
      expect(out.stderr).not.toMatch(/may be given once/);
    }
  });
});
