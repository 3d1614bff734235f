import { AppShell, Group, MantineProvider, Title, createTheme } from '@mantine/core';
import { BookPreview, MarketBadges } from './BookPreview.tsx';

const theme = createTheme({
  primaryColor: 'teal',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
});

/** The application shell: header with the market badges, and the live book. */
export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="dark">
      <AppShell header={{ height: 48 }} padding="md">
        <AppShell.Header>
          <Group h="100%" px="md" justify="space-between">
            <Title order={1} size="h4">
              Skindesk
            </Title>
            <MarketBadges />
          </Group>
        </AppShell.Header>
        <AppShell.Main>
          <BookPreview />
        </AppShell.Main>
      </AppShell>
    </MantineProvider>
  );
}
