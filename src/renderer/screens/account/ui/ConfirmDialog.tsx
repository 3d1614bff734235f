import { Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { type KeyboardEvent, type ReactNode, useEffect, useState } from 'react';
import { ErrorNote } from './ErrorNote.tsx';
import { useFocusReturnOnRemoval, useLatest } from './hooks.ts';

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
  /**
   * Enter in a one-line field of the review (a price, copies) does what the button does: sends when it
   * is on, nothing when it is held back. Not from a multi-line or search field, nor from a part of the
   * review marked `data-own-enter` (a panel with its own button).
   */
  enterSends?: boolean;
  /**
   * The draft's pre-send check is still running (the button is held back meanwhile): an Enter pressed
   * now sends once the check answers, if it finds nothing that blocks and nothing was changed since.
   */
  checking?: boolean;
}

/** Input types of one line of text: Enter in them is taken as "done". A search field's Enter is its own. */
const ONE_LINE_INPUTS = new Set(['text', 'number', 'tel', 'email', 'url', 'password']);

function sendsOnEnter(target: EventTarget): boolean {
  if (!(target instanceof HTMLInputElement) || !ONE_LINE_INPUTS.has(target.type) || target.readOnly || target.disabled) return false;
  const role = target.getAttribute('role');
  return role !== 'combobox' && role !== 'searchbox' && target.closest('[data-own-enter]') === null;
}

/**
 * Every write goes through one of these: review what will be sent, confirm, watch it run, then read
 * the outcome (or the error in plain words) without the dialog closing on its own.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const { opened, onClose, title, children, confirmLabel, onConfirm, blockedReason, running, progressLabel, error, result, danger, size, enterSends, checking = false } = props;
  // most are shown by mounting them open, and closed by removing them
  useFocusReturnOnRemoval(opened);
  const sendable = !result && !running && !blockedReason;
  // an Enter pressed while the check ran: typed fast, the figure and Enter come before the check's answer
  const [enterWaits, setEnterWaits] = useState(false);
  const confirm = useLatest(onConfirm);
  useEffect(() => {
    if (!enterWaits || checking) return;
    // the wait ends with the check it waited for: once, whether or not it then sends
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setEnterWaits(false);
    if (sendable) confirm.current();
  }, [enterWaits, checking, sendable, confirm]);
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!enterSends || result || running) return;
    if (e.key !== 'Enter') {
      // typing on after the Enter changes the draft: it is no longer the one Enter was pressed on
      if (enterWaits) setEnterWaits(false);
      return;
    }
    if (e.defaultPrevented || e.nativeEvent.isComposing || e.shiftKey || e.altKey || e.ctrlKey || e.metaKey || !sendsOnEnter(e.target)) return;
    e.preventDefault();
    if (sendable) onConfirm();
    else if (checking) setEnterWaits(true);
  };
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
      <Stack gap="sm" data-testid="confirm-dialog" onKeyDown={onKeyDown} onPointerDown={() => setEnterWaits(false)}>
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
            {!result && !running ? (enterWaits && checking ? 'Checking, then sending…' : (blockedReason ?? '')) : ''}
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
