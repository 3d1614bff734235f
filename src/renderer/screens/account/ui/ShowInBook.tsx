import { ActionIcon, Tooltip } from '@mantine/core';
import { IconListSearch } from '@tabler/icons-react';
import type { AppId } from '../../../../shared/api/index.ts';
import { showItemInBook } from '../../../shell/navigation.ts';

/** Opens the book filtered to this item: what it is listed for right now, one click from any account row. */
export function ShowInBook({ appId, name }: { appId: AppId; name: string }) {
  return (
    <Tooltip label="Show this item in the book">
      <ActionIcon
        variant="subtle"
        color="gray"
        size="xs"
        aria-label={`Show ${name} in the book`}
        data-testid="show-in-book"
        onClick={(e) => {
          e.stopPropagation(); // rows that select on click stay as they are
          showItemInBook(appId, name);
        }}
      >
        <IconListSearch size={12} />
      </ActionIcon>
    </Tooltip>
  );
}
