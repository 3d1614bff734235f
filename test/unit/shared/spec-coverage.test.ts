import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ENDPOINTS, LISTING_EVENT_NAMES, SPEC_ERROR_CODES, WS_PATH, ERROR_STATUS } from '../../../src/shared/api/index.ts';

// The spec lives beside the repository (../shared/spec), as it does in CI's fresh clone.
const specPath = fileURLToPath(new URL('../../../../shared/spec/marketplace-api.md', import.meta.url));

describe('the contract covers the spec', () => {
  it('the spec file is present beside the checkout', () => {
    expect(existsSync(specPath), specPath).toBe(true);
  });
  const spec = existsSync(specPath) ? readFileSync(specPath, 'utf8') : '';
  const routeHeadings = [...spec.matchAll(/\*\*(GET|POST|PATCH|PUT|DELETE) (\/public\/v1[^*\s]*)\*\*/g)].map(
    (m) => ({ method: m[1]!, path: m[2]!.replace(/\{id\}/, ':id') }),
  );
  it('finds the routes of part 4 in the spec', () => {
    expect(routeHeadings.length).toBeGreaterThanOrEqual(25);
  });
  it('every route of part 4 is an endpoint of the contract', () => {
    const known = new Set(Object.values(ENDPOINTS).map((e) => `${e.method} ${e.path}`));
    known.add(`GET ${WS_PATH}`);
    const missing = routeHeadings.map((r) => `${r.method} ${r.path}`).filter((r) => !known.has(r));
    expect(missing).toEqual([]);
    expect(spec).toContain('`GET /public/v1`');
    expect(known.has('GET /public/v1')).toBe(true);
  });
  it('every event of §6.1 and every code of part 7 is in the contract', () => {
    for (const name of LISTING_EVENT_NAMES) expect(spec).toContain(name);
    const part7 = spec.slice(spec.indexOf('## 7. Errors'), spec.indexOf('## 8. Limits'));
    const specCodes = [...part7.matchAll(/^\| ([A-Z_]{6,}) \|/gm)].map((m) => m[1]!);
    expect(specCodes.length).toBeGreaterThanOrEqual(8);
    for (const code of specCodes) {
      expect(SPEC_ERROR_CODES).toContain(code);
      expect(ERROR_STATUS).toHaveProperty(code);
    }
  });
});
