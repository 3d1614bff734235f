/**
 * Making the folder a database file goes in (`--db` names a file in a folder that may not exist yet).
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Makes the missing folders above `file`, one level at a time, or says in plain words which one could
 * not be made. Not mkdirSync's `recursive`: where mkdir answers ENOENT under a parent that exists (any
 * path under /proc), Node's recursive mkdir retries forever at full CPU, and a process spinning inside
 * one synchronous call never sees --duration, SIGINT or SIGTERM.
 */
export function makeFolderFor(file: string, what: string): void {
  const missing: string[] = [];
  for (let dir = dirname(file); !existsSync(dir); dir = dirname(dir)) {
    missing.unshift(dir);
    // a root that does not exist (a drive letter not mounted): nothing above it to stand on
    if (dirname(dir) === dir) break;
  }
  for (const dir of missing) {
    try {
      mkdirSync(dir);
    } catch (err) {
      // another process (the app, a second command) made it a moment ago
      const madeMeanwhile = (err as NodeJS.ErrnoException).code === 'EEXIST' && statSync(dir).isDirectory();
      if (madeMeanwhile) continue;
      throw new Error(`cannot create the folder ${dir} for ${what} (${reasonOf(err)})`, { cause: err });
    }
  }
}

/** Node's "ENOENT: no such file or directory, mkdir '/proc/nope'" without the call and path it repeats. */
function reasonOf(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/, mkdir '.*'$/s, '');
}
