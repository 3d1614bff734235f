/**
 * Looks for a secret in every file of a run: logs, captured stdout/stderr, crash output, exports, the
 * recorded IPC payloads, the settings and the SQLite database (with its WAL), byte for byte. Besides
 * the plain text it looks for the encodings a careless writer would produce: URL-encoded, JSON-escaped,
 * base64 (both alphabets), hex and UTF-16.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

export interface ScanReport {
  files: number;
  bytes: number;
  /** `file: encoding` for every hit (must be empty). */
  leaks: string[];
}

/**
 * The secret inside a longer base64 text: its encoding depends on where it starts (offset mod 3), so
 * each of the three alignments is searched, by the characters that encode the secret's bytes alone.
 */
function base64Forms(utf8: Buffer, encoding: 'base64' | 'base64url'): Buffer[] {
  const out: Buffer[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const text = Buffer.concat([Buffer.alloc(offset), utf8]).toString(encoding);
    const whole = Math.floor((offset + utf8.length) / 3) * 4;
    out.push(Buffer.from(text.slice(offset === 0 ? 0 : 4, whole), 'utf8'));
  }
  return out;
}

function forms(secret: string): [string, Buffer][] {
  const utf8 = Buffer.from(secret, 'utf8');
  const found: [string, Buffer][] = [
    ['plain', utf8],
    ['url-encoded', Buffer.from(encodeURIComponent(secret), 'utf8')],
    ['json-escaped', Buffer.from(JSON.stringify(secret).slice(1, -1), 'utf8')],
    ['hex', Buffer.from(utf8.toString('hex'), 'utf8')],
    ['utf16le', Buffer.from(secret, 'utf16le')],
  ];
  for (const encoding of ['base64', 'base64url'] as const) for (const form of base64Forms(utf8, encoding)) found.push([encoding, form]);
  return found;
}

function* walk(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.isFile()) yield path;
  }
}

export function scanForSecret(secret: string, roots: readonly string[], extra: { name: string; text: string }[] = []): ScanReport {
  const report: ScanReport = { files: 0, bytes: 0, leaks: [] };
  const needles = forms(secret);
  const check = (name: string, bytes: Buffer) => {
    report.files++;
    report.bytes += bytes.length;
    const hits = new Set<string>();
    for (const [form, needle] of needles) if (bytes.includes(needle)) hits.add(`${name}: ${form}`);
    report.leaks.push(...hits);
  };
  for (const root of roots) {
    for (const path of walk(root)) {
      if (statSync(path).size > 2 * 1024 * 1024 * 1024) continue;
      check(relative(root, path) || path, readFileSync(path));
    }
  }
  for (const { name, text } of extra) check(name, Buffer.from(text, 'utf8'));
  return report;
}
