// electron-log opens an IPC channel of its own when imported (for its renderer half, unused here): the main
// log closes it, so every channel a page can reach is the contract's, each with its sender check.
import { EventEmitter } from 'node:events';
import { Module, createRequire } from 'node:module';
import { describe, expect, it, vi } from 'vitest';

class FakeIpcMain extends EventEmitter {
  readonly handlers = new Map<string, unknown>();
  handle(channel: string, listener: unknown): void {
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
}

const fake = vi.hoisted(() => ({ electron: null as unknown as { ipcMain: FakeIpcMain; app: object } }));
const app = {
  name: 'Skindesk',
  getName: () => 'Skindesk',
  getVersion: () => '0.0.0',
  getPath: () => '/tmp',
  on: () => app,
};
fake.electron = { ipcMain: new FakeIpcMain(), app };

// src/main/logging.ts imports electron through vitest; electron-log requires it through Node's loader
vi.mock('electron', () => ({ default: fake.electron, ...fake.electron }));
const require = createRequire(import.meta.url);
const electronPath = require.resolve('electron');
require.cache[electronPath] = Object.assign(new Module(electronPath), {
  loaded: true,
  exports: fake.electron,
});

describe('the main log', () => {
  it("closes electron-log's own IPC channel", async () => {
    const { createMainLog, ELECTRON_LOG_CHANNEL } = await import('../../../src/main/logging.ts');
    const { Redactor } = await import('../../../src/core/app/redaction.ts');
    const ipcMain = fake.electron.ipcMain;
    // importing electron-log opened it
    expect(ipcMain.listenerCount(ELECTRON_LOG_CHANNEL)).toBe(1);
    expect(ipcMain.handlers.has(ELECTRON_LOG_CHANNEL)).toBe(true);

    createMainLog(new Redactor());
    expect(ipcMain.listenerCount(ELECTRON_LOG_CHANNEL)).toBe(0);
    expect(ipcMain.handlers.has(ELECTRON_LOG_CHANNEL)).toBe(false);
  });
});
