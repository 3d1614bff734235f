// The renderer's cage, checked from inside the page (the soak suite's security part, issue 9): the
// real renderer through the browser test host, against the embedded demo market.
//
// - No Node: require, process, module, Buffer and global do not exist in the page.
// - No network but the bridge: fetch / XMLHttpRequest / WebSocket / EventSource to another origin
//   (the demo market itself included, though it is on loopback), file:// URLs, remote scripts and
//   frames are all refused by the CSP before any request is made; eval and new Function are refused.
//   Every request the page makes is watched: none may leave the host's origin.
// - The bridge is the only door, and it checks what comes through: every call of the contract sent
//   invalid input, through window.skindesk and as raw frames on the IPC socket (what a compromised page
//   could send), is refused with INVALID_INPUT and no handler of the app runs; malformed frames close
//   the socket without harming the app.
// - The app itself trips no CSP rule while it loads (zod's `new Function` probe did, before jitless).
//
// Images are the one exception the CSP makes on purpose (img-src https:, for item and sticker art), so
// they are not checked here.
import { type Page, expect, test } from '@playwright/test';
import { silentLog } from '../../src/core/app/index.ts';
import { BRIDGE_SCRIPT_PATH, IPC_CALL_NAMES, WIRE_PATH } from '../../src/shared/ipc/index.ts';
import { type WebHost, startWebHost } from '../../src/web-host/index.ts';

let host: WebHost;
let handlerRuns: Map<string, number>;

test.beforeAll(async () => {
  host = await startWebHost({ demo: { listings: 2_000, rate: 5, seed: 9 }, log: silentLog });
  await host.core.whenLive(30_000);
  // Count every handler run of the app (the dispatcher looks handlers up at call time).
  handlerRuns = new Map();
  const handlers = host.core.handlers as unknown as Record<string, (input: unknown) => unknown>;
  for (const name of IPC_CALL_NAMES) {
    const real = handlers[name]!;
    handlers[name] = (input: unknown) => {
      handlerRuns.set(name, (handlerRuns.get(name) ?? 0) + 1);
      return real(input);
    };
  }
});

test.afterAll(async () => {
  await host?.close();
});

test('the page reaches neither Node nor the network, only the bridge', async ({ page }) => {
  const outside: string[] = [];
  await page.route(
    (url) => url.origin !== host.origin,
    (route) => {
      outside.push(route.request().url());
      return route.abort();
    },
  );
  await page.goto(host.url);
  await expect(page.getByTestId('sync-badge')).toHaveText('live');
  const demo = host.demo!;
  const found = await page.evaluate(
    async ({ marketUrl, marketWs }) => {
      const g = globalThis as Record<string, unknown>;
      const violations: string[] = [];
      document.addEventListener('securitypolicyviolation', (e) => violations.push(`${e.violatedDirective} ${e.blockedURI}`));
      const attempt = async (run: () => Promise<unknown> | unknown): Promise<string> => {
        try {
          await run();
          return 'allowed';
        } catch (err) {
          return `refused: ${(err as Error).name}`;
        }
      };
      const socketOpens = (url: string) =>
        new Promise<string>((resolve) => {
          try {
            const ws = new WebSocket(url);
            ws.onopen = () => resolve('allowed');
            ws.onerror = () => resolve('refused');
            setTimeout(() => resolve('refused'), 2_000);
          } catch (err) {
            resolve(`refused: ${(err as Error).name}`);
          }
        });
      const xhr = (url: string) =>
        new Promise<string>((resolve) => {
          try {
            const r = new XMLHttpRequest();
            r.open('GET', url);
            r.onload = () => resolve('allowed');
            r.onerror = () => resolve('refused');
            r.send();
          } catch (err) {
            resolve(`refused: ${(err as Error).name}`);
          }
        });
      const eventSource = (url: string) =>
        new Promise<string>((resolve) => {
          try {
            const es = new EventSource(url);
            es.onopen = () => resolve('allowed');
            es.onerror = () => {
              es.close();
              resolve('refused');
            };
          } catch (err) {
            resolve(`refused: ${(err as Error).name}`);
          }
        });
      const script = (src: string) =>
        new Promise<string>((resolve) => {
          const el = document.createElement('script');
          el.onload = () => resolve('loaded');
          el.onerror = () => resolve('refused');
          el.src = src;
          document.body.append(el);
          setTimeout(() => resolve('refused'), 1_500);
        });
      // A refused frame still fires `load` (with an error page inside), so frames are judged by the
      // CSP's violation reports and by the requests that left the page (none).
      const frame = (src: string) =>
        new Promise<void>((resolve) => {
          const el = document.createElement('iframe');
          el.onload = () => resolve();
          el.src = src;
          document.body.append(el);
          setTimeout(resolve, 1_000);
        });
      const result = {
        node: {
          require: typeof g['require'],
          process: typeof g['process'],
          module: typeof g['module'],
          Buffer: typeof g['Buffer'],
          global: typeof g['global'],
          electron: typeof g['electron'],
        },
        fetchOutside: await attempt(() => fetch('https://example.com/')),
        fetchMarket: await attempt(() => fetch(`${marketUrl}/public/v1`)),
        fetchFile: await attempt(() => fetch('file:///etc/passwd')),
        xhrMarket: await xhr(`${marketUrl}/public/v1/user`),
        socketMarket: await socketOpens(marketWs),
        eventSource: await eventSource('https://example.com/events'),
        remoteScript: await script('https://example.com/x.js'),
        frames: await Promise.all([frame('https://example.com/'), frame('file:///etc/passwd')]),
        // whatever a refused frame shows, the page cannot read it
        frameReadable: [...document.querySelectorAll('iframe')].some((f) => {
          try {
            return (f.contentDocument?.body?.textContent ?? '').includes('root:');
          } catch {
            return false;
          }
        }),
        evalCode: await attempt(() => eval('1 + 1')),
        newFunction: await attempt(() => new Function('return 1')()),
        violations: [] as string[],
      };
      await new Promise((r) => setTimeout(r, 300));
      result.violations = violations;
      return result;
    },
    { marketUrl: demo.baseUrl, marketWs: demo.wsUrl },
  );

  expect(found.node).toEqual({ require: 'undefined', process: 'undefined', module: 'undefined', Buffer: 'undefined', global: 'undefined', electron: 'undefined' });
  for (const key of ['fetchOutside', 'fetchMarket', 'fetchFile', 'evalCode', 'newFunction'] as const) expect(found[key], key).toMatch(/^refused/);
  for (const key of ['xhrMarket', 'socketMarket', 'eventSource', 'remoteScript'] as const) expect(found[key], key).toBe('refused');
  expect(found.frameReadable).toBe(false);
  // the CSP refused them (not the network): each left a violation report
  const directives = found.violations.join('\n');
  expect(directives).toMatch(/connect-src https:\/\/example\.com/);
  expect(directives).toMatch(new RegExp(`connect-src ${demo.baseUrl.replace(/[.]/g, '\\.')}`));
  expect(directives).toMatch(/script-src(-elem)? https:\/\/example\.com/);
  expect(directives).toMatch(/frame-src https:\/\/example\.com/);
  expect(directives).toMatch(/connect-src file/);
  // and nothing the page did left the host's origin
  expect(outside).toEqual([]);
  // the bridge still works
  const status = await page.evaluate(() => window.skindesk?.getStatus({}));
  expect(status).toMatchObject({ ok: true, value: { state: 'live' } });
});

// zod builds its object schemas with a `new Function` probe unless told `jitless` first; the probe is
// caught, but the CSP still reports it. So from the first script on, the app itself must trip nothing.
const VIOLATIONS_KEY = '__cspViolations';

/** Records every CSP violation of the page from before its first script runs. */
async function watchCspViolations(page: Page): Promise<() => Promise<unknown>> {
  await page.addInitScript((key) => {
    const seen: string[] = [];
    (globalThis as Record<string, unknown>)[key] = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  }, VIOLATIONS_KEY);
  return () => page.evaluate((key) => (globalThis as Record<string, unknown>)[key], VIOLATIONS_KEY);
}

test('loading the app trips no CSP violation of its own', async ({ page }) => {
  const violations = await watchCspViolations(page);
  await page.goto(host.url);
  await expect(page.getByTestId('sync-badge')).toHaveText('live');
  expect(await violations()).toEqual([]);
});

// zod keeps its settings on globalThis, so here the bridge's setting reaches the renderer; in Electron the
// preload runs in an isolated world of its own, and the renderer has to set it for itself, in time.
test('the renderer without the bridge trips no CSP violation either', async ({ page }) => {
  const violations = await watchCspViolations(page);
  await page.route(`${host.origin}${BRIDGE_SCRIPT_PATH}`, (route) =>
    route.fulfill({ contentType: 'text/javascript', body: '' }),
  );
  await page.goto(host.url);
  await expect(page.getByRole('heading', { name: 'Skindesk', level: 1 })).toBeVisible();
  expect(await violations()).toEqual([]);
});

const BAD_INPUTS: unknown[] = [null, 42, 'text', [], { unknownKey: 1 }, { id: -1, apiKey: '', url: 'file:///etc/passwd', filter: 7 }];

test('every call refuses invalid input, through the bridge and as raw frames, before any handler runs', async ({ page }) => {
  await page.goto(host.url);
  await expect(page.getByTestId('sync-badge')).toHaveText('live');
  const viaBridge = await page.evaluate(
    async ({ names, bad }) => {
      const api = window.skindesk as unknown as Record<string, (input: unknown) => Promise<{ ok: boolean; error?: { code: string } }>>;
      const out: string[] = [];
      for (const name of names) {
        for (const input of bad) {
          const r = await api[name]!(input).catch((e: Error) => ({ ok: false, error: { code: `threw ${e.message}` } }));
          out.push(`${name} ${r.ok ? 'ok' : r.error?.code}`);
        }
      }
      return out;
    },
    { names: IPC_CALL_NAMES as string[], bad: BAD_INPUTS },
  );
  expect(viaBridge.length).toBe(IPC_CALL_NAMES.length * BAD_INPUTS.length);
  for (const answer of viaBridge) expect(answer).toMatch(/ INVALID_INPUT$/);

  // A compromised page would skip the bridge and write frames itself. From a page of the host's origin
  // that does not run the app (so the app's own calls do not count), with the host's cookie.
  await page.goto(`${host.origin}/no-app-here`);
  handlerRuns.clear();
  const answers = await page.evaluate(
    async ({ names, wirePath, bad }) => {
      const socket = new WebSocket(`ws://${location.host}${wirePath}`);
      await new Promise((resolve, reject) => {
        socket.onopen = resolve;
        socket.onerror = reject;
      });
      const replies = new Map<number, string>();
      socket.onmessage = (m) => {
        const frame = JSON.parse(String(m.data)) as { t: string; id?: number; response?: { ok: boolean; error?: { code: string } } };
        if (frame.t === 'result' && frame.id !== undefined) replies.set(frame.id, frame.response?.ok ? 'ok' : (frame.response?.error?.code ?? '?'));
      };
      let id = 1;
      for (const name of [...names, 'noSuchCall', '__proto__', 'constructor']) {
        for (const input of bad) socket.send(JSON.stringify({ t: 'call', id: id++, name, input }));
      }
      const sent = id - 1;
      const deadline = Date.now() + 10_000;
      while (replies.size < sent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      // Malformed frames: the host closes the socket, and the app is unharmed.
      const closed = new Promise<number>((resolve) => (socket.onclose = (e) => resolve(e.code)));
      socket.send('{not json');
      return { raw: [...replies.values()], sent, closeCode: await closed };
    },
    { names: IPC_CALL_NAMES as string[], wirePath: WIRE_PATH, bad: BAD_INPUTS },
  );
  expect(answers.raw.length).toBe(answers.sent);
  expect(answers.raw.filter((code) => code !== 'INVALID_INPUT' && code !== 'UNKNOWN_CALL')).toEqual([]);
  expect(answers.raw.filter((code) => code === 'UNKNOWN_CALL').length).toBe(3 * BAD_INPUTS.length);
  expect(answers.closeCode).toBe(1007);
  expect(Object.fromEntries(handlerRuns)).toEqual({});
  // still serving, and the counting works: a valid call runs its handler once
  await page.goto(host.url);
  const status = await page.evaluate(() => window.skindesk?.getStatus({}));
  expect(status).toMatchObject({ ok: true });
  expect(handlerRuns.get('getStatus')).toBeGreaterThanOrEqual(1);
});
