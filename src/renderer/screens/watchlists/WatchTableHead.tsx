import { VisuallyHidden } from '@mantine/core';
import type { CSSProperties } from 'react';

/** One column's header: its word, right-aligned over figures; `unseen` for a column of buttons. */
export interface WatchColumn {
  label: string;
  align?: 'right';
  /** Said to a screen reader only: the column's buttons speak for themselves on screen. */
  unseen?: boolean;
  title?: string;
}

// the book's header in small: muted capitals on the header colour, one line. Sticky, so the names stay
// over a long feed; the line under it is a shadow, as a collapsed table's border scrolls away with its rows.
const HEAD_CELL: CSSProperties = {
  position: 'sticky',
  top: 0,
  zIndex: 1,
  height: 22,
  padding: '0 8px',
  background: 'var(--mantine-color-dark-7)',
  boxShadow: 'inset 0 -1px 0 var(--sd-border)',
  color: 'var(--sd-muted)',
  fontSize: 11,
  fontWeight: 400,
  textTransform: 'uppercase',
  letterSpacing: '0.04em',
  whiteSpace: 'nowrap',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
};

/** The column headers of the alert feed and the auto-buy log (plain tables, sized by their colgroup). */
export function WatchTableHead({ columns }: { columns: readonly WatchColumn[] }) {
  return (
    <thead>
      <tr>
        {columns.map((c) => (
          <th
            key={c.label}
            scope="col"
            title={c.title}
            style={{ ...HEAD_CELL, textAlign: c.align ?? 'left' }}
          >
            {c.unseen ? <VisuallyHidden>{c.label}</VisuallyHidden> : c.label}
          </th>
        ))}
      </tr>
    </thead>
  );
}
