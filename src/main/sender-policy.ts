/**
 * Who may call the app over IPC: only the top frame of one of our own windows, showing our own page.
 * A sub-frame, a foreign page that somehow got loaded (a navigation that slipped through, a devtools
 * extension page) or a webContents that is not one of our windows is refused before the input is even
 * parsed (compare VS Code's validatedIpcMain). Pure: it only reads the event, so tests use fakes.
 */

/** The parts of Electron's WebFrameMain the check reads. */
export interface FrameLike {
  readonly url: string;
  readonly parent: FrameLike | null;
  readonly processId?: number;
  readonly routingId?: number;
}

/** The same frame: the same object, or (should Electron hand out a new wrapper) the same process and routing id. */
function sameFrame(a: FrameLike, b: FrameLike): boolean {
  if (a === b) return true;
  return (
    a.processId !== undefined &&
    a.routingId !== undefined &&
    a.processId === b.processId &&
    a.routingId === b.routingId
  );
}

/** The parts of Electron's IpcMainInvokeEvent the check reads. */
export interface IpcEventLike {
  readonly senderFrame: FrameLike | null;
  readonly sender: { readonly id: number; readonly mainFrame: FrameLike };
}

export interface AppOrigin {
  /** e.g. `app:` or `http:` (the dev server). */
  protocol: string;
  /** host[:port], e.g. `skindesk` or `localhost:5173`. */
  host: string;
}

export interface SenderPolicy {
  /** Where our page is served from: the app:// protocol, and the dev server when not packaged. */
  origins: readonly AppOrigin[];
  /** Whether a webContents id belongs to one of our windows. */
  isOurWindow(webContentsId: number): boolean;
}

export type SenderVerdict = { ok: true } | { ok: false; reason: string };

/** Parses `url` and compares protocol and host (URL.origin is 'null' for custom schemes like app:). */
export function urlHasOrigin(url: string, origins: readonly AppOrigin[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.username || parsed.password) return false;
  return origins.some((o) => parsed.protocol === o.protocol && parsed.host === o.host);
}

export function checkSender(event: IpcEventLike, policy: SenderPolicy): SenderVerdict {
  const frame = event.senderFrame;
  if (!frame) return { ok: false, reason: 'the sending frame is gone (navigated away or destroyed)' };
  if (!policy.isOurWindow(event.sender.id))
    return { ok: false, reason: 'the sender is not one of our windows' };
  if (frame.parent !== null || !sameFrame(frame, event.sender.mainFrame)) {
    return { ok: false, reason: 'the sender is a sub-frame, not the window itself' };
  }
  if (!urlHasOrigin(frame.url, policy.origins))
    return { ok: false, reason: 'the sending page is not served by the app' };
  return { ok: true };
}
