import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../../src/shared/ipc/index.ts';

const indexHtml = readFileSync(resolve(import.meta.dirname, '../../../src/renderer/index.html'), 'utf8');

describe('content security policy', () => {
  it('index.html carries the same policy as the headers (minus header-only directives)', () => {
    const meta = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(indexHtml);
    expect(meta?.[1]).toBe(contentSecurityPolicy({ meta: true }));
  });

  it('allows scripts only from the app itself: no inline script, no eval, no remote code', () => {
    const policy = contentSecurityPolicy();
    const script = /script-src ([^;]+)/.exec(policy)?.[1];
    expect(script).toBe("'self'");
    expect(policy).toMatch(/default-src 'self'/);
    expect(policy).toMatch(/object-src 'none'/);
    expect(policy).toMatch(/frame-ancestors 'none'/);
    expect(policy).not.toMatch(/unsafe-eval/);
  });

  it('adds connect sources only where asked', () => {
    expect(contentSecurityPolicy({ extraConnect: ['ws://127.0.0.1:5000'] })).toMatch(
      /connect-src 'self' ws:\/\/127\.0\.0\.1:5000;/,
    );
    expect(contentSecurityPolicy({ meta: true })).not.toMatch(/frame-ancestors/);
  });
});
