// An account screen's stored copy says when it was read as the book's does: the clock today, the date
// with the time on an earlier day. "offline · as of 14:05:12" over a copy from three days ago read as
// minutes old (the day was only in a tooltip).
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { FreshnessNote } from '../../../../src/renderer/screens/account/ui/FreshnessNote.tsx';
import { RefreshFailed } from '../../../../src/renderer/screens/account/ui/ReadFailure.tsx';
import { SkindeskError } from '../../../../src/shared/ipc/index.ts';
import { resetRendererState } from '../fake-app.ts';
import { renderWithTheme } from './fake-bridge.tsx';

afterEach(() => resetRendererState());

const pad = (n: number) => String(n).padStart(2, '0');
const threeDaysAgo = new Date(Date.now() - 3 * 24 * 3600_000);
const day = `${threeDaysAgo.getFullYear()}-${pad(threeDaysAgo.getMonth() + 1)}-${pad(threeDaysAgo.getDate())}`;
const clock = `${pad(threeDaysAgo.getHours())}:${pad(threeDaysAgo.getMinutes())}`;

describe('a stored copy from an earlier day', () => {
  it('the offline badge says the date with the time', () => {
    renderWithTheme(
      <FreshnessNote
        freshness={{
          fetchedAt: threeDaysAgo.toISOString(),
          fromCache: true,
          problem: 'The marketplace could not be reached.',
        }}
      />,
    );
    expect(screen.getByTestId('freshness-offline').textContent).toBe(`offline · as of ${day} ${clock}`);
  });

  it('"as of" without a problem says it too', () => {
    renderWithTheme(
      <FreshnessNote freshness={{ fetchedAt: threeDaysAgo.toISOString(), fromCache: true, problem: null }} />,
    );
    expect(screen.getByTestId('freshness').textContent).toBe(`as of ${day} ${clock}`);
  });

  it('so does a refresh that failed over its rows', () => {
    renderWithTheme(
      <RefreshFailed
        error={new SkindeskError({ code: 'MARKET', message: 'No answer.' })}
        title="The orders could not be read"
        asOf={threeDaysAgo.toISOString()}
      />,
    );
    expect(screen.getByTestId('read-refresh-failed').textContent).toBe(
      `not refreshed · as of ${day} ${clock}`,
    );
  });
});
