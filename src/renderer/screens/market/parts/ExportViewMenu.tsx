/**
 * "Export this view": every row of what a screen shows — the book as filtered and sorted, the sales tape
 * as filtered — to a CSV or JSON-lines file the app writes (the command line's columns). The button
 * counts rows while the app writes; a toast says where the file went, or why it could not be written.
 */
import { ActionIcon, Loader, Menu, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconFileExport } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import type { ViewExportInput } from '../../../../shared/ipc/calls-market.ts';
import { call, usePush } from '../../../bridge/index.ts';
import { formatCount, plural } from '../../../format/numbers.ts';
import { type Command, useRegisterCommands } from '../../../shell/commands.ts';
import { useAction } from '../../account/ui/useAction.ts';

type ExportFormat = 'csv' | 'jsonl';
/** The view to export, without its format (the menu picks that). */
export type ExportableView = ViewExportInput extends infer V
  ? V extends unknown
    ? Omit<V, 'format'>
    : never
  : never;

const FORMAT_NAMES: Record<ExportFormat, string> = { csv: 'CSV', jsonl: 'JSON lines' };

/**
 * The export of `view` (read when it runs), with palette commands in `group`. `what` names the rows in
 * the toast ("listing", "sale").
 */
export function ExportViewMenu({ view, group, what }: { view: ExportableView; group: string; what: string }) {
  const [rows, setRows] = useState(0);
  // useAction runs the latest closure (so the view of the latest render) and never two at once
  const exporting = useAction(async (format: ExportFormat) => {
    setRows(0);
    const outcome = await call('exportView', { ...view, format } as ViewExportInput);
    if (outcome.saved)
      notifications.show({
        title: 'Exported',
        message: `${plural(outcome.rows, what)} → ${outcome.file}`,
        color: 'teal',
        autoClose: 8_000,
      });
    return outcome;
  });
  // one export at a time from here, and one screen shown: the pushes while it runs are its own
  usePush('exportProgress', (p) => {
    if (exporting.running) setRows(p.rows);
  });
  useEffect(() => {
    if (exporting.error)
      notifications.show({ title: 'Not exported', message: exporting.error.message, color: 'red' });
  }, [exporting.error]);
  const start = exporting.run;

  const commands = useMemo<Command[]>(
    () =>
      (['csv', 'jsonl'] as const).map((format) => ({
        id: `${group.toLowerCase()}.export.${format}`,
        label: `Export this view as ${FORMAT_NAMES[format]}`,
        group,
        keywords: ['export', 'save', 'download', 'spreadsheet'],
        run: () => void start(format),
      })),
    [group, start],
  );
  useRegisterCommands(commands);

  if (exporting.running)
    return (
      <Tooltip label="Writing the file…">
        <Text
          size="xs"
          c="dimmed"
          className="sd-num"
          style={{ display: 'flex', gap: 6, alignItems: 'center', flex: 'none' }}
          data-testid="export-view-running"
        >
          <Loader size={12} />
          {formatCount(rows)}
        </Text>
      </Tooltip>
    );
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Tooltip label="Export every row of this view (CSV or JSON lines)">
          <ActionIcon
            variant="subtle"
            color="gray"
            size="md"
            aria-label="Export this view"
            data-testid="export-view"
            style={{ flex: 'none' }}
          >
            <IconFileExport size={16} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Export every row of this view</Menu.Label>
        {(['csv', 'jsonl'] as const).map((format) => (
          <Menu.Item key={format} onClick={() => void start(format)} data-testid={`export-view-${format}`}>
            {FORMAT_NAMES[format]}…
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
