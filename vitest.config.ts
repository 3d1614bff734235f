import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // forks, not threads: better-sqlite3 and servers started by integration tests get their own process
    pool: 'forks',
    // generous: integration tests start servers and fill databases on a 2-core machine
    testTimeout: 30_000,
    hookTimeout: 60_000,
    teardownTimeout: 15_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          include: ['test/unit/**/*.test.ts', 'test/integration/**/*.test.ts'],
          exclude: ['test/unit/renderer/**'],
        },
      },
      {
        extends: true,
        plugins: [react()],
        test: {
          name: 'renderer',
          environment: 'jsdom',
          include: ['test/unit/renderer/**/*.test.tsx'],
          setupFiles: ['test/setup/renderer.ts'],
          css: false,
        },
      },
    ],
  },
});
