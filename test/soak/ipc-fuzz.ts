/**
 * Every IPC call fuzzed with inputs its contract refuses. For each call: the example input with every
 * field in turn replaced by hostile values, removed, or joined by an unknown key; generic non-objects;
 * deep nesting; prototype-pollution shapes; and seeded random JSON. Only inputs the contract's own
 * schema rejects are kept — those are the ones for which no handler may run. They go through the same
 * dispatcher AppCore uses, with every handler wrapped to count runs, and through AppCore's own
 * dispatch; then the app must still answer normally and Object.prototype must be untouched.
 *
 * Hostile but well-formed inputs (a link off the allowlist) do reach their handler, which must refuse
 * them without acting (the platform opens nothing).
 */
import type { AppCore, RecordingPlatform } from '../../src/core/app/index.ts';
import { describeAppError } from '../../src/core/app/index.ts';
import {
  IPC_CALLS,
  IPC_CALL_NAMES,
  type IpcCallName,
  type IpcHandlers,
  type IpcResponse,
  createDispatcher,
} from '../../src/shared/ipc/index.ts';
import { createRng } from '../bench/generate.ts';

export interface FuzzReport {
  calls: number;
  /** Invalid inputs sent, in all and per call. */
  inputs: number;
  perCall: Record<string, number>;
  /** Handler runs caused by invalid inputs: must be 0. */
  handlerRuns: number;
  /** Invalid inputs answered with anything but INVALID_INPUT (or UNKNOWN_CALL for bad names): must be 0. */
  notRefused: number;
  /** dispatch threw instead of answering: must be 0. */
  crashes: number;
  unknownNames: number;
  /** Hostile well-formed inputs: refused by their handler, and the platform acted on none. */
  hostile: { sent: number; refused: number; platformActions: number };
  /** getStatus still answers after the fuzz. */
  aliveAfter: boolean;
  prototypePolluted: boolean;
  /** First few problems, for the report. */
  problems: string[];
}

/** Seeded PRNG (the bench's mulberry32): the same seed fuzzes with the same inputs. */
export const seededRandom = createRng;

const HOSTILE_VALUES: readonly unknown[] = [
  null,
  true,
  -1,
  0.5,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  2 ** 64,
  '',
  ' ',
  'x'.repeat(100_000),
  '\u0000',
  '../../../../etc/passwd',
  'javascript:alert(1)',
  "'; DROP TABLE listings; --",
  [],
  [1, 2, 3],
  {},
  { toString: 'x' },
  JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
];

function deepNest(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { nested: value };
  return value;
}

function randomJson(rng: () => number, depth = 0): unknown {
  const r = rng();
  if (depth > 3 || r < 0.35) {
    const kinds = [null, rng() < 0.5, Math.floor(rng() * 2 ** 40) - 2 ** 39, rng() * 1e6, 'random', ''];
    const k = Math.floor(rng() * (kinds.length + 2));
    if (k < kinds.length) return kinds[k];
    return Array.from({ length: Math.floor(rng() * 12) }, () => String.fromCharCode(32 + Math.floor(rng() * 94))).join('');
  }
  if (r < 0.6) return Array.from({ length: Math.floor(rng() * 4) }, () => randomJson(rng, depth + 1));
  const keys = ['filter', 'limit', 'id', 'url', 'apiKey', 'secret', 'useDemo', 'baseUrl', 'sort', 'after', 'count', 'x', '__proto__', 'constructor'];
  const out: Record<string, unknown> = {};
  for (let i = Math.floor(rng() * 4); i > 0; i--) out[keys[Math.floor(rng() * keys.length)]!] = randomJson(rng, depth + 1);
  return out;
}

/** Every path to a value inside a plain object. */
function paths(value: unknown, prefix: string[] = []): string[][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return prefix.length ? [prefix] : [];
  const out: string[][] = prefix.length ? [prefix] : [];
  for (const [k, v] of Object.entries(value)) out.push(...paths(v, [...prefix, k]));
  return out;
}

function withPath(base: unknown, path: string[], change: (parent: Record<string, unknown>, key: string) => void): unknown {
  const copy = structuredClone(base) as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  change(node, path[path.length - 1]!);
  return copy;
}

/** Candidate inputs for one call; the caller keeps those the contract rejects. */
export function candidateInputs(name: IpcCallName, rng: () => number): unknown[] {
  const example = IPC_CALLS[name].example as unknown;
  const out: unknown[] = [undefined, null, 0, 'string', true, [], [example], deepNest(2_000), { ...(example as object), unknownKey: 1 }];
  out.push(JSON.parse('{"__proto__":{"polluted":true}}'), JSON.parse('{"constructor":{"prototype":{"polluted":true}}}'));
  for (const path of paths(example)) {
    for (const hostile of HOSTILE_VALUES) {
      out.push(withPath(example, path, (parent, key) => {
        parent[key] = hostile;
      }));
    }
    out.push(withPath(example, path, (parent, key) => {
      delete parent[key];
    }));
    out.push(withPath(example, path, (parent, key) => {
      const inner = parent[key];
      if (inner !== null && typeof inner === 'object' && !Array.isArray(inner)) (inner as Record<string, unknown>)['unknownKey'] = 'x';
      else parent[`${key}Extra`] = inner;
    }));
  }
  for (let i = 0; i < 40; i++) out.push(randomJson(rng));
  return out;
}

const UNKNOWN_NAMES: readonly unknown[] = ['', 'getstatus', 'getStatus ', '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'x'.repeat(10_000), 42, null, undefined, {}, ['getStatus']];

export async function runIpcFuzz(core: AppCore, platform: RecordingPlatform, seed: number): Promise<FuzzReport> {
  const rng = seededRandom(seed);
  const runs = new Map<IpcCallName, number>();
  // The same dispatcher AppCore builds, over handlers that count their runs and then do the real work.
  const counted = Object.fromEntries(
    IPC_CALL_NAMES.map((name) => [
      name,
      (input: unknown) => {
        runs.set(name, (runs.get(name) ?? 0) + 1);
        return (core.handlers[name] as (i: unknown) => unknown)(input);
      },
    ]),
  ) as unknown as IpcHandlers;
  const dispatch = createDispatcher(counted, { describeError: (error) => describeAppError(error, core.redactor) });

  const report: FuzzReport = {
    calls: IPC_CALL_NAMES.length,
    inputs: 0,
    perCall: {},
    handlerRuns: 0,
    notRefused: 0,
    crashes: 0,
    unknownNames: 0,
    hostile: { sent: 0, refused: 0, platformActions: 0 },
    aliveAfter: false,
    prototypePolluted: false,
    problems: [],
  };
  const problem = (text: string) => {
    if (report.problems.length < 10) report.problems.push(text);
  };
  const send = async (via: (name: unknown, input: unknown) => Promise<IpcResponse>, name: unknown, input: unknown): Promise<IpcResponse | null> => {
    // One message per turn of the event loop, as IPC messages arrive: the app keeps serving everything else.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      return await via(name, input);
    } catch (err) {
      report.crashes++;
      problem(`${String(name).slice(0, 40)} threw: ${(err as Error).message}`);
      return null;
    }
  };

  for (const name of IPC_CALL_NAMES) {
    const schema = IPC_CALLS[name].input;
    const invalid = candidateInputs(name, rng).filter((input) => !schema.safeParse(input).success);
    report.perCall[name] = invalid.length;
    for (const input of invalid) {
      // Through the counting dispatcher and through AppCore's own: both must refuse before any handler.
      for (const via of [dispatch, core.dispatch]) {
        report.inputs++;
        const response = await send(via, name, input);
        if (response && (response.ok || response.error.code !== 'INVALID_INPUT')) {
          report.notRefused++;
          problem(`${name} answered ${JSON.stringify(response).slice(0, 120)} to an invalid input`);
        }
      }
    }
  }
  report.handlerRuns = [...runs.values()].reduce((a, b) => a + b, 0);
  if (report.handlerRuns > 0) problem(`handlers ran on invalid input: ${JSON.stringify(Object.fromEntries(runs))}`);

  for (const name of UNKNOWN_NAMES) {
    report.unknownNames++;
    const response = await send(core.dispatch, name, {});
    if (response && (response.ok || response.error.code !== 'UNKNOWN_CALL')) {
      report.notRefused++;
      problem(`unknown call ${String(name).slice(0, 40)} answered ${JSON.stringify(response).slice(0, 120)}`);
    }
  }

  const openedBefore = platform.opened.length;
  for (const url of ['https://evil.example/login', 'https://steamcommunity.com.evil.example/', 'http://steamcommunity.com/', 'https://user:pass@steamcommunity.com/']) {
    report.hostile.sent++;
    const response = await send(core.dispatch, 'openExternal', { url });
    if (response && !response.ok) report.hostile.refused++;
    else problem(`openExternal(${url}) was not refused`);
  }
  report.hostile.platformActions = platform.opened.length - openedBefore;

  const status = await send(core.dispatch, 'getStatus', {});
  report.aliveAfter = status?.ok === true;
  report.prototypePolluted = ({} as Record<string, unknown>)['polluted'] !== undefined;
  return report;
}
