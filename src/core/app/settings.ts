/**
 * The app's settings file (`settings.json` in the data folder): which market to use. Secrets are never
 * here (they live in a SecretStore). Written atomically; a damaged or unknown file falls back to defaults
 * and is reported rather than crashing the app.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeJsonFileAtomically } from './json-file.ts';

export const SETTINGS_FILE_NAME = 'settings.json';

export const appSettings = z.object({
  market: z
    .object({
      useDemo: z.boolean().default(false),
      baseUrl: z.string().nullable().default(null),
    })
    .default({ useDemo: false, baseUrl: null }),
});
export type AppSettings = z.infer<typeof appSettings>;

export const DEFAULT_SETTINGS: AppSettings = appSettings.parse({});

export class SettingsStore {
  readonly file: string;
  #current: AppSettings;
  /** Why the file could not be read, when it could not (shown once as a notification). */
  readonly loadProblem: string | null;

  constructor(dataDir: string) {
    this.file = join(dataDir, SETTINGS_FILE_NAME);
    const { value, problem } = readJsonFile(this.file, appSettings, DEFAULT_SETTINGS, 'settings');
    this.#current = value;
    this.loadProblem = problem;
  }

  get(): AppSettings {
    return structuredClone(this.#current);
  }

  update(change: (draft: AppSettings) => void): AppSettings {
    const draft = this.get();
    change(draft);
    const next = appSettings.parse(draft);
    writeJsonFileAtomically(this.file, next);
    this.#current = next;
    return this.get();
  }
}
