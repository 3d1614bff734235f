/**
 * The runner's side of one soak client process: fork, the start handshake, request/answer helpers
 * over the IPC channel, the latest status it reported, its stdout/stderr captured to files, and a
 * kill -9.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import type { ChildMessage, ClientConfig, ClientFigures, ParentMessage } from './protocol.ts';

const CLIENT_SCRIPT = join(import.meta.dirname, 'client.ts');

export class ClientHandle {
  readonly config: ClientConfig;
  readonly child: ChildProcess;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  webhookUrl = '';
  live = false;
  /** Since when (ms) every status report has said live; null while not live. */
  liveSince: number | null = null;
  /** The latest figures the process reported (every second, and with each answer). */
  figures: ClientFigures | null = null;
  readonly #listeners = new Set<(message: ChildMessage) => void>();
  #failure: string | null = null;

  private constructor(config: ClientConfig) {
    this.config = config;
    this.child = fork(CLIENT_SCRIPT, [], {
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      execArgv: ['--no-warnings'],
      // The key travels in the start message only; the environment is the runner's minus nothing secret.
      env: { ...process.env },
    });
    const capture = (stream: NodeJS.ReadableStream | null, name: string) =>
      stream?.pipe(createWriteStream(join(config.artefactDir, `${name}-${config.incarnation}.txt`)));
    capture(this.child.stdout, 'client-stdout');
    capture(this.child.stderr, 'client-stderr');
    this.exited = new Promise((resolve) => this.child.once('exit', (code, signal) => resolve({ code, signal })));
    this.child.on('message', (raw) => {
      const message = raw as ChildMessage;
      if ('figures' in message) this.figures = message.figures;
      if (message.type === 'status') {
        this.live = message.live;
        this.liveSince = message.live ? (this.liveSince ?? Date.now()) : null;
      }
      if (message.type === 'failed') this.#failure = message.message;
      for (const listener of [...this.#listeners]) listener(message);
    });
  }

  static async start(config: ClientConfig, timeoutMs: number): Promise<ClientHandle> {
    const handle = new ClientHandle(config);
    const ready = await handle.request({ type: 'start', config }, 'ready', timeoutMs);
    handle.webhookUrl = ready.webhookUrl;
    return handle;
  }

  send(message: ParentMessage): void {
    if (this.child.connected) this.child.send(message);
  }

  /** Sends `message` and waits for the first answer of type `answer`. */
  request<T extends ChildMessage['type']>(message: ParentMessage, answer: T, timeoutMs: number): Promise<Extract<ChildMessage, { type: T }>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => done(new Error(`the soak client did not answer ${message.type} within ${timeoutMs} ms`)), timeoutMs);
      const onExit = () => done(new Error(`the soak client exited while answering ${message.type}${this.#failure ? ` (${this.#failure})` : ''}`));
      const listener = (m: ChildMessage) => {
        if (m.type === answer) done(null, m as Extract<ChildMessage, { type: T }>);
        else if (m.type === 'failed') done(new Error(`the soak client failed: ${m.message}`));
      };
      const done = (err: Error | null, value?: Extract<ChildMessage, { type: T }>) => {
        clearTimeout(timer);
        this.#listeners.delete(listener);
        this.child.off('exit', onExit);
        if (err) reject(err);
        else resolve(value!);
      };
      this.#listeners.add(listener);
      this.child.once('exit', onExit);
      this.send(message);
    });
  }

  /** Resolves when `check` holds for the reported status, or rejects after `timeoutMs`. */
  async until(check: (h: ClientHandle) => boolean, timeoutMs: number, what: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check(this)) {
      if (this.child.exitCode !== null || this.child.signalCode !== null) throw new Error(`the soak client exited while waiting for ${what}`);
      if (Date.now() > deadline) throw new Error(`${what} did not happen within ${Math.round(timeoutMs / 1000)} s`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  kill9(): void {
    this.child.kill('SIGKILL');
  }
}
