/**
 * The webhook signing secret: whether one is stored (and its last 4 characters), a field to save or
 * replace it, and a button to remove it. On the trade feeds panel and on the Settings screen.
 */
import { Button, Group, PasswordInput, Stack } from '@mantine/core';
import { useState } from 'react';
import { call, useLiveValue } from '../../../bridge/index.ts';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { useAction } from '../ui/useAction.ts';

/** "stored, ends in 1234" / "not stored" (or with another verb: "saved"). */
export function storedWords(
  secret: { set: boolean; last4: string | null } | undefined,
  verb = 'stored',
): string {
  if (!secret) return '';
  if (!secret.set) return `not ${verb}`;
  return secret.last4 ? `${verb}, ends in ${secret.last4}` : verb;
}

export function WebhookSecretField({
  description,
  onChanged,
}: {
  description: string;
  onChanged?: () => void;
}) {
  const settings = useLiveValue('getSettings', 'settingsChanged');
  const [secret, setSecret] = useState('');
  const save = useAction(async () => {
    await call('setWebhookSecret', { secret: secret.trim() });
    setSecret('');
    onChanged?.();
    return true;
  });
  const remove = useAction(async () => {
    await call('clearWebhookSecret', {});
    onChanged?.();
    return true;
  });
  const stored = settings.value?.webhookSecret;
  return (
    <Stack gap={4}>
      <Group gap="sm" align="flex-end" wrap="nowrap">
        <PasswordInput
          label={`Webhook signing secret (${storedWords(stored)})`}
          placeholder={stored?.set ? 'paste a new secret to replace it' : 'paste the signing secret'}
          description={description}
          w={320}
          value={secret}
          onChange={(e) => setSecret(e.currentTarget.value)}
          autoComplete="off"
          data-testid="webhook-secret-input"
        />
        <Button
          variant="default"
          disabled={secret.trim().length === 0}
          loading={save.running}
          onClick={() => void save.run()}
        >
          Save secret
        </Button>
        {stored?.set ? (
          <Button
            variant="subtle"
            color="red"
            loading={remove.running}
            onClick={() => void remove.run()}
            data-testid="webhook-secret-remove"
          >
            Remove
          </Button>
        ) : null}
      </Group>
      <ErrorNote error={save.error ?? remove.error} />
    </Stack>
  );
}
