/**
 * Failures with no form to show them in: a click on a switch (the kill switch, a watchlist's pause), a
 * hotkey, a save the app makes on its own, a background load behind the status bar. Each becomes a red
 * toast in plain words (the app's error message), never a silent catch: a kill switch that did not
 * engage must say so.
 */
import { notifications } from '@mantine/notifications';

function messageOf(err: unknown): string {
  return err instanceof Error && err.message ? err.message : 'The app did not answer.';
}

/**
 * Shows `title` and the error's message. A failure that repeats while its toast is still up shows once
 * (the toast's id is its title).
 */
export function reportFailure(title: string, err: unknown): void {
  notifications.show({ id: `failure:${title}`, title, message: messageOf(err), color: 'red' });
}

/**
 * For a value read again and again (a poll): reports the first failure of a run of failures, and again
 * only after a success, so a poll every two seconds does not stack a toast every two seconds.
 */
export function failureLatch(title: string): { failed(err: unknown): void; succeeded(): void } {
  let failing = false;
  return {
    failed(err) {
      if (!failing) reportFailure(title, err);
      failing = true;
    },
    succeeded() {
      failing = false;
    },
  };
}
