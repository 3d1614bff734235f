/**
 * Turns off zod's compiled fast path. Building an object schema makes zod probe `new Function` unless
 * `jitless` is set; the probe's failure is caught, but a CSP without 'unsafe-eval' (every page of the
 * app) still reports it as a violation. ES imports run before the body of the module that imports them,
 * so the setting only works as its own module, imported before anything that builds a schema: the first
 * import of the preload, of the test host's bridge and of the renderer's entry (zod shares the setting
 * through globalThis, but the preload's globalThis is an isolated world of its own).
 */
import { z } from 'zod';

z.config({ jitless: true });
