import { Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorNote } from './ErrorNote.tsx';
import { useFocusReturnOnRemoval } from './hooks.ts';

export interface ConfirmDialogProps {
  opened: boolean;
  onClose: () => void;
  title: string;
  /** What will happen, shown before sending (the review). */
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  /** Disabled with the reason shown (pre-send problems, nothing selected). */
  blockedReason?: string | null;
  running: boolean;
  /** Shown while running: what is being sent. */
  progressLabel?: string;
  error: unknown;
  /** After success: the outcome, replacing the review. */
  result?: ReactNode;
  danger?: boolean;
  size?: string | number;
}

/**
 * Every write goes through one of these: review what will be sent, confirm, watch it run, then read
 * the outcome (or the error in plain words) without the dialog closing on its own.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { opened, onClose, title, children, confirmLabel, onConfirm, blockedReason, running, progressLabel, error, result, danger, size } = props;
  // most are shown by mounting them open, and closed by removing them
  useFocusReturnOnRemoval(opened);
  return (
    <Modal
      opened={opened}
      onClose={() => {
        if (!running) onClose();
      }}
      title={<Text fw={600}>{title}</Text>}
      size={size ?? 'lg'}
      closeOnClickOutside={!running}
      closeOnEscape={!running}
    >
      <Stack gap="sm" data-testid="confirm-dialog">
        {result ? <div data-testid="action-result">{result}</div> : children}
        {running ? (
          <Stack gap={4} data-testid="action-progress">
            <Progress value={100} animated striped size="sm" />
            <Text size="xs" c="dimmed">
              {progressLabel ?? 'Sending…'}
            </Text>
          </Stack>
        ) : null}
        <ErrorNote error={error} />
        <Group justify="space-between" wrap="nowrap">
          <Text size="xs" c="yellow.4" data-testid="blocked-reason">
            {!result && !running ? (blockedReason ?? '') : ''}
          </Text>
          <Group gap="xs" wrap="nowrap">
            {result ? (
              <Button onClick={onClose} data-autofocus>
                Close
              </Button>
            ) : (
              <>
                <Button variant="default" onClick={onClose} disabled={running}>
                  Cancel
                </Button>
                <Button
                  color={danger ? 'red' : undefined}
                  onClick={onConfirm}
                  loading={running}
                  disabled={Boolean(blockedReason)}
                  data-testid="confirm-button"
                >
                  {confirmLabel}
                </Button>
              </>
            )}
          </Group>
        </Group>
      </Stack>
    </Modal>
  );
}
