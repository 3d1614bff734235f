/**
 * The soak suite's security instruments on their own, quickly: the IPC fuzz against a live AppCore on
 * the demo market (every call refuses every invalid input before any handler runs), and the artefact
 * scan finding a key in each encoding it claims to look for.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AppCore, RecordingPlatform } from '../../../src/core/app/index.ts';
import { MemorySecretStore } from '../../../src/core/secrets/index.ts';
import { type DemoMarket, startDemoMarket } from '../../../src/demo/index.ts';
import { IPC_CALLS, IPC_CALL_NAMES } from '../../../src/shared/ipc/index.ts';
import { candidateInputs, runIpcFuzz, seededRandom } from '../../soak/ipc-fuzz.ts';
import { scanForSecret } from '../../soak/secret-scan.ts';

const dirs: string[] = [];
let demo: DemoMarket | null = null;
let core: AppCore | null = null;

afterAll(async () => {
  await core?.close();
  await demo?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'skindesk-soak-sec-'));
  dirs.push(dir);
  return dir;
}

describe('IPC fuzz', () => {
  it('generates inputs the contract refuses, for every call', () => {
    const rng = seededRandom(5);
    for (const name of IPC_CALL_NAMES) {
      const invalid = candidateInputs(name, rng).filter((input) => !IPC_CALLS[name].input.safeParse(input).success);
      expect(invalid.length, name).toBeGreaterThanOrEqual(20);
    }
  });

  it('refuses every invalid input before any handler runs, and the app still answers', { timeout: 60_000 }, async () => {
    const platform = new RecordingPlatform();
    core = await AppCore.start({
      dataDir: tempDir(),
      secrets: new MemorySecretStore(),
      platform,
      startDemoMarket: async ({ seqStart }) => (demo = await startDemoMarket({ port: 0, listings: 300, rate: 5, seed: 4, seqStart })),
      version: '0.0.0-test',
    });
    await core.whenLive(30_000);
    const report = await runIpcFuzz(core, platform, 9);
    expect(report.problems).toEqual([]);
    expect(report.calls).toBe(IPC_CALL_NAMES.length);
    expect(report.inputs).toBeGreaterThan(IPC_CALL_NAMES.length * 40);
    expect(report).toMatchObject({ handlerRuns: 0, notRefused: 0, crashes: 0, aliveAfter: true, prototypePolluted: false });
    expect(report.hostile).toEqual({ sent: 4, refused: 4, platformActions: 0 });
  });
});

describe('artefact scan', () => {
  it('finds the key in every encoding, in nested files and in extra text, and nothing when it is absent', () => {
    const root = tempDir();
    const key = 'sk_soak_0123456789abcdef';
    mkdirSync(join(root, 'nested'));
    writeFileSync(join(root, 'clean.log'), 'nothing to see\n');
    writeFileSync(join(root, 'nested', 'plain.log'), `Authorization: Bearer ${key}\n`);
    // inside a longer base64 text, at an offset that is not a multiple of 3
    writeFileSync(join(root, 'b64.txt'), Buffer.from(`ab${key}cd`).toString('base64'));
    writeFileSync(join(root, 'hex.bin'), Buffer.from(Buffer.from(key).toString('hex')));
    writeFileSync(join(root, 'wide.bin'), Buffer.from(`x${key}x`, 'utf16le'));
    const report = scanForSecret(key, [root], [{ name: 'progress', text: `key=${encodeURIComponent(key)}` }]);
    expect(report.files).toBe(6);
    expect(report.leaks.sort()).toEqual(
      ['b64.txt: base64', 'b64.txt: base64url', 'hex.bin: hex', 'nested/plain.log: json-escaped', 'nested/plain.log: plain', 'nested/plain.log: url-encoded', 'progress: json-escaped', 'progress: plain', 'progress: url-encoded', 'wide.bin: utf16le'].sort(),
    );
    expect(scanForSecret('sk_other_key_000000', [root]).leaks).toEqual([]);
  });
});
