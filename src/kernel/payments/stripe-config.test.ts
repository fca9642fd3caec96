import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config/load-config.ts';
import { createLogger } from '../log/logger.ts';

/** STRIPE_SECRET_KEY and STRIPE_API_BASE_URL in the kernel's settings: read, checked, never shown. */
describe('Stripe settings', () => {
  const key = 'sk_test_51Secret0fTheAccountNeverLogged';

  it('reads the key and the API base URL; both unset: no Stripe', () => {
    const config = loadConfig({ STRIPE_SECRET_KEY: key, STRIPE_API_BASE_URL: 'http://127.0.0.1:12111/' });
    expect(config.stripeSecretKey).toBe(key);
    expect(config.stripeApiBaseUrl).toBe('http://127.0.0.1:12111');
    const none = loadConfig({});
    expect(none.stripeSecretKey).toBeNull();
    expect(none.stripeApiBaseUrl).toBeNull();
  });

  it('refuses a publishable key or a base URL that is not http(s), without echoing the key', () => {
    const publishable = 'pk_test_51PublishableKeyValue';
    let err: unknown;
    try {
      loadConfig({ STRIPE_SECRET_KEY: publishable, STRIPE_API_BASE_URL: 'ftp://127.0.0.1' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems;
    expect(problems).toEqual([
      expect.stringMatching(/^STRIPE_API_BASE_URL must start with http:\/\/ or https:\/\//),
      expect.stringMatching(/^STRIPE_SECRET_KEY must be a secret \(sk_…\) or restricted \(rk_…\) key/),
    ]);
    expect(problems.join('\n')).not.toContain('PublishableKeyValue');
  });

  it('keeps the key out of the settings handed to DNS workers and out of log lines', () => {
    const config = loadConfig({ STRIPE_SECRET_KEY: key, STRIPE_API_BASE_URL: 'http://127.0.0.1:12111' });
    expect(config.env).not.toHaveProperty('STRIPE_SECRET_KEY');
    expect(config.env.STRIPE_API_BASE_URL).toBe('http://127.0.0.1:12111');
    const lines: string[] = [];
    const log = createLogger('info', { write: (line) => lines.push(line) });
    log.info({ ...config }, 'configuration');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ stripeSecretKey: '[redacted]' });
    expect(lines[0]).not.toContain('Secret0fTheAccount');
  });
});
