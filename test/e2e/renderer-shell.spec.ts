// The built renderer (out/renderer, from `npm run build`) served over HTTP and opened in Chromium.
// A later issue replaces this tiny server with the full browser test host.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { expect, test } from '@playwright/test';

const rendererDir = resolve(import.meta.dirname, '../../out/renderer');
const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

function serve(dir: string): Promise<Server> {
  const server = createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://localhost').pathname);
    const file = normalize(join(dir, pathname === '/' ? 'index.html' : pathname));
    if (!file.startsWith(dir + sep)) {
      res.writeHead(403).end();
      return;
    }
    readFile(file).then(
      (body) => {
        res.writeHead(200, { 'content-type': contentTypes[extname(file)] ?? 'application/octet-stream' });
        res.end(body);
      },
      () => res.writeHead(404).end(),
    );
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok(server)));
}

let server: Server;
let baseUrl: string;

test.beforeAll(async () => {
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(`${rendererDir}/index.html is missing: run \`npm run build\` first`);
  }
  server = await serve(rendererDir);
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

test.afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
});

test('the built renderer shows the Skindesk shell', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console: ${msg.text()}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });

  await page.goto(baseUrl);
  await expect(page).toHaveTitle('Skindesk');
  await expect(page.getByRole('banner').getByRole('heading', { level: 1, name: 'Skindesk' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.screenshot({ path: 'test-results/shell.png', fullPage: true });

  // the CSP in index.html must not block the app's own script or styles
  expect(problems).toEqual([]);
});
