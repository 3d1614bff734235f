/**
 * The browser test host: the real renderer and the real core, without Electron. A loopback-only server
 * serves the built renderer (out/renderer) and speaks the same IPC contract over a WebSocket to the same
 * app services (src/core/app) Electron main uses; a bridge script defines the same `window.skindesk`
 * the preload does, so the renderer cannot tell the difference. Playwright drives it in Chromium;
 * `npm run web` starts it by hand (scripts/web.mjs).
 *
 * Like src/main it is a composition root: it may start the demo market (core may not).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import {
  AppCore,
  type AppLog,
  RecordingPlatform,
  Redactor,
  type SessionSyncOptions,
  consoleLog,
  demoHandleOf,
} from '../core/app/index.ts';
import type { AccountTimings } from '../core/app/account-services/account-session.ts';
import { MemorySecretStore, type SecretStore } from '../core/secrets/index.ts';
import { type DemoMarket, type DemoMarketOptions, startDemoMarket } from '../demo/index.ts';
import { contentSecurityPolicy } from '../shared/ipc/index.ts';
import { newAccessToken } from './access.ts';
import { bundleBridgeScript } from './bridge-bundle.ts';
import { startHostServer } from './server.ts';

export const DEFAULT_RENDERER_DIR = resolve(import.meta.dirname, '../../out/renderer');

export interface WebHostOptions {
  /** TCP port on 127.0.0.1 (default 0: a free one). The host never listens beyond loopback. */
  port?: number;
  /** The built renderer (default out/renderer; run `npm run build` first). */
  rendererDir?: string;
  /** Settings and book mirrors; default a fresh temporary folder, removed on close. */
  dataDir?: string;
  /** Default: an in-memory store (the test host never touches the system keychain). */
  secrets?: SecretStore;
  /** Options of the embedded demo market (port, host and seqStart are the host's). */
  demo?: Omit<DemoMarketOptions, 'port' | 'host' | 'seqStart'>;
  syncOptions?: SessionSyncOptions;
  /** Trade poller and withdrawal tracker cadence (e2e tests shorten them). */
  accountTimings?: AccountTimings;
  /** Where "save file" dialogs (the order export) write; default `exports` in the data folder. */
  exportDir?: string;
  /** Default: console, redacted. */
  log?: AppLog;
  version?: string;
}

export interface WebHost {
  /** The address to open, with the access token (`http://127.0.0.1:PORT/?token=…`). */
  url: string;
  /** The host's origin, without the token. */
  origin: string;
  token: string;
  port: number;
  /** The app services behind the page: dispatch, status, settings, the current market session. */
  core: AppCore;
  /** Links the page asked to open (the host cannot open a browser; it records them). */
  platform: RecordingPlatform;
  /** The embedded demo market in use right now, when the app is on the demo market. */
  readonly demo: DemoMarket | null;
  /** Open IPC sockets. */
  connections(): number;
  close(): Promise<void>;
}

export async function startWebHost(options: WebHostOptions = {}): Promise<WebHost> {
  const rendererDir = resolve(options.rendererDir ?? DEFAULT_RENDERER_DIR);
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(`${rendererDir}/index.html is missing: run \`npm run build\` first`);
  }
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'skindesk-web-'));
  const redactor = new Redactor();
  const log = options.log ?? consoleLog((text) => redactor.redact(text), 'web-host');
  const platform = new RecordingPlatform({
    onOpen: (url) => log.info(`the page asked to open ${url} (recorded, not opened)`),
    saveDir: options.exportDir ?? join(dataDir, 'exports'),
  });
  let currentDemo: DemoMarket | null = null;

  const bridgeScript = await bundleBridgeScript();
  let core: AppCore | null = null;
  try {
    core = await AppCore.start({
      dataDir,
      secrets: options.secrets ?? new MemorySecretStore(),
      platform,
      startDemoMarket: async ({ seqStart }) => {
        const demo = await startDemoMarket({ ...options.demo, port: 0, host: '127.0.0.1', seqStart });
        currentDemo = demo;
        return demoHandleOf(demo, () => {
          if (currentDemo === demo) currentDemo = null;
        });
      },
      version: options.version ?? '0.0.0-web',
      log,
      redactor,
      ...(options.syncOptions ? { syncOptions: options.syncOptions } : {}),
      ...(options.accountTimings ? { accountTimings: options.accountTimings } : {}),
    });
    const token = newAccessToken();
    const appCore = core;
    const server = await startHostServer(options.port ?? 0, token, {
      rendererDir,
      bridgeScript,
      dispatch: appCore.dispatch,
      csp: (port) =>
        contentSecurityPolicy({ extraConnect: [`ws://127.0.0.1:${port}`, `ws://localhost:${port}`] }),
      onRefusal: (what, reason) => log.warn(`refused ${what}: ${reason}`),
    });
    const unsubscribe = appCore.subscribe(server.broadcast);
    const origin = `http://127.0.0.1:${server.port}`;
    let closing: Promise<void> | null = null;
    return {
      url: `${origin}/?token=${token}`,
      origin,
      token,
      port: server.port,
      core: appCore,
      platform,
      get demo() {
        return currentDemo;
      },
      connections: server.connections,
      close: () => {
        closing ??= (async () => {
          unsubscribe();
          await server.close();
          await appCore.close();
          if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
        })();
        return closing;
      },
    };
  } catch (err) {
    await core?.close();
    if (ownDataDir) rmSync(dataDir, { recursive: true, force: true });
    throw err;
  }
}
