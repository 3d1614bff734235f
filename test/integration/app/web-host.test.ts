// The browser test host at the HTTP/WebSocket level: loopback only, the token-for-cookie exchange, the
// Host and Origin checks, the bridge script injected before the app bundle, and the contract spoken over
// the socket (calls with envelopes, pushes, invalid frames refused).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { silentLog } from '../../../src/core/app/index.ts';
import { BRIDGE_SCRIPT_PATH, WIRE_PATH, type ServerFrame } from '../../../src/shared/ipc/index.ts';
import { injectBridge } from '../../../src/web-host/server.ts';
import { type WebHost, startWebHost } from '../../../src/web-host/index.ts';

const rendererDir = mkdtempSync(join(tmpdir(), 'skindesk-renderer-'));
writeFileSync(
  join(rendererDir, 'index.html'),
  '<!doctype html><html><head><title>Skindesk</title><script type="module" src="./assets/app.js"></script></head><body></body></html>',
);
let host: WebHost;
let cookie: string;

beforeAll(async () => {
  host = await startWebHost({ rendererDir, demo: { listings: 300, rate: 30, seed: 9 }, log: silentLog });
  const res = await fetch(host.url, { redirect: 'manual' });
  expect(res.status).toBe(302);
  cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
});

afterAll(async () => {
  await host?.close();
  rmSync(rendererDir, { recursive: true, force: true });
});

function get(path: string, headers: Record<string, string> = {}) {
  return fetch(`${host.origin}${path}`, { headers, redirect: 'manual' });
}

/** fetch cannot set Host (a forbidden header), node:http can: a DNS-rebinding request names another host. */
function statusWithHost(hostHeader: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port: host.port, path: '/', headers: { Host: hostHeader, Cookie: cookie } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A GET with the path exactly as written: status and Location. */
function rawGet(path: string): Promise<{ status: number; location: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: host.port, path }, (res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, location: res.headers.location ?? '' });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Opens the IPC socket with the given headers; resolves with the socket or the refusal status. */
function openSocket(headers: Record<string, string>): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}${WIRE_PATH}`, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(0));
  });
}

const pageHeaders = () => ({ Cookie: cookie, Origin: host.origin });

describe('access', () => {
  it('prints a loopback URL with a long random token', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}$/);
  });

  it('trades the token for an HttpOnly SameSite cookie bound to this port', async () => {
    const res = await fetch(host.url, { redirect: 'manual' });
    expect(res.headers.get('location')).toBe('/');
    expect(res.headers.get('set-cookie')).toMatch(
      new RegExp(`^skindesk_host_${host.port}=[^;]+; HttpOnly; SameSite=Strict; Path=/$`),
    );
  });

  it('redirects the token exchange only within the host, whatever the path spells', async () => {
    // `/.//evil.example/` parses to the path `//evil.example/`, which a browser reads as another site;
    // sent as written (fetch would normalise it first)
    for (const path of ['/.//evil.example/', '/./\\evil.example/', '/..//evil.example/x', '//evil.example/']) {
      const { status, location } = await rawGet(`${path}?token=${host.token}`);
      expect(status).toBe(302);
      expect(new URL(location, host.origin).origin).toBe(host.origin);
    }
  });

  it('refuses every request without the cookie, with a wrong token, or for another Host', async () => {
    expect((await get('/')).status).toBe(401);
    expect((await get(BRIDGE_SCRIPT_PATH)).status).toBe(401);
    expect((await get('/?token=wrong')).status).toBe(401);
    expect((await get('/', { Cookie: `skindesk_host_${host.port}=wrong` })).status).toBe(401);
    expect(await statusWithHost('evil.example')).toBe(421);
    expect(await statusWithHost(`evil.example:${host.port}`)).toBe(421);
    expect(await statusWithHost(`localhost:${host.port}`)).toBe(200);
    expect((await get('/', { Cookie: cookie })).status).toBe(200);
  });

  it('refuses the IPC socket without the cookie, from a foreign origin, or on another path', async () => {
    expect(await openSocket({ Origin: host.origin })).toBe(401);
    expect(await openSocket({ Cookie: cookie, Origin: 'http://evil.example' })).toBe(403);
    expect(await openSocket({ Cookie: cookie })).toBe(403);
    const other = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${host.port}/elsewhere`, { headers: pageHeaders() });
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('error', () => resolve(0));
    });
    expect(other).toBe(404);
  });
});

describe('pages', () => {
  it('serves index.html with the bridge script before the app bundle, under the CSP', async () => {
    const res = await get('/', { Cookie: cookie });
    const html = await res.text();
    expect(html.indexOf(`<script src="${BRIDGE_SCRIPT_PATH}"></script>`)).toBeGreaterThan(0);
    expect(html.indexOf(BRIDGE_SCRIPT_PATH)).toBeLessThan(html.indexOf('./assets/app.js'));
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/script-src 'self';/);
    expect(csp).toContain(`ws://127.0.0.1:${host.port}`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('serves the bridge script, which defines window.skindesk', async () => {
    const res = await get(BRIDGE_SCRIPT_PATH, { Cookie: cookie });
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    const code = await res.text();
    expect(code).toContain('skindesk');
    expect(code).toContain(WIRE_PATH);
  });

  it('refuses paths outside the renderer folder', async () => {
    expect((await get('/..%2F..%2Fetc%2Fpasswd', { Cookie: cookie })).status).toBe(404);
    expect((await get('/missing.js', { Cookie: cookie })).status).toBe(404);
  });

  it('injectBridge refuses a page without any script', () => {
    expect(() => injectBridge('<html></html>')).toThrow(/no <script>/);
  });
});

describe('the contract over the socket', () => {
  it('answers calls with envelopes and delivers pushes', async () => {
    await host.core.whenLive(20_000);
    const ws = await openSocket(pageHeaders());
    if (typeof ws === 'number') throw new Error(`socket refused: ${ws}`);
    const frames: ServerFrame[] = [];
    ws.on('message', (data) => frames.push(JSON.parse(data.toString()) as ServerFrame));
    ws.send(JSON.stringify({ t: 'call', id: 1, name: 'getStatus', input: {} }));
    ws.send(JSON.stringify({ t: 'call', id: 2, name: 'queryBook', input: { limit: 3, count: true } }));
    ws.send(JSON.stringify({ t: 'call', id: 3, name: 'getListing', input: { id: 'x' } }));
    ws.send(JSON.stringify({ t: 'call', id: 4, name: 'noSuchCall', input: {} }));
    const deadline = Date.now() + 15_000;
    while (
      Date.now() < deadline &&
      !(
        frames.some((f) => f.t === 'push' && f.name === 'bookChanged') &&
        frames.filter((f) => f.t === 'result').length === 4
      )
    ) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const result = (id: number) =>
      frames.find((f): f is Extract<ServerFrame, { t: 'result' }> => f.t === 'result' && f.id === id)
        ?.response;
    expect(result(1)).toMatchObject({ ok: true, value: { state: 'live', market: { mode: 'demo' } } });
    expect(result(2)).toMatchObject({ ok: true, value: { rows: expect.any(Array) } });
    expect(result(3)).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(result(4)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CALL' } });
    expect(frames.some((f) => f.t === 'push' && f.name === 'bookChanged')).toBe(true);
    expect(host.connections()).toBe(1);
    ws.close();
  });

  it('closes a socket that sends something that is not a call frame', async () => {
    const ws = await openSocket(pageHeaders());
    if (typeof ws === 'number') throw new Error(`socket refused: ${ws}`);
    const code = await new Promise<number>((resolve) => {
      ws.once('close', (c) => resolve(c));
      ws.send('{"t":"call","id":"one"}');
    });
    expect(code).toBe(1007);
  });
});
