/**
 * Who may use the test host: it listens on loopback only, and every request must carry the random access
 * token — first in the URL the host prints (`/?token=…`), which is swapped for an HttpOnly SameSite
 * cookie and a redirect, then in that cookie. The Host header must name the host itself (no DNS
 * rebinding) and the WebSocket's Origin must be the host's own page (no cross-site socket hijacking).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export function newAccessToken(): string {
  return randomBytes(24).toString('base64url');
}

export function tokensEqual(given: string | null | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Cookies are not isolated by port, so the name carries it: two hosts never overwrite each other's. */
export function cookieName(port: number): string {
  return `skindesk_host_${port}`;
}

export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export type AccessVerdict = { ok: true } | { ok: false; status: number; reason: string };

export interface AccessPolicy {
  port: number;
  token: string;
}

export function checkHost(req: IncomingMessage, policy: AccessPolicy): AccessVerdict {
  const host = req.headers.host?.toLowerCase();
  if (!host || !allowedHosts(policy.port).includes(host)) {
    return {
      ok: false,
      status: 421,
      reason: 'wrong Host header (the test host answers only to 127.0.0.1 and localhost)',
    };
  }
  return { ok: true };
}

export function checkCookie(req: IncomingMessage, policy: AccessPolicy): AccessVerdict {
  const given = readCookie(req.headers.cookie, cookieName(policy.port));
  if (!tokensEqual(given, policy.token)) {
    return {
      ok: false,
      status: 401,
      reason: 'missing or wrong access token: open the URL that `npm run web` printed',
    };
  }
  return { ok: true };
}

/** The WebSocket upgrade: right host, cookie, and an Origin that is the host's own page. */
export function checkSocket(req: IncomingMessage, policy: AccessPolicy): AccessVerdict {
  const host = checkHost(req, policy);
  if (!host.ok) return host;
  const origin = req.headers.origin;
  if (!origin || !allowedHosts(policy.port).some((h) => origin === `http://${h}`)) {
    return { ok: false, status: 403, reason: 'the socket was not opened by the host’s own page' };
  }
  return checkCookie(req, policy);
}
