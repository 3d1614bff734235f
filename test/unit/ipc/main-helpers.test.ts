// Pure helpers of the Electron main process and the app services: file serving, window placement, CSP
// header merge, external-link allowlist, redaction.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkExternalLink } from '../../../src/core/app/external-links.ts';
import { Redactor } from '../../../src/core/app/redaction.ts';
import { resolveStaticFile, staticFileHeaders } from '../../../src/core/app/static-files.ts';
import { appUrl, resolveAppFile } from '../../../src/main/app-protocol.ts';
import { withCspHeader } from '../../../src/main/csp-header.ts';
import {
  DEFAULT_WINDOW_STATE,
  fitToDisplays,
  readWindowState,
  writeWindowState,
} from '../../../src/main/window-state.ts';

const root = resolve('/srv/renderer');

describe('static files', () => {
  it('maps paths inside the root', () => {
    expect(resolveStaticFile(root, '/')).toBe(join(root, 'index.html'));
    expect(resolveStaticFile(root, '/assets/index-1.js')).toBe(join(root, 'assets/index-1.js'));
    expect(resolveStaticFile(root, '/assets/a%20b.css')).toBe(join(root, 'assets/a b.css'));
  });

  it.each([
    '/../secret',
    '/..%2f..%2fetc%2fpasswd',
    '/assets/..%2F..%2Fx',
    '/%00',
    '/a%5c..%5c..%5cx',
    '/%E0%A4%A',
  ])('refuses %s', (path) => {
    expect(resolveStaticFile(root, path)).toBeNull();
  });

  it('serves every file with the CSP and nosniff', () => {
    const headers = staticFileHeaders('/x/index.html', "default-src 'self'");
    expect(headers).toMatchObject({
      'Content-Type': 'text/html; charset=utf-8',
      'Content-Security-Policy': "default-src 'self'",
      'X-Content-Type-Options': 'nosniff',
    });
  });

  it('app:// URLs resolve only for our host', () => {
    expect(appUrl()).toBe('app://skindesk/index.html');
    expect(resolveAppFile(root, 'app://skindesk/assets/x.js')).toBe(join(root, 'assets/x.js'));
    expect(resolveAppFile(root, 'app://other/assets/x.js')).toBeNull();
    expect(resolveAppFile(root, 'file:///etc/passwd')).toBeNull();
    expect(resolveAppFile(root, 'app://skindesk/..%2F..%2Fetc%2Fpasswd')).toBeNull();
  });
});

describe('window state', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('round-trips through the file and falls back to defaults for a damaged one', () => {
    dir = mkdtempSync(join(tmpdir(), 'skindesk-window-'));
    const file = join(dir, 'window-state.json');
    expect(readWindowState(file)).toEqual(DEFAULT_WINDOW_STATE);
    writeWindowState(file, { x: 10, y: 20, width: 1200, height: 800, maximized: true });
    expect(readWindowState(file)).toEqual({ x: 10, y: 20, width: 1200, height: 800, maximized: true });
    writeFileSync(file, '{ not json');
    expect(readWindowState(file)).toEqual(DEFAULT_WINDOW_STATE);
    writeFileSync(file, JSON.stringify({ width: 5, height: 5 }));
    expect(readWindowState(file)).toEqual(DEFAULT_WINDOW_STATE);
  });

  it('keeps a position on a display and drops one that is off every display', () => {
    const displays = [{ x: 0, y: 0, width: 1920, height: 1080 }];
    const onScreen = { x: 100, y: 100, width: 1200, height: 800, maximized: false };
    expect(fitToDisplays(onScreen, displays)).toEqual(onScreen);
    const offScreen = { x: 3000, y: 100, width: 1200, height: 800, maximized: false };
    expect(fitToDisplays(offScreen, displays)).toEqual({ width: 1200, height: 800, maximized: false });
    const secondMonitor = [...displays, { x: 1920, y: 0, width: 2560, height: 1440 }];
    expect(fitToDisplays(offScreen, secondMonitor)).toEqual(offScreen);
  });
});

describe('CSP header', () => {
  it('replaces any server CSP with ours and keeps other headers', () => {
    const merged = withCspHeader(
      { 'content-security-policy': ['default-src *'], 'X-Other': 'v' },
      "default-src 'self'",
    );
    expect(merged).toEqual({ 'X-Other': ['v'], 'Content-Security-Policy': ["default-src 'self'"] });
  });
});

describe('external links', () => {
  it.each([
    'https://steamcommunity.com/market/listings/730/AK-47',
    'https://store.steampowered.com/app/730',
    'https://github.com/',
  ])('opens %s', (url) => {
    expect(checkExternalLink(url)).toEqual({ ok: true, url: new URL(url).href });
  });

  it.each([
    ['http', 'http://steamcommunity.com/'],
    ['file', 'file:///etc/passwd'],
    ['javascript', 'javascript:alert(1)'],
    ['steam protocol', 'steam://rungame/730'],
    ['a look-alike host', 'https://steamcommunity.com.evil.example/'],
    ['a suffix trick', 'https://evilsteamcommunity.com/'],
    ['credentials', 'https://user:pw@steamcommunity.com/'],
    ['not a URL', 'steamcommunity'],
  ])('refuses %s', (_label, url) => {
    expect(checkExternalLink(url).ok).toBe(false);
  });

  it("refuses a marketplace's own pages (the renderer can set the market URL)", () => {
    expect(checkExternalLink('https://market.example/item/1').ok).toBe(false);
  });
});

describe('Redactor', () => {
  it('removes every known secret from text, errors and nested data', () => {
    const redactor = new Redactor();
    redactor.add('sk_live_ABCDEF123456');
    const error = new Error('request with sk_live_ABCDEF123456 failed');
    const out = redactor.redactValue({
      msg: 'key=sk_live_ABCDEF123456',
      list: [error],
      header: 'Bearer other-token',
    });
    const text = JSON.stringify(out) + String((out as { list: Error[] }).list[0]?.message);
    expect(text).not.toContain('sk_live_ABCDEF123456');
    expect(text).not.toContain('other-token');
    expect(text).toContain('[redacted]');
  });

  it('stops redacting a forgotten secret', () => {
    const redactor = new Redactor();
    redactor.add('old-secret-1234');
    redactor.forget('old-secret-1234');
    expect(redactor.redact('old-secret-1234')).toBe('old-secret-1234');
  });
});
