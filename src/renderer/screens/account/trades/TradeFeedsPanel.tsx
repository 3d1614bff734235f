/**
 * Where live trade status comes from, and its settings: polling GET /trades (always on: the safety net),
 * the local webhook receiver (on when enabled here, with the signing secret from the keychain), and OS
 * notifications. Explains how to expose the receiver through an https tunnel and where the secret goes.
 */
import { Alert, Badge, Button, Code, Group, List, NumberInput, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import type { TradeFeedSettings } from '../../../../shared/ipc/calls-account.ts';
import { inLine } from '../../../../shared/sentence.ts';
import { call, useCall, usePush } from '../../../bridge/index.ts';
import { WebhookSecretField } from './WebhookSecretField.tsx';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { formatAge } from '../../../format/numbers.ts';
import { formatAgo } from '../ui/format.ts';
import { useNow } from '../ui/hooks.ts';
import { useAction } from '../ui/useAction.ts';

const STATE_COLOR = { off: 'gray', no_secret: 'yellow', starting: 'blue', listening: 'teal', failed: 'red' } as const;

export function TradeFeedsPanel() {
  const feeds = useCall('getTradeFeeds', {});
  usePush('settingsChanged', () => feeds.reload());
  // every poll, good or failed: the line below tells the poller as it is, not as it was when opened
  usePush('tradePollChanged', () => feeds.reload());
  const now = useNow(2_000);
  // What the user is editing; until the first edit, the stored settings.
  const [edited, setDraft] = useState<TradeFeedSettings | null>(null);
  const save = useAction(async (next: TradeFeedSettings) => {
    const view = await call('setTradeFeeds', next);
    feeds.reload();
    return view;
  });
  const view = feeds.data;
  if (!view) return <ErrorNote error={feeds.error} />;
  const draft = edited ?? view.settings;
  const port = draft.webhook.port;
  const apply = (next: TradeFeedSettings) => {
    setDraft(next);
    void save.run(next);
  };

  return (
    <Stack gap="sm" data-testid="trade-feeds">
      <Title order={3}>Polling</Title>
      <Text size="xs" c="dimmed">
        GET /trades is read every few seconds while trades are in flight and every two minutes otherwise, within its limit of one request a second. It
        is always on: webhooks can be lost, and the marketplace drops a webhook URL after 20 failed deliveries.
      </Text>
      <Text size="xs" className="sd-num" data-testid="poller-state">
        {view.poller.running ? 'running' : 'stopped'}
        {view.poller.lastPollAt ? ` · last poll ${formatAgo(view.poller.lastPollAt, now)}` : ''}
        {/* one failed poll and a run of them for an hour call for different things: say since when */}
        {view.poller.failingSince ? ` · failing for ${formatAge(view.poller.failingSince, now)}` : ''}
        {view.poller.lastError ? ` · last error: ${inLine(view.poller.lastError)}` : ''}
      </Text>

      <Title order={3}>Notifications</Title>
      <Switch
        label="Notify me (OS notification and a toast) on every status change of a trade or crypto withdrawal"
        checked={draft.notifyOnStatusChange}
        onChange={(e) => apply({ ...draft, notifyOnStatusChange: e.currentTarget.checked })}
      />

      <Group justify="space-between">
        <Title order={3}>Webhook receiver</Title>
        <Badge color={STATE_COLOR[view.receiver.state]} variant="light" data-testid="receiver-state">
          {view.receiver.state.replace('_', ' ')}
        </Badge>
      </Group>
      <Switch
        label="Run a local receiver for the marketplace's trade webhooks"
        checked={draft.webhook.enabled}
        onChange={(e) => apply({ ...draft, webhook: { ...draft.webhook, enabled: e.currentTarget.checked } })}
        data-testid="receiver-switch"
      />
      <Group gap="sm" align="flex-end">
        <NumberInput
          label="Local port"
          w={110}
          min={1024}
          max={65535}
          allowDecimal={false}
          value={port}
          onChange={(v) => typeof v === 'number' && setDraft({ ...draft, webhook: { ...draft.webhook, port: v } })}
        />
        <TextInput
          label="Header prefix"
          w={140}
          value={draft.webhook.headerPrefix}
          onChange={(e) => setDraft({ ...draft, webhook: { ...draft.webhook, headerPrefix: e.currentTarget.value } })}
        />
        <Button variant="default" onClick={() => void save.run(draft)} loading={save.running}>
          Apply
        </Button>
      </Group>
      <ErrorNote error={save.error} />
      {view.receiver.problem ? (
        <Alert color="yellow" variant="light" p="xs">
          <Text size="xs">{view.receiver.problem}</Text>
        </Alert>
      ) : null}
      {view.receiver.localUrl ? (
        <Text size="xs">
          Listening at <Code>{view.receiver.localUrl}</Code> · {view.receiver.accepted} accepted · {view.receiver.rejected} rejected
        </Text>
      ) : null}
      {view.demo ? (
        <Text size="xs" c="dimmed">
          Demo market: the receiver is registered with it automatically and signs with the demo's secret; no tunnel is needed.
        </Text>
      ) : (
        <Stack gap={4}>
          <Text size="xs" fw={600}>
            Connecting the marketplace to this receiver
          </Text>
          <List size="xs" type="ordered" spacing={2}>
            <List.Item>
              The marketplace only delivers to a public <b>https</b> URL, so expose the local port through a tunnel, for example{' '}
              <Code>cloudflared tunnel --url http://127.0.0.1:{port}</Code> or <Code>ngrok http {port}</Code>.
            </List.Item>
            <List.Item>
              On the marketplace website, open the developer settings and save the tunnel's address followed by <Code>/webhook</Code> (for example{' '}
              <Code>https://example.trycloudflare.com/webhook</Code>) as the webhook URL.
            </List.Item>
            <List.Item>
              Copy the <b>signing secret</b> shown there (it is derived from your API key; rerolling the key changes it) and paste it below. It is kept in
              the OS keychain, never shown again.
            </List.Item>
          </List>
          <Text size="xs" c="dimmed">
            Every delivery is checked before it is used: the HMAC-SHA256 signature over the timestamp and the raw body, a timestamp at most 5 minutes
            old, and a delivery id never seen before. Polling keeps running as the safety net.
          </Text>
        </Stack>
      )}
      <WebhookSecretField
        description={view.demo ? 'For the real market; the demo market uses its own.' : 'Kept in the OS keychain; only its last 4 characters are ever shown.'}
        onChanged={feeds.reload}
      />
    </Stack>
  );
}
