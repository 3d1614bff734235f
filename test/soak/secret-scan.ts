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

function forms(secret: string): [string, Buffer][] {
  const utf8 = Buffer.from(secret, 'utf8');
  return [
    ['plain', utf8],
    ['url-encoded', Buffer.from(encodeURIComponent(secret), 'utf8')],
    ['json-escaped', Buffer.from(JSON.stringify(secret).slice(1, -1), 'utf8')],
    ['base64', Buffer.from(utf8.toString('base64').replace(/=+$/, ''), 'utf8')],
    ['base64url', Buffer.from(utf8.toString('base64url'), 'utf8')],
    ['hex', Buffer.from(utf8.toString('hex'), 'utf8')],
    ['utf16le', Buffer.from(secret, 'utf16le')],
  ];
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
    for (const [form, needle] of needles) if (bytes.includes(needle)) report.leaks.push(`${name}: ${form}`);
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
