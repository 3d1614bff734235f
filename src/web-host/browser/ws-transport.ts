/**
 * The IPC transport of the browser test host: the contract's calls and pushes as JSON frames over one
 * WebSocket to the host (same origin; the host's cookie authenticates it). Calls made before the socket
 * opens wait for it; a lost connection fails the calls in flight (the API turns that into DISCONNECTED)
 * and is re-opened a bounded number of times.
 */
import {
  type ClientFrame,
  type IpcCallName,
  type IpcPushName,
  type IpcTransport,
  WIRE_PATH,
  serverFrame,
} from '../../shared/ipc/index.ts';

const MAX_RECONNECTS = 30;
const RECONNECT_DELAY_MS = 1_000;

interface Pending {
  resolve(value: unknown): void;
  reject(reason: Error): void;
}

export class WebSocketTransport implements IpcTransport {
  readonly #url: string;
  readonly #pending = new Map<number, Pending>();
  readonly #listeners = new Map<IpcPushName, Set<(payload: unknown) => void>>();
  #socket: WebSocket | null = null;
  #opened: Promise<WebSocket> | null = null;
  #nextId = 1;
  #reconnects = 0;

  constructor(url: string) {
    this.#url = url;
  }

  /** The address of the host's IPC socket for a page served by the host. */
  static urlFor(location: { protocol: string; host: string }): string {
    return `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${WIRE_PATH}`;
  }

  async invoke(name: IpcCallName, input: unknown): Promise<unknown> {
    const socket = await this.#open();
    const id = this.#nextId++;
    const frame: ClientFrame = { t: 'call', id, name, input };
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      socket.send(JSON.stringify(frame));
    });
  }

  listen(name: IpcPushName, listener: (payload: unknown) => void): () => void {
    let set = this.#listeners.get(name);
    if (!set) {
      set = new Set();
      this.#listeners.set(name, set);
    }
    set.add(listener);
    // pushes flow only over an open socket: subscribing opens it
    void this.#open().catch(() => {});
    return () => {
      set.delete(listener);
    };
  }

  #open(): Promise<WebSocket> {
    this.#opened ??= new Promise((resolve, reject) => {
      const socket = new WebSocket(this.#url);
      socket.addEventListener('open', () => {
        this.#socket = socket;
        this.#reconnects = 0;
        resolve(socket);
      });
      socket.addEventListener('message', (event) => this.#onMessage(event.data));
      socket.addEventListener('close', () => {
        const wasOpen = this.#socket === socket;
        this.#socket = null;
        this.#opened = null;
        for (const pending of this.#pending.values())
          pending.reject(new Error('the connection to the test host closed'));
        this.#pending.clear();
        if (!wasOpen) reject(new Error('could not connect to the test host'));
        this.#scheduleReconnect();
      });
    });
    return this.#opened;
  }

  #scheduleReconnect(): void {
    if (this.#listeners.size === 0 || this.#reconnects >= MAX_RECONNECTS) return;
    this.#reconnects++;
    setTimeout(() => void this.#open().catch(() => {}), RECONNECT_DELAY_MS);
  }

  #onMessage(data: unknown): void {
    if (typeof data !== 'string') return;
    let frame;
    try {
      frame = serverFrame.parse(JSON.parse(data));
    } catch {
      return; // not ours: ignored, the call times out on the caller's side as DISCONNECTED when the socket closes
    }
    if (frame.t === 'result') {
      const pending = this.#pending.get(frame.id);
      this.#pending.delete(frame.id);
      pending?.resolve(frame.response);
      return;
    }
    const listeners = this.#listeners.get(frame.name as IpcPushName);
    if (listeners) for (const listener of listeners) listener(frame.payload);
  }
}
