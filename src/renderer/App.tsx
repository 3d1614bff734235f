import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { usePush } from './bridge/index.ts';
import './screens/index.ts';
import { AppFrame } from './shell/AppFrame.tsx';
import { theme } from './theme.ts';

const LEVEL_COLORS = { info: 'blue', success: 'teal', warning: 'yellow', error: 'red' } as const;

/** The app's notifications (a market problem, a settings warning) as toasts above the status bar. */
function NotificationToasts() {
  usePush('notification', (n) =>
    notifications.show({ id: n.id, title: n.title, message: n.message, color: LEVEL_COLORS[n.level] }),
  );
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
