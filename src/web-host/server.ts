/**
 * The test host's HTTP + WebSocket server: the built renderer (index.html with the bridge script added
 * before the app bundle), the bridge script, and the IPC socket, all behind the access checks.
 */
import { readFile } from 'node:fs/promises';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { resolveStaticFile, staticFileHeaders } from '../core/app/static-files.ts';
import {
  BRIDGE_SCRIPT_PATH,
  type IpcDispatch,
  MAX_WIRE_FRAME_BYTES,
  type PushSink,
  type ServerFrame,
  WIRE_PATH,
  clientFrame,
} from '../shared/ipc/index.ts';
import { type AccessPolicy, checkCookie, checkHost, checkSocket, cookieName, tokensEqual } from './access.ts';

export interface HostServerOptions {
  rendererDir: string;
  bridgeScript: string;
  dispatch: IpcDispatch;
  /** Content-Security-Policy header value for every page response. */
  csp: (port: number) => string;
  onRefusal?: (what: string, reason: string) => void;
}

export interface HostServer {
  server: Server;
  port: number;
  /** Sends a push to every connected page. */
  broadcast: PushSink;
  /** Open IPC sockets (for tests). */
  connections(): number;
  close(): Promise<void>;
}

/** index.html with the bridge script inserted before the first script, so window.skindesk exists first. */
export function injectBridge(html: string): string {
  const tag = `<script src="${BRIDGE_SCRIPT_PATH}"></script>\n    `;
  const at = html.indexOf('<script');
  if (at === -1) throw new Error('index.html has no <script>: is out/renderer a renderer build?');
  return html.slice(0, at) + tag + html.slice(at);
}

/**
 * The redirect target of the token exchange, always a path on this host: a path that starts with `//`
 * (`/.//evil.example/` parses to one) would be read by the browser as another site's address.
 */
function sameHostLocation(url: URL): string {
  return `/${url.pathname.replace(/^[/\\]+/, '')}${url.search}`;
}

function send(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(text);
}

export async function startHostServer(
  port: number,
  token: string,
  options: HostServerOptions,
): Promise<HostServer> {
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_WIRE_FRAME_BYTES });
  let policy: AccessPolicy = { port, token };
  const refuse = (what: string, reason: string) => options.onRefusal?.(what, reason);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const host = checkHost(req, policy);
    if (!host.ok) return void send(res, host.status, host.reason);
    if (req.method !== 'GET' && req.method !== 'HEAD') return void send(res, 405, 'method not allowed');
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    // The printed URL: trade the token for a cookie, and drop it from the address bar.
    const given = url.searchParams.get('token');
    if (given !== null) {
      if (!tokensEqual(given, policy.token)) return void send(res, 401, 'wrong access token');
      url.searchParams.delete('token');
      res.writeHead(302, {
        'Set-Cookie': `${cookieName(policy.port)}=${policy.token}; HttpOnly; SameSite=Strict; Path=/`,
        Location: sameHostLocation(url),
        'Cache-Control': 'no-store',
      });
      return void res.end();
    }
    const access = checkCookie(req, policy);
    if (!access.ok) {
      refuse(`GET ${url.pathname}`, access.reason);
      return void send(res, access.status, access.reason);
    }
    const csp = options.csp(policy.port);
    if (url.pathname === BRIDGE_SCRIPT_PATH) {
      res.writeHead(200, staticFileHeaders('bridge.js', csp));
      return void res.end(options.bridgeScript);
    }
    const file = resolveStaticFile(options.rendererDir, url.pathname);
    if (!file) return void send(res, 404, 'not found');
    let body: Buffer;
    try {
      body = await readFile(file);
    } catch {
      return void send(res, 404, 'not found');
    }
    res.writeHead(200, staticFileHeaders(file, csp));
    res.end(file.endsWith('index.html') ? injectBridge(body.toString('utf8')) : body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'internal error');
      else res.destroy();
    });
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const verdict =
      path === WIRE_PATH
        ? checkSocket(req, policy)
        : ({ ok: false, status: 404, reason: 'no such socket' } as const);
    if (!verdict.ok) {
      refuse(`WebSocket ${path}`, verdict.reason);
      socket.end(`HTTP/1.1 ${verdict.status} Refused\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('message', (data, isBinary) => {
        if (isBinary) return void ws.close(1003, 'text frames only');
        let frame;
        try {
          frame = clientFrame.parse(JSON.parse(data.toString()));
        } catch {
          return void ws.close(1007, 'not a call frame');
        }
        void options.dispatch(frame.name, frame.input).then((response) => {
          const reply: ServerFrame = { t: 'result', id: frame.id, response };
          if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(reply));
        });
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const actualPort = (server.address() as { port: number }).port;
  policy = { port: actualPort, token };

  return {
    server,
    port: actualPort,
    broadcast: (name, payload) => {
      const text = JSON.stringify({ t: 'push', name, payload } satisfies ServerFrame);
      for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(text);
    },
    connections: () => sockets.size,
    close: async () => {
      for (const ws of sockets) ws.terminate();
      wss.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
