import { AppShell, Group, MantineProvider, Text, Title, createTheme } from '@mantine/core';

const theme = createTheme({
  primaryColor: 'teal',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
});

/** The application shell: header now; the book, filters and panels arrive with later issues. */
export function App() {
  return (
    <MantineProvider theme={theme} defaultColorScheme="dark">
      <AppShell header={{ height: 48 }} padding="md">
        <AppShell.Header>
          <Group h="100%" px="md">
            <Title order={1} size="h4">
              Skindesk
            </Title>
          </Group>
        </AppShell.Header>
        <AppShell.Main>
          <Text c="dimmed">Game-item marketplace terminal</Text>
        </AppShell.Main>
      </AppShell>
    </MantineProvider>
  );
}
