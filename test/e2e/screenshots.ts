import { join } from 'node:path';
import type { Page } from '@playwright/test';

const ROOT = join(import.meta.dirname, '../..');

/**
 * Toasts are not part of a screen's picture: the demo account's trade updates, and what the app published
 * before the page opened (handed over when it does), would cover the screen being shown.
 */
export async function hideToasts(page: Page): Promise<void> {
  await page.addStyleTag({ content: '.mantine-Notifications-root { display: none !important; }' });
}

/**
 * A screenshot of the real UI. Always written to test-results/screenshots/ so every run can be looked
 * at; written over the README's pictures in docs/screenshots/ only by `npm run screenshots`, so that
 * `npm test` leaves the work tree as it found it.
 */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  const file = `${name}.png`;
  await page.screenshot({ path: join(ROOT, 'test-results/screenshots', file) });
  if (process.env.SKINDESK_UPDATE_SCREENSHOTS === '1') {
    await page.screenshot({ path: join(ROOT, 'docs/screenshots', file) });
  }
}
