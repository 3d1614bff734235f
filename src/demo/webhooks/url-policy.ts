/**
 * Which webhook URLs are accepted (spec §6.2): https, resolving only to public addresses; otherwise
 * INVALID_WEBHOOK_URL. The demo market also accepts http or https to a loopback address — receivers in
 * tests and on a developer's machine listen on 127.0.0.1 — and nothing else that is not public.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { MarketError } from '../market/errors.ts';

export type AddressLookup = (hostname: string) => Promise<string[]>;

export interface WebhookUrlPolicy {
  /** Demo mode: http(s) to loopback addresses is allowed. */
  allowLoopback: boolean;
  lookup?: AddressLookup;
}

export interface CheckedWebhookUrl {
  url: URL;
  /** The addresses the check approved; deliveries connect to these (no second DNS answer sneaks in). */
  addresses: string[];
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Special-purpose ranges (RFC 6890 and friends): private, shared, loopback, link-local, documentation... */
const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  // IPv4-compatible addresses (deprecated, ::a.b.c.d) and the deprecated site-local range
  ['::', 96],
  ['fec0::', 10],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');
}

/** An IPv4 address written as IPv6 (::ffff:a.b.c.d) is judged as the IPv4 address. */
function normalise(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return { address: mapped[1]!, family: 'ipv4' };
  return { address, family: isIP(address) === 6 ? 'ipv6' : 'ipv4' };
}

export function isLoopbackAddress(address: string): boolean {
  const a = normalise(address);
  return LOOPBACK.check(a.address, a.family);
}

/** The 8 groups of an IPv6 address (any text form, dotted tail included), or null. */
function ipv6Groups(address: string): number[] | null {
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head = '', tail] = canonical.split('::');
  const part = (text: string) => (text === '' ? [] : text.split(':').map((g) => parseInt(g, 16)));
  const left = part(head);
  const right = tail === undefined ? [] : part(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

export function isPublicAddress(address: string): boolean {
  const a = normalise(address);
  if (isIP(a.address) === 0 || NOT_PUBLIC.check(a.address, a.family)) return false;
  if (a.family === 'ipv6') {
    // 6to4 (2002::/16) carries an IPv4 address in its next 32 bits: public only if that one is.
    const g = ipv6Groups(a.address);
    if (g && g[0] === 0x2002) return isPublicAddress(`${g[1]! >> 8}.${g[1]! & 0xff}.${g[2]! >> 8}.${g[2]! & 0xff}`);
  }
  return true;
}

const defaultLookup: AddressLookup = async (hostname) => (await dnsLookup(hostname, { all: true, verbatim: true })).map((r) => r.address);

const invalid = (message: string) => new MarketError('INVALID_WEBHOOK_URL', message);

export async function checkWebhookUrl(raw: string, policy: WebhookUrlPolicy): Promise<CheckedWebhookUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid('the webhook URL is not a valid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalid('the webhook URL must use https');
  if (url.username || url.password) throw invalid('the webhook URL must not carry credentials');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await (policy.lookup ?? defaultLookup)(host);
    } catch {
      throw invalid(`the webhook host ${host} does not resolve`);
    }
  }
  if (addresses.length === 0) throw invalid(`the webhook host ${host} does not resolve`);
  if (policy.allowLoopback && addresses.every(isLoopbackAddress)) return { url, addresses };
  if (url.protocol !== 'https:') throw invalid('the webhook URL must use https');
  if (!addresses.every(isPublicAddress)) throw invalid(`the webhook host ${host} must resolve to public addresses only`);
  return { url, addresses };
}
