/** Saved filter presets: load one, save the current filter and sort under a name, delete. Kept by the app. */
import { ActionIcon, Button, Group, Menu, Modal, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconBookmark, IconDeviceFloppy, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import type { BookView, FilterPreset } from '../../../../shared/ipc/calls-market.ts';
import { SkindeskError, call } from '../../../bridge/index.ts';
import { reportFailure } from '../../../shell/report-failure.ts';

export interface PresetMenuProps {
  presets: readonly FilterPreset[];
  current: BookView;
  onLoad(view: BookView): void;
  onPresets(presets: readonly FilterPreset[]): void;
  saveOpened: boolean;
  onSaveOpened(opened: boolean): void;
  /** Icon only (a narrow toolbar): the label moves to the tooltip. */
  compact?: boolean;
}

export function PresetMenu({ presets, current, onLoad, onPresets, saveOpened, onSaveOpened, compact = false }: PresetMenuProps) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const save = async () => {
    try {
      const state = await call('saveFilterPreset', { name: name.trim(), view: current });
      onPresets(state.presets);
      onSaveOpened(false);
      setName('');
      setProblem(null);
    } catch (err) {
      setProblem(err instanceof SkindeskError ? err.message : String(err));
    }
  };
  const label = `Presets${presets.length > 0 ? ` (${presets.length})` : ''}`;
  // the app keeps one preset per name: saving under a name in use replaces that preset, and says so first
  const replacing = presets.some((p) => p.name === name.trim());
  return (
    <>
      <Menu position="bottom-start" width={260} shadow="md">
        <Menu.Target>
          {compact ? (
            // 30 px: the height of the xs buttons and the search field beside it, so the toolbar keeps its
            // height (and the grid its place) when the buttons go icon-only
            <Tooltip label={label}>
              <ActionIcon variant="default" size={30} style={{ flex: 'none' }} aria-label={label} data-testid="presets-button">
                <IconBookmark size={16} />
              </ActionIcon>
            </Tooltip>
          ) : (
            <Button variant="default" leftSection={<IconBookmark size={14} />} style={{ flex: 'none' }} data-testid="presets-button">
              {label}
            </Button>
          )}
        </Menu.Target>
        <Menu.Dropdown>
          {presets.length === 0 && (
            <Text size="xs" c="dimmed" px="sm" py={6}>
              No presets yet.
            </Text>
          )}
          {presets.map((p) => (
            <Menu.Item
              key={p.name}
              onClick={() => onLoad(p.view)}
              data-testid="preset-item"
              rightSection={
                <ActionIcon
                  component="span"
                  size="xs"
                  color="gray"
                  aria-label={`Delete preset ${p.name}`}
                  onClick={(e: React.MouseEvent) => {
                    e.stopPropagation();
                    void call('deleteFilterPreset', { name: p.name }).then(
                      (state) => onPresets(state.presets),
                      (err: unknown) => reportFailure(`The preset “${p.name}” was not deleted`, err),
                    );
                  }}
                >
                  <IconX size={12} />
                </ActionIcon>
              }
            >
              {p.name}
            </Menu.Item>
          ))}
          <Menu.Divider />
          <Menu.Item leftSection={<IconDeviceFloppy size={14} />} onClick={() => onSaveOpened(true)}>
            Save current filter…
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <Modal opened={saveOpened} onClose={() => onSaveOpened(false)} title="Save filter preset" size={360}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (name.trim()) void save();
          }}
        >
          <Stack gap="sm">
            <TextInput
              label="Name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={60}
              data-autofocus
              error={problem}
              description={replacing ? `Replaces the preset “${name.trim()}” with the current filter and sort.` : undefined}
            />
            <Group justify="flex-end">
              <Button type="submit" disabled={!name.trim()} color={replacing ? 'orange' : undefined}>
                {replacing ? 'Replace' : 'Save'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
