/**
 * A test's book file and the watch runs over it, closed after each test: the runs first (a close
 * flushes to the file), then the file.
 */
import { afterEach } from 'vitest';
import type { WatchService } from '../../../src/core/watch/index.ts';
import { openTestStore, type TestStore } from '../store/helpers.ts';

export interface WatchRuns {
  /** A fresh book file for this test. */
  openStore(): TestStore;
  /** Closes `service` after the test. */
  track<S extends WatchService>(service: S): S;
}

export function watchRunsClosedAfterEach(): WatchRuns {
  let store: TestStore | null = null;
  const services: WatchService[] = [];
  afterEach(async () => {
    for (const s of services.splice(0)) await s.close();
    store?.close();
    store = null;
  });
  return {
    openStore: () => (store = openTestStore()),
    track: (service) => {
      services.push(service);
      return service;
    },
  };
}
