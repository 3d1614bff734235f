import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isLoopbackAddress, isPublicAddress } from '../../../src/demo/webhooks/url-policy.ts';

const lookup = async (host: string) =>
  ({ 'public.example': ['93.184.216.34', '2606:2800:220:1::1'], 'mixed.example': ['93.184.216.34', '10.0.0.1'], 'local.example': ['127.0.0.1'], 'v6local.example': ['::1'] })[host] ?? [];

describe('webhook URL policy', () => {
  it('classifies addresses', () => {
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:2800:220:1::1']) expect(isPublicAddress(a), a).toBe(true);
    for (const a of ['10.1.2.3', '172.16.0.1', '192.168.1.1', '127.0.0.1', '169.254.1.1', '100.64.0.1', '0.0.0.0', '224.0.0.1', '::1', 'fe80::1', 'fc00::1', '::ffff:10.0.0.1', '2001:db8::1']) {
      expect(isPublicAddress(a), a).toBe(false);
    }
    // IPv6 forms that carry a non-public IPv4 address or are not globally routable
    for (const a of ['::7f00:1', '::a00:1', '::127.0.0.1', 'fec0::1', '2002:7f00:1::1', '2002:c0a8:101::', '2002:a00:1::5']) {
      expect(isPublicAddress(a), a).toBe(false);
    }
    expect(isPublicAddress('2002:5db8:d822::1'), '6to4 of a public IPv4 address').toBe(true);
    expect(isLoopbackAddress('127.8.9.10')).toBe(true);
    expect(isLoopbackAddress('::ffff:127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('10.0.0.1')).toBe(false);
  });

  it('production rule: https to public addresses only', async () => {
    const strict = { allowLoopback: false, lookup };
    await expect(checkWebhookUrl('https://public.example/hook', strict)).resolves.toMatchObject({ addresses: ['93.184.216.34', '2606:2800:220:1::1'] });
    for (const url of ['http://public.example/hook', 'https://mixed.example/hook', 'https://local.example/hook', 'http://127.0.0.1:8080/x', 'https://nowhere.example/', 'ftp://public.example/', 'https://u:p@public.example/', '::', 'https://[::127.0.0.1]/x', 'https://[2002:7f00:1::]/x', 'https://[fec0::1]/x']) {
      await expect(checkWebhookUrl(url, strict), url).rejects.toMatchObject({ code: 'INVALID_WEBHOOK_URL' });
    }
  });

  it('demo mode also accepts http(s) to loopback, and nothing else that is not public', async () => {
    const demo = { allowLoopback: true, lookup };
    for (const url of ['http://127.0.0.1:8080/x', 'http://local.example/x', 'https://[::1]:9000/x', 'http://v6local.example/x', 'https://public.example/x']) {
      await expect(checkWebhookUrl(url, demo), url).resolves.toBeDefined();
    }
    for (const url of ['http://public.example/x', 'http://10.0.0.1/x', 'https://192.168.0.2/x', 'https://mixed.example/x']) {
      await expect(checkWebhookUrl(url, demo), url).rejects.toMatchObject({ code: 'INVALID_WEBHOOK_URL' });
    }
  });
});
