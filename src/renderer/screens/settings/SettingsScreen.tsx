/**
 * Settings: which marketplace the app talks to (the demo market or the real one by URL) and the API
 * key that goes with it, the webhook signing secret, and where secrets are kept. The key is saved with
 * its URL in one step: the app sends a key only to the market it was saved for, so a URL of another
 * origin without a key removes the saved one, and the form says so before saving.
 */
import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  PasswordInput,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import type { SettingsView, SyncStatus } from '../../../shared/ipc/index.ts';
import { marketUrlProblem, originOf } from '../../../shared/market-url.ts';
import { call, useLiveValue } from '../../bridge/index.ts';
import { syncStatusStore, useLive } from '../../shell/app-state.ts';
import { ConfirmDialog } from '../account/ui/ConfirmDialog.tsx';
import { ErrorNote } from '../account/ui/ErrorNote.tsx';
import { ScreenFrame } from '../account/ui/ScreenFrame.tsx';
import { useAction } from '../account/ui/useAction.ts';
import { WebhookSecretField, storedWords } from '../account/trades/WebhookSecretField.tsx';

const DEMO_REASON_WORDS: Record<NonNullable<SyncStatus['market']['demoReason']>, string> = {
  no_api_key: 'no API key is saved',
  keychain_unavailable: 'the keychain could not be read',
  no_market_url: 'no marketplace URL is set',
  chosen_in_settings: 'chosen here',
};

const STORAGE_WORDS: Record<SettingsView['secretStorage']['kind'], string> = {
  keyring: 'the OS keychain',
  env: 'environment variables (read-only)',
  memory: 'memory only: forgotten when the app closes',
};
/** Under the API key field: where a pasted key goes, as the Secrets section below says it. */
const KEY_KEPT_IN: Record<SettingsView['secretStorage']['kind'], string> = {
  keyring: 'Kept in the OS keychain',
  env: 'Read from the environment',
  memory: 'Kept in memory until the app closes',
};
/** What "Remove key" does to the key, where it really is kept (the env store refuses it: read-only). */
const KEY_REMOVAL_WORDS: Record<SettingsView['secretStorage']['kind'], string> = {
  keyring: 'The key is deleted from the OS keychain and the app switches to the demo market.',
  env: 'The key is read from an environment variable, which the app cannot change: unset it and restart the app instead.',
  memory: 'The key is forgotten (it is kept in memory only) and the app switches to the demo market.',
};

/** What each choice of market means, under the choice. */
const MODE_WORDS = [
  {
    demo: true,
    words:
      'A simulated market on this computer, with its own account: nothing is bought or sold for real. The URL and key below are kept for later.',
  },
  { demo: false, words: 'The marketplace your API key belongs to. Without a key the app stays on the demo market.' },
] as const;

interface MarketDraft {
  useDemo: boolean;
  baseUrl: string;
}

export function SettingsScreen() {
  const settings = useLiveValue('getSettings', 'settingsChanged');
  const view = settings.value;
  return (
    <ScreenFrame
      title="Settings"
      subtitle="where the app connects, and the secrets it keeps"
      testId="settings-screen"
    >
      <ErrorNote error={settings.error} />
      {view ? (
        <Stack gap="sm" maw={760}>
          <MarketSection view={view} />
          <Paper withBorder p="sm" bg="dark.7">
            <Stack gap="xs">
              <Title order={3}>Trade webhooks</Title>
              <WebhookSecretField description="From the marketplace's developer settings. The trade feeds' local receiver checks every delivery with it (Trades → Feeds)." />
            </Stack>
          </Paper>
          <Paper withBorder p="sm" bg="dark.7">
            <Stack gap={4}>
              <Title order={3}>Secrets</Title>
              <Text size="xs" data-testid="secret-storage">
                Kept in {STORAGE_WORDS[view.secretStorage.kind]}. The app shows only whether a secret is saved
                and its last 4 characters.
              </Text>
              {view.secretStorage.problem ? (
                <Alert color="yellow" variant="light" p="xs" icon={<IconAlertTriangle size={16} />}>
                  <Text size="xs">{view.secretStorage.problem}</Text>
                </Alert>
              ) : null}
            </Stack>
          </Paper>
        </Stack>
      ) : null}
    </ScreenFrame>
  );
}

function MarketSection({ view }: { view: SettingsView }) {
  const status = useLive(syncStatusStore);
  const saved: MarketDraft = { useDemo: view.market.useDemo, baseUrl: view.market.baseUrl ?? '' };
  const [edited, setEdited] = useState<MarketDraft | null>(null);
  const [apiKey, setApiKey] = useState('');
  const [removing, setRemoving] = useState(false);
  const draft = edited ?? saved;
  const url = draft.baseUrl.trim();
  const key = apiKey.trim();
  const urlProblem = url === '' ? null : marketUrlProblem(url);
  const keyDropped = view.apiKey.set && key === '' && originOf(url || null) !== originOf(view.market.baseUrl);
  const changed = draft.useDemo !== saved.useDemo || url !== saved.baseUrl || key !== '';
  const blocked = urlProblem ?? (!draft.useDemo && url === '' ? "Enter the marketplace's URL." : null);

  const save = useAction(async () => {
    const result = await call('setMarket', {
      useDemo: draft.useDemo,
      baseUrl: url || null,
      ...(key ? { apiKey: key } : {}),
    });
    setEdited(null);
    setApiKey('');
    return result;
  });
  const remove = useAction(async () => {
    const result = await call('clearApiKey', {});
    setRemoving(false);
    return result;
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (changed && !blocked) void save.run();
  };

  return (
    <Paper withBorder p="sm" bg="dark.7" component="form" onSubmit={onSubmit}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={3}>Marketplace</Title>
          <Connection status={status} />
        </Group>
        <SegmentedControl
          w={320}
          data={[
            { value: 'real', label: 'Real marketplace' },
            { value: 'demo', label: 'Demo market' },
          ]}
          value={draft.useDemo ? 'demo' : 'real'}
          onChange={(v) => setEdited({ ...draft, useDemo: v === 'demo' })}
          data-testid="settings-market-mode"
        />
        {/* both in one cell, the other hidden: as high as the longer one, so the fields never move */}
        <div style={{ display: 'grid' }}>
          {MODE_WORDS.map(({ demo, words }) => (
            <Text
              key={words}
              size="xs"
              c="dimmed"
              style={{ gridArea: '1 / 1', visibility: demo === draft.useDemo ? 'visible' : 'hidden' }}
            >
              {words}
            </Text>
          ))}
        </div>
        <Group gap="sm" align="flex-start" wrap="nowrap">
          <TextInput
            label="Marketplace URL"
            description="The REST base address; https://, or http:// for a server on this computer"
            placeholder="https://…"
            w={380}
            value={draft.baseUrl}
            onChange={(e) => setEdited({ ...draft, baseUrl: e.currentTarget.value })}
            error={urlProblem}
            spellCheck={false}
            data-testid="settings-market-url"
          />
          <PasswordInput
            label={`API key (${storedWords(view.apiKey, 'saved')})`}
            description={`${KEY_KEPT_IN[view.secretStorage.kind]}, sent only to this URL`}
            placeholder={view.apiKey.set ? 'paste a new key to replace it' : 'paste your API key'}
            w={280}
            value={apiKey}
            onChange={(e) => setApiKey(e.currentTarget.value)}
            autoComplete="off"
            data-testid="settings-api-key"
          />
        </Group>
        {keyDropped ? (
          <Alert
            color="yellow"
            variant="light"
            p="xs"
            icon={<IconAlertTriangle size={16} />}
            data-testid="settings-key-warning"
          >
            <Text size="xs">
              Saving removes the saved API key: it belongs to{' '}
              {originOf(view.market.baseUrl) ?? 'no marketplace URL'}. Paste the key for the new marketplace
              to keep trading.
            </Text>
          </Alert>
        ) : null}
        <Group gap="sm">
          <Button
            type="submit"
            size="xs"
            disabled={!changed || blocked !== null}
            loading={save.running}
            data-testid="settings-save"
          >
            Save and connect
          </Button>
          {changed ? (
            <Button
              size="xs"
              variant="subtle"
              color="gray"
              onClick={() => {
                setEdited(null);
                setApiKey('');
              }}
            >
              Undo changes
            </Button>
          ) : null}
          {view.apiKey.set ? (
            <Button
              size="xs"
              variant="light"
              color="red"
              ml="auto"
              onClick={() => setRemoving(true)}
              data-testid="settings-remove-key"
            >
              Remove API key
            </Button>
          ) : null}
        </Group>
        {blocked && urlProblem === null && changed ? (
          <Text size="xs" c="yellow">
            {blocked}
          </Text>
        ) : null}
        {/* the status bar has it only in a tooltip, and its notice may be closed: here the key is changed.
            Under the buttons, so the fields do not move when a connection fails after a save. */}
        {status?.problem ? (
          <Text
            size="xs"
            c={status.state === 'resyncing' ? 'yellow.4' : 'red.4'}
            data-testid="settings-connection-problem"
          >
            {status.problem}
          </Text>
        ) : null}
        <ErrorNote error={save.error} />
      </Stack>
      <ConfirmDialog
        opened={removing}
        onClose={() => setRemoving(false)}
        title="Remove the API key"
        confirmLabel="Remove key"
        onConfirm={() => void remove.run()}
        running={remove.running}
        error={remove.error}
        danger
      >
        <Text size="sm">
          {KEY_REMOVAL_WORDS[view.secretStorage.kind]} Your listings, trades and orders on the marketplace are
          not touched.
        </Text>
      </ConfirmDialog>
    </Paper>
  );
}

/** Where the app is connected right now, and why it is on the demo market when it is. */
function Connection({ status }: { status: SyncStatus | null }) {
  if (!status) return null;
  const demo = status.market.mode === 'demo';
  const why = demo && status.market.demoReason ? ` (${DEMO_REASON_WORDS[status.market.demoReason]})` : '';
  return (
    <Group gap={6} wrap="nowrap" data-testid="settings-connection">
      <Badge color={demo ? 'violet' : 'blue'} variant="light">
        {demo ? 'Demo market' : 'Real market'}
      </Badge>
      <Text size="xs" c="dimmed" truncate maw={360}>
        {status.state}
        {status.market.baseUrl ? ` · ${status.market.baseUrl}` : ''}
        {why}
      </Text>
    </Group>
  );
}
