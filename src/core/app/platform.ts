/** What the app services need from the host they run in (Electron, or the browser test host). */
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';

export interface SaveFileRequest {
  title: string;
  /** File name offered (no folder): the host picks the folder (Electron: Downloads). */
  defaultName: string;
  filters: { name: string; extensions: string[] }[];
}

export interface AppPlatform {
  /** Opens an already-vetted https URL in the user's browser. */
  openExternal(url: string): Promise<void>;
  /** An OS notification (Electron: Notification); never throws, a host without one ignores it. */
  notify(title: string, body: string): void;
  /** Asks where to save a file; null when the user canceled. */
  chooseSaveFile(request: SaveFileRequest): Promise<string | null>;
}

export interface RecordingPlatformOptions {
  onOpen?: (url: string) => void;
  /** Where "saved" files go (default: the OS temp folder). */
  saveDir?: string;
}

/**
 * The test host's platform: it cannot open a browser, show an OS notification or a save dialog, so it
 * records links and notifications, and answers save dialogs with a fresh path in `saveDir`.
 */
export class RecordingPlatform implements AppPlatform {
  readonly opened: string[] = [];
  readonly notifications: { title: string; body: string; at: number }[] = [];
  readonly saved: string[] = [];
  readonly #onOpen: ((url: string) => void) | undefined;
  readonly #saveDir: string;

  constructor(options: RecordingPlatformOptions | ((url: string) => void) = {}) {
    const o = typeof options === 'function' ? { onOpen: options } : options;
    this.#onOpen = o.onOpen;
    this.#saveDir = o.saveDir ?? tmpdir();
  }

  async openExternal(url: string): Promise<void> {
    this.opened.push(url);
    this.#onOpen?.(url);
  }

  notify(title: string, body: string): void {
    this.notifications.push({ title, body, at: Date.now() });
  }

  async chooseSaveFile(request: SaveFileRequest): Promise<string | null> {
    mkdirSync(this.#saveDir, { recursive: true });
    // Never overwrite: a second export of the same name gets a numbered sibling.
    const name = basename(request.defaultName);
    const ext = extname(name);
    const stem = name.slice(0, name.length - ext.length);
    let file = join(this.#saveDir, name);
    for (let n = 2; existsSync(file) && n < 10_000; n++) file = join(this.#saveDir, `${stem} (${n})${ext}`);
    this.saved.push(file);
    return file;
  }
}
