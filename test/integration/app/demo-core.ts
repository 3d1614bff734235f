// The real core started on a small, quiet demo market of its own (200 listings, no live activity, no
// rate limits, time 50× faster), for tests that lose answers on purpose and look at what the market
// itself holds afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppCore, RecordingPlatform, demoHandleOf } from '../../../src/core/app/index.ts';
import type { AccountTimings } from '../../../src/core/app/account-services/account-session.ts';
import { MemorySecretStore } from '../../../src/core/secrets/index.ts';
import { type DemoMarket, startDemoMarket } from '../../../src/demo/index.ts';
import type { SkindeskError } from '../../../src/shared/ipc/index.ts';

export interface DemoCore {
  core: AppCore;
  demo: DemoMarket;
  close(): Promise<void>;
}

/** Starts the core on its own demo market (seeded by `seed`) and waits until its book is live. */
export async function startDemoCore(seed: number, accountTimings: AccountTimings): Promise<DemoCore> {
  const dataDir = mkdtempSync(join(tmpdir(), 'skindesk-demo-core-'));
  let demo: DemoMarket | null = null;
  const core = await AppCore.start({
    dataDir,
    secrets: new MemorySecretStore(),
    platform: new RecordingPlatform(),
    startDemoMarket: async ({ seqStart }) => {
      demo = await startDemoMarket({
        port: 0,
        listings: 200,
        rate: 0,
        seed,
        seqStart,
        timeScale: 50,
        rateLimits: false,
      });
      return demoHandleOf(demo);
    },
    version: '0.0.0-test',
    accountTimings,
  });
  await core.whenLive(20_000);
  if (!demo) throw new Error('the core went live without starting its demo market');
  return {
    core,
    demo,
    close: async () => {
      await core.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The error a call was refused with, or null when it succeeded. */
export const failure = (p: Promise<unknown>): Promise<SkindeskError | null> =>
  p.then(
    () => null,
    (e: unknown) => e as SkindeskError,
  );
