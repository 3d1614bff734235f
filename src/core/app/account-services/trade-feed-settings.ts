/**
 * Settings of the trade feeds (`trade-feeds.json` in the data folder): OS notifications on status
 * changes, and the local webhook receiver (on or off, its port, the service's header prefix). Kept
 * apart from settings.json, which belongs to the market choice. The signing secret is never here: it
 * lives in the SecretStore with the API key.
 */
import { join } from 'node:path';
import { DEFAULT_WEBHOOK_HEADER_PREFIX } from '../../../shared/api/index.ts';
import { type TradeFeedSettings, tradeFeedSettings } from '../../../shared/ipc/calls-account.ts';
import { readJsonFile, writeJsonFileAtomically } from '../json-file.ts';

export const TRADE_FEED_SETTINGS_FILE = 'trade-feeds.json';

/** A fixed port by default: the https tunnel the user sets up forwards to it, so it must not move. */
export const DEFAULT_WEBHOOK_PORT = 8931;

export const DEFAULT_TRADE_FEED_SETTINGS: TradeFeedSettings = {
  notifyOnStatusChange: true,
  webhook: { enabled: false, port: DEFAULT_WEBHOOK_PORT, headerPrefix: DEFAULT_WEBHOOK_HEADER_PREFIX },
};

export class TradeFeedSettingsStore {
  readonly file: string;
  #current: TradeFeedSettings;
  /** Why the file could not be read, when it could not (defaults are used). */
  readonly loadProblem: string | null;

  constructor(dataDir: string) {
    this.file = join(dataDir, TRADE_FEED_SETTINGS_FILE);
    const { value, problem } = readJsonFile(this.file, tradeFeedSettings, DEFAULT_TRADE_FEED_SETTINGS, 'trade feed settings');
    this.#current = value;
    this.loadProblem = problem;
  }

  get(): TradeFeedSettings {
    return structuredClone(this.#current);
  }

  set(next: TradeFeedSettings): TradeFeedSettings {
    const parsed = tradeFeedSettings.parse(next);
    writeJsonFileAtomically(this.file, parsed);
    this.#current = parsed;
    return this.get();
  }
}
