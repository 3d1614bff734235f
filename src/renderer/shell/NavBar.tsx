/** The left rail: one icon per registered screen, market screens first, then account screens, then Settings. */
import { Divider, Stack, Tooltip, UnstyledButton } from '@mantine/core';
import { IconSquare } from '@tabler/icons-react';
import { Fragment } from 'react';
import { allScreens, type ScreenDef } from '../screens/index.ts';
import { hotkeyLabel } from './commands.ts';
import { navigate, useCurrentScreenId } from './navigation.ts';

const GROUPS: ScreenDef['group'][] = ['market', 'account', 'app'];

export function NavBar() {
  const current = useCurrentScreenId();
  const screens = allScreens();
  return (
    <Stack gap={2} p={6} component="nav" aria-label="Screens">
      {GROUPS.map((group, i) => {
        const inGroup = screens.filter((s) => s.group === group);
        if (inGroup.length === 0) return null;
        return (
          <Fragment key={group}>
            {i > 0 && <Divider my={4} />}
            {inGroup.map((screen) => {
              const Icon = screen.icon ?? IconSquare;
              const active = screen.id === current;
              return (
                <Tooltip
                  key={screen.id}
                  position="right"
                  label={screen.hotkey ? `${screen.label} (${hotkeyLabel(screen.hotkey).join('+')})` : screen.label}
                >
                  <UnstyledButton
                    onClick={() => navigate(screen.id)}
                    aria-label={screen.label}
                    aria-current={active ? 'page' : undefined}
                    data-testid={`nav-${screen.id}`}
                    style={{
                      display: 'flex',
                      flexDirection: 'column',
                      alignItems: 'center',
                      gap: 1,
                      padding: '6px 0 4px',
                      borderRadius: 6,
                      color: active ? 'var(--mantine-color-teal-4)' : 'var(--mantine-color-dark-1)',
                      background: active ? 'rgba(18, 184, 134, 0.12)' : undefined,
                    }}
                  >
                    <Icon size={18} />
                    <span style={{ fontSize: 9, lineHeight: 1.1, maxWidth: 48, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
                      {screen.label}
                    </span>
                  </UnstyledButton>
                </Tooltip>
              );
            })}
          </Fragment>
        );
      })}
    </Stack>
  );
}
