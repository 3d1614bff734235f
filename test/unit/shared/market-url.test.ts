// The marketplace URL rule shared by the IPC contract and the Settings form: https anywhere, plain http only
// to this machine (the key travels in every request's header), nothing hidden in the URL.
import { describe, expect, it } from 'vitest';
import { isLoopbackHost, marketUrlProblem, originOf } from '../../../src/shared/market-url.ts';

describe('marketUrlProblem', () => {
  it.each([
    'https://api.market.example',
    'https://api.market.example:8443/',
    'http://127.0.0.1:4100',
    'http://localhost:3000',
    'http://[::1]:80',
  ])('accepts %s', (url) => expect(marketUrlProblem(url)).toBeNull());

  it.each([
    ['http://market.example', /https:\/\//],
    ['http://127.0.0.1.evil.example', /https:\/\//],
    ['ftp://market.example', /https:\/\//],
    ['https://user:pass@market.example', /user name or password/],
    ['https://market.example/?key=1', /query or a fragment/],
    ['market.example', /not a valid URL/],
    // copied from the API docs with the routes' prefix: every request would go to /public/v1/public/v1/…
    ['https://api.market.example/public/v1', /leave out \/public\/v1/],
    ['https://api.market.example/public/v1/', /leave out \/public\/v1/],
  ])('refuses %s', (url, why) => expect(marketUrlProblem(url)).toMatch(why));
});

describe('isLoopbackHost and originOf', () => {
  it('knows loopback hosts only', () => {
    expect(['localhost', 'LOCALHOST', '127.0.0.1', '127.1.2.3', '[::1]'].map(isLoopbackHost)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['127.0.0.1.nip.io', '10.0.0.1', 'localhost.example', '0.0.0.0'].map(isLoopbackHost)).toEqual([
      false,
      false,
      false,
      false,
    ]);
  });

  it('gives one origin however the URL is written', () => {
    expect(originOf('https://API.market.example:443/public/')).toBe(originOf('https://api.market.example'));
    expect(originOf('https://api.market.example')).not.toBe(originOf('https://api.market.example:8443'));
    expect(originOf(null)).toBeNull();
    expect(originOf('not a url')).toBeNull();
  });
});
