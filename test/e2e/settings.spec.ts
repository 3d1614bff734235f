// Settings, through the real renderer and core: a new user on the demo market enters a marketplace URL
// and API key (here a demo market the test runs itself, reached by URL and key), the app connects to it
// as the real market, the key is shown only by its last 4 characters, a URL of another origin is flagged
// before saving because it would drop the key, and removing the key goes back to the demo market.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { silentLog } from '../../src/core/app/index.ts';
import { MemorySecretStore } from '../../src/core/secrets/index.ts';
import { startDemoMarket } from '../../src/demo/index.ts';
import { startWebHost } from '../../src/web-host/index.ts';
import { saveScreenshot, watchProblems } from './market-fixtures.ts';

test('a marketplace URL and key entered in Settings connect the app, and removing the key goes back to the demo', async ({
  page,
}) => {
  const problems = watchProblems(page);
  const dataDir = mkdtempSync(join(tmpdir(), 'skindesk-e2e-settings-'));
  const market = await startDemoMarket({ port: 0, listings: 800, rate: 5, seed: 41 });
  const secrets = new MemorySecretStore();
  const host = await startWebHost({ dataDir, secrets, log: silentLog });
  try {
    await page.goto(host.url);
    await expect(page.getByTestId('market-badge')).toHaveText('Demo market');
    await page.keyboard.press('Control+Comma');
    const connection = page.getByTestId('settings-connection');
    await expect(connection).toContainText('Demo market');
    await expect(connection).toContainText('no API key is saved');
    await expect(page.getByLabel(/API key \(not saved\)/)).toBeVisible();

    // plain http to another machine would carry the key in clear: refused as it is typed
    const url = page.getByTestId('settings-market-url');
    const save = page.getByTestId('settings-save');
    await url.fill('http://market.example');
    await expect(page.getByText(/must start with https:\/\//)).toBeVisible();
    await expect(save).toBeDisabled();

    await url.fill(market.baseUrl);
    await page.getByTestId('settings-api-key').fill(market.apiKey);
    await page.getByTestId('settings-api-key').press('Enter');
    await expect(page.getByTestId('market-badge')).toHaveText('Real market', { timeout: 20_000 });
    await expect(connection).toContainText(`live · ${market.baseUrl}`, { timeout: 20_000 });
    await expect(page.getByLabel(`API key (saved, ends in ${market.apiKey.slice(-4)})`)).toBeVisible();
    await expect(page.getByTestId('settings-api-key')).toHaveValue('');
    expect(await secrets.get('api-key')).toBe(market.apiKey);
    expect(await page.content()).not.toContain(market.apiKey);
    await saveScreenshot(page, 'settings');

    // another origin without a key: the form says the saved key would go, and nothing is saved yet
    await url.fill('http://127.0.0.1:9');
    await expect(page.getByTestId('settings-key-warning')).toContainText(new URL(market.baseUrl).origin);
    await page.getByRole('button', { name: 'Undo changes' }).click();
    await expect(url).toHaveValue(market.baseUrl);
    await expect(page.getByTestId('settings-key-warning')).toHaveCount(0);

    // the market badge in the status bar leads here too; removing the key is confirmed, then the demo
    await page.keyboard.press('Alt+0');
    await page.getByTestId('market-badge').click();
    await page.getByTestId('settings-remove-key').click();
    await page
      .getByRole('dialog', { name: 'Remove the API key' })
      .getByRole('button', { name: 'Remove key' })
      .click();
    await expect(page.getByTestId('market-badge')).toHaveText('Demo market', { timeout: 20_000 });
    await expect(page.getByLabel(/API key \(not saved\)/)).toBeVisible();
    expect(await secrets.get('api-key')).toBeNull();
    // before the host closes: the page then loses its connection to the app, as it should
    expect(problems).toEqual([]);
  } finally {
    await host.close();
    await market.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('choosing the demo or the real market does not move the fields under the choice', async ({ page }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'skindesk-e2e-settings-'));
  const host = await startWebHost({ dataDir, secrets: new MemorySecretStore(), log: silentLog });
  try {
    await page.goto(host.url);
    await page.keyboard.press('Control+Comma');
    const url = page.getByTestId('settings-market-url');
    await expect(url).toBeVisible();
    const mode = page.getByTestId('settings-market-mode');
    const topOf = async () => (await url.boundingBox())?.y;
    const onReal = await topOf();
    await mode.getByText('Demo market').click();
    await expect(page.getByText(/A simulated market on this computer/)).toBeVisible();
    expect(await topOf()).toBe(onReal);
    await mode.getByText('Real marketplace').click();
    await expect(page.getByText(/The marketplace your API key belongs to/)).toBeVisible();
    expect(await topOf()).toBe(onReal);
  } finally {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
