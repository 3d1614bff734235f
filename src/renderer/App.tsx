import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { useEffect, useRef } from 'react';
import { KEYCHAIN_NOTICE_TOPIC, type Notification } from '../shared/ipc/index.ts';
import { call, hasBridge, usePush } from './bridge/index.ts';
import './screens/index.ts';
import { AppFrame } from './shell/AppFrame.tsx';
import { reportFailure } from './shell/report-failure.ts';
import { theme } from './theme.ts';

const LEVEL_COLORS = { info: 'blue', success: 'teal', warning: 'yellow', error: 'red' } as const;

/**
 * The app's notifications (a market problem, a settings warning) as toasts above the status bar: those
 * pushed while the window is open, and those published while the app started, before the window could
 * listen (taken once). Each shows once, whichever way it came; one with a topic takes the place of the
 * toast of the same topic still shown (a trade's statuses, one after another, are one toast that
 * changes, not a stack whose queued toasts would show statuses already gone). A notice whose problem has
 * cleared is closed (the keychain's).
 */
function NotificationToasts() {
  const shown = useRef(new Set<string>());
  const show = (n: Notification) => {
    if (shown.current.has(n.id)) return;
    shown.current.add(n.id);
    const id = n.topic === undefined ? n.id : `topic:${n.topic}`;
    // hidden first, so the toast shown again runs its full time and comes in as the newest
    if (n.topic !== undefined) notifications.hide(id);
    notifications.show({ id, title: n.title, message: n.message, color: LEVEL_COLORS[n.level] });
  };
  usePush('notification', show);
  // the keychain works again (a secret was saved after it could not be read at start): the notice
  // telling to unlock it and restart is wrong now, and goes (queued or on show)
  usePush('settingsChanged', (view) => {
    if (view.secretStorage.problem === null) notifications.hide(`topic:${KEYCHAIN_NOTICE_TOPIC}`);
  });
  useEffect(() => {
    if (!hasBridge()) return;
    call('takeStartupNotifications', {})
      .then(({ notifications: missed }) => missed.forEach(show))
      .catch((err: unknown) => reportFailure('The app’s start-up messages could not be read', err));
    // once per window: the app hands them over only once
  }, []);
  return null;
}

/** The application: dark terminal theme, toasts, and the frame with the registered screens. */
export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="dark" forceColorScheme="dark">
      <Notifications position="bottom-right" limit={3} autoClose={6000} containerWidth={380} />
      <NotificationToasts />
      <AppFrame />
    </MantineProvider>
  );
}
