/** What the app services need from the host they run in (Electron, or the browser test host). */
export interface AppPlatform {
  /** Opens an already-vetted https URL in the user's browser. */
  openExternal(url: string): Promise<void>;
}

/** The test host's platform: it cannot open a browser, so it records what would have been opened. */
export class RecordingPlatform implements AppPlatform {
  readonly opened: string[] = [];
  readonly #onOpen: ((url: string) => void) | undefined;

  constructor(onOpen?: (url: string) => void) {
    this.#onOpen = onOpen;
  }

  async openExternal(url: string): Promise<void> {
    this.opened.push(url);
    this.#onOpen?.(url);
  }
}
