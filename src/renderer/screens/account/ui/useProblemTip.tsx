import { Tooltip } from '@mantine/core';
import { type CSSProperties, type ReactNode, useState } from 'react';

/** Out of sight, not out of a screen reader's reach (what Mantine's VisuallyHidden does, as a style). */
const UNSEEN: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  margin: -1,
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
};

/** The props a Mantine field (TextInput, NumberInput) takes to say its problem in a tooltip. */
export interface ProblemTipProps {
  error: ReactNode;
  errorProps: { style: CSSProperties };
  styles: { wrapper: CSSProperties };
  inputContainer: (children: ReactNode) => ReactNode;
}

/**
 * A refused figure in a table row or a tight row of fields, said without moving anything: the field
 * turns red and its words show in a tooltip while it is focused or under the pointer. Words under a
 * field in a narrow cell wrapped onto three lines, and the row (the whole table below it) grew and
 * shrank as the trader typed. The words stay the field's error element, out of sight but still what
 * the field is described by (aria-describedby), so a screen reader reads them with it; the form says
 * them beside its button too.
 */
export function useProblemTip(problem: string | null): ProblemTipProps {
  const [focused, setFocused] = useState(false);
  const [hovered, setHovered] = useState(false);
  return {
    error: problem,
    errorProps: { style: UNSEEN },
    // Mantine moves a field with an error below it down a few pixels to make room for it
    styles: { wrapper: { marginBottom: 0 } },
    inputContainer: (children) => (
      <Tooltip
        label={problem}
        opened={problem !== null && (focused || hovered)}
        multiline
        maw={320}
        color="red"
        position="bottom-start"
        withArrow
        role="tooltip"
        data-testid="problem-tip"
      >
        <div
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          onMouseEnter={() => setHovered(true)}
          onMouseLeave={() => setHovered(false)}
        >
          {children}
        </div>
      </Tooltip>
    ),
  };
}
