/**
 * The undercut guard of one listing, inside its edit dialog: a floor (and a step), started, changed or
 * stopped on its own button — apart from the dialog's edit, since a guard is a standing order, not an
 * edit — with what the guard did last.
 */
import { Alert, Button, Group, NumberInput, Stack, Text } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useState } from 'react';
import type { MyListing } from '../../../../shared/api/index.ts';
import type { UndercutGuardView } from '../../../../shared/ipc/calls-account.ts';
import { call } from '../../../bridge/index.ts';
import { CentsInput } from '../ui/CentsInput.tsx';
import { ErrorNote } from '../ui/ErrorNote.tsx';
import { formatCents } from '../ui/format.ts';
import { useAction } from '../ui/useAction.ts';

/** The step the guard takes (setUndercutGuard): whole cents, 1 to 10,000. */
const STEP_RANGE = { min: 1, max: 10_000 } as const;
const STEP_PROBLEM = `The step is 1 to 10,000 cents (${formatCents(STEP_RANGE.min)} to ${formatCents(STEP_RANGE.max)}).`;

export function UndercutGuardPanel({
  listing,
  guard,
  onChanged,
}: {
  listing: MyListing;
  guard: UndercutGuardView | undefined;
  onChanged(): void;
}) {
  const [floor, setFloor] = useState<number | null>(
    guard?.floor ?? Math.max(1, Math.round(listing.price * 0.9)),
  );
  // as typed (null while empty): a step out of range is kept and said, never put back on leaving the field
  const [step, setStep] = useState<number | null>(guard?.step ?? 1);
  const validStep =
    step !== null && Number.isInteger(step) && step >= STEP_RANGE.min && step <= STEP_RANGE.max ? step : null;
  const stepProblem = validStep === null ? STEP_PROBLEM : null;
  const [ceiling, setCeiling] = useState<number | null>(guard?.ceiling ?? null);
  const save = useAction(async (next: number | null) => {
    // a stop sends no new rule: a step being typed (out of range) must not keep the guard running
    const answer = await call('setUndercutGuard', {
      listingId: listing.id,
      floor: next,
      step: validStep ?? guard?.step ?? STEP_RANGE.min,
      ceiling,
    });
    onChanged();
    return answer;
  });
  // the screen's copy follows the guard's pushes; right after a stop it may still hold the old one
  const shown = save.result?.guard === null ? null : (guard ?? save.result?.guard ?? null);
  if (listing.price_decay) {
    return (
      <Text size="xs" c="dimmed" data-testid="guard-panel">
        Undercut guard: not for a listing that follows a price decay.
      </Text>
    );
  }
  return (
    <Alert
      variant="light"
      color={shown ? 'teal' : 'gray'}
      p="xs"
      icon={<IconShieldCheck size={16} />}
      title="Undercut guard"
      data-testid="guard-panel"
      // its fields are the guard's, with its own button: Enter in them does not apply the listing's edit
      data-own-enter
    >
      <Stack gap={6}>
        <Text size="xs">
          Keeps this listing {validStep === null ? 'one step' : formatCents(validStep)} under the cheapest
          other listing of the item in the book, checked every few seconds; never under the floor, at most one
          reprice every 30 s. With a ceiling it also moves back up when the rivals below have gone (never
          above the ceiling); without one it never raises the price.
        </Text>
        <Group gap="sm" align="flex-end">
          <CentsInput
            label="Floor per copy"
            w={150}
            cents={floor}
            onCents={setFloor}
            data-testid="guard-floor"
          />
          <CentsInput
            label="Ceiling (optional)"
            placeholder="never raise"
            w={150}
            cents={ceiling}
            onCents={setCeiling}
            data-testid="guard-ceiling"
          />
          <NumberInput
            label="Step (cents)"
            w={100}
            min={STEP_RANGE.min}
            max={STEP_RANGE.max}
            clampBehavior="none"
            allowDecimal={false}
            value={step ?? ''}
            onChange={(v) => setStep(typeof v === 'number' ? v : null)}
            error={stepProblem}
            data-testid="guard-step"
          />
          <Button
            size="sm"
            onClick={() => void save.run(floor)}
            disabled={floor === null || floor <= 0 || stepProblem !== null}
            loading={save.running}
            data-testid="guard-save"
          >
            {shown ? 'Update guard' : 'Start guard'}
          </Button>
          {shown && (
            <Button
              size="sm"
              variant="default"
              onClick={() => void save.run(null)}
              disabled={save.running}
              data-testid="guard-stop"
            >
              Stop guard
            </Button>
          )}
        </Group>
        {shown && (
          <Text size="xs" c="dimmed" data-testid="guard-note">
            {shown.state}: {shown.note}
            {shown.edits > 0 ? ` (${shown.edits} reprice${shown.edits === 1 ? '' : 's'} so far)` : ''}
          </Text>
        )}
        <ErrorNote error={save.error} title="The guard was not changed" />
      </Stack>
    </Alert>
  );
}
