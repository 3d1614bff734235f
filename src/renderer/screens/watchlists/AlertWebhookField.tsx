/**
 * The alert webhook of a watchlist: a URL (Discord, Slack or your own receiver) and a button that posts
 * a test message through the app, so a typo shows now rather than at the first missed alert.
 */
import { Button, Group, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { alertWebhookUrl } from '../../../shared/watchlist.ts';
import { call } from '../../bridge/index.ts';

type TestResult = { ok: boolean; text: string } | null;

export function AlertWebhookField({ value, onChange }: { value: string; onChange(url: string): void }) {
  const [testing, setTesting] = useState(false);
  const [result, setResult] = useState<TestResult>(null);
  const checked = alertWebhookUrl.safeParse(value);
  const invalid = value.trim() !== '' && !checked.success ? checked.error.issues[0]?.message : undefined;

  const test = async () => {
    if (!checked.success) return;
    setTesting(true);
    setResult(null);
    try {
      const answer = await call('testAlertWebhook', { url: checked.data });
      setResult(
        answer.ok
          ? { ok: true, text: 'A test message was delivered.' }
          : { ok: false, text: answer.problem ?? 'It was not delivered.' },
      );
    } catch (err) {
      setResult({ ok: false, text: (err as Error).message });
    } finally {
      setTesting(false);
    }
  };

  return (
    <div>
      <Group gap="xs" align="flex-end" wrap="nowrap">
        <TextInput
          label="Alert webhook"
          description="Alerts are also posted here (coalesced like notifications): a Discord or Slack webhook URL, or your own"
          placeholder="https://discord.com/api/webhooks/…"
          value={value}
          onChange={(e) => {
            onChange(e.currentTarget.value);
            setResult(null);
          }}
          error={invalid}
          style={{ flex: 1 }}
          data-testid="alert-webhook"
        />
        <Button
          variant="default"
          onClick={() => void test()}
          disabled={value.trim() === '' || !checked.success}
          loading={testing}
          data-testid="alert-webhook-test"
        >
          Send test
        </Button>
      </Group>
      {result && (
        <Text size="xs" mt={4} c={result.ok ? 'teal' : 'red'} data-testid="alert-webhook-result">
          {result.text}
        </Text>
      )}
    </div>
  );
}
