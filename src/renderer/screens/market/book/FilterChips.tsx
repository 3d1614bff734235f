/**
 * The book's active filters, as chips in whatever width the toolbar leaves them. A chip that does not fit
 * whole is hidden rather than cut to "“…", and counted in a badge whose tooltip lists every filter; the
 * badge and the clear button sit outside the part that gives way, so clearing stays one click at any
 * window width. In the tightest toolbar only the clear button stays, its tooltip naming the filters.
 */
import { ActionIcon, Badge, Group, Stack, Text, Tooltip } from '@mantine/core';
import { useElementSize, useMergedRef } from '@mantine/hooks';
import { IconFilterOff } from '@tabler/icons-react';
import { useLayoutEffect, useRef, useState } from 'react';
import { plural } from '../../../format/numbers.ts';

/**
 * A single chip never takes more than this, so one long name leaves room for the others. Below it a chip
 * is as wide as its text (Mantine's badge would fit itself to the room left, down to "“…").
 */
const CHIP_MAX_PX = 220;

/** How many of the box's chips, from the left, fit inside it whole. */
export function chipsThatFit(box: HTMLElement): number {
  const right = box.getBoundingClientRect().right;
  let fit = 0;
  for (const chip of box.children) {
    if (chip.getBoundingClientRect().right > right + 0.5) break;
    fit++;
  }
  return fit;
}

function FilterList({ chips, title }: { chips: readonly string[]; title?: string }) {
  return (
    <Stack gap={0}>
      {title && (
        <Text size="xs" fw={600}>
          {title}
        </Text>
      )}
      {chips.map((c) => (
        <Text key={c} size="xs">
          {c}
        </Text>
      ))}
    </Stack>
  );
}

export interface FilterChipsProps {
  chips: readonly string[];
  onClear(): void;
  /** Only the clear button: the toolbar has no room for chips or a count. */
  bare?: boolean;
}

export function FilterChips({ chips, onClear, bare = false }: FilterChipsProps) {
  const { ref: sizeRef, width } = useElementSize<HTMLDivElement>();
  const boxRef = useRef<HTMLDivElement>(null);
  const ref = useMergedRef(sizeRef, boxRef);
  const [shown, setShown] = useState(chips.length);
  const key = chips.join('\n');
  // before paint, so a chip that does not fit is never drawn cut for a frame; hidden chips keep their
  // place in the row, which is what lets a wider toolbar measure them again
  useLayoutEffect(() => {
    const box = boxRef.current;
    setShown(box ? chipsThatFit(box) : chips.length);
  }, [key, width, chips.length, bare]);

  const visible = bare ? 0 : Math.min(shown, chips.length);
  const hidden = chips.length - visible;
  return (
    <Group gap={4} wrap="nowrap" style={{ flex: 1 }} data-testid="filter-chips">
      {/* width 0: the chips never widen the toolbar, they only fill what it leaves */}
      <Group ref={ref} gap={4} wrap="nowrap" style={{ flex: '1 1 0', width: 0, overflow: 'hidden' }}>
        {chips.map((c, i) => (
          <Badge
            key={c}
            variant="light"
            color="gray"
            radius="sm"
            tt="none"
            w="max-content"
            maw={CHIP_MAX_PX}
            title={c}
            aria-hidden={i >= visible || undefined}
            style={{ flex: 'none', visibility: i < visible ? undefined : 'hidden' }}
          >
            {c}
          </Badge>
        ))}
      </Group>
      {hidden > 0 && !bare && (
        <Tooltip label={<FilterList chips={chips} />}>
          <Badge
            variant="light"
            color="gray"
            radius="sm"
            tt="none"
            miw="max-content"
            style={{ flex: 'none', maxWidth: 'none' }}
            data-testid="filter-overflow"
          >
            {hidden === chips.length ? plural(chips.length, 'filter') : `+${hidden}`}
          </Badge>
        </Tooltip>
      )}
      {chips.length > 0 && (
        <Tooltip label={bare ? <FilterList chips={chips} title="Clear all filters:" /> : 'Clear all filters'}>
          <ActionIcon
            size="sm"
            color="gray"
            onClick={onClear}
            aria-label="Clear all filters"
            style={{ flex: 'none' }}
          >
            <IconFilterOff size={14} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
