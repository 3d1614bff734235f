/**
 * The app's settings file (`settings.json` in the data folder): which market to use. Secrets are never
 * here (they live in a SecretStore). Written atomically; a damaged or unknown file falls back to defaults
 * and is reported rather than crashing the app.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { z } from 'zod';

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
    const { settings, problem } = readSettings(this.file);
    this.#current = settings;
    this.loadProblem = problem;
  }

  get(): AppSettings {
    return structuredClone(this.#current);
  }

  update(change: (draft: AppSettings) => void): AppSettings {
    const draft = this.get();
    change(draft);
    const next = appSettings.parse(draft);
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(next, null, 2)}\n`);
    renameSync(tmp, this.file);
    this.#current = next;
    return this.get();
  }
}

function readSettings(file: string): { settings: AppSettings; problem: string | null } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      return { settings: DEFAULT_SETTINGS, problem: null };
    return {
      settings: DEFAULT_SETTINGS,
      problem: `settings could not be read (${(err as Error).message}); defaults are used`,
    };
  }
  try {
    const parsed = appSettings.safeParse(JSON.parse(text));
    if (parsed.success) return { settings: parsed.data, problem: null };
  } catch {
    // not JSON: reported below
  }
  return {
    settings: DEFAULT_SETTINGS,
    problem: `${file} is damaged; defaults are used until settings are saved again`,
  };
}
