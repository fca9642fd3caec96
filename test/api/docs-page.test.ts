import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../src/testing/chromium.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

describe('the interactive API reference at /docs, in a real browser', () => {
  let t: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    t = await startTestApp();
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('lists the DNS routes, each with its method, and opens one to show its answers', async () => {
    const page = await browser.newPage();
    const failed: string[] = [];
    page.on('requestfailed', (r) => failed.push(r.url()));
    await page.goto(`${t.url}/docs`);
    // Areas start folded (one per path segment after /api/v1): open DNS.
    const dnsTag = page.locator('.opblock-tag[data-tag="dns"]');
    await dnsTag.waitFor({ timeout: 20_000 });
    expect(await page.locator('.opblock-tag').count()).toBeGreaterThan(5);
    await dnsTag.click();
    const zonesPost = page.locator('.opblock-post .opblock-summary-path', {
      hasText: /^\/api\/v1\/dns\/zones$/,
    });
    await zonesPost.first().waitFor({ timeout: 20_000 });
    const paths = await page.locator('.opblock-summary-path').allInnerTexts();
    expect(paths.filter((p) => p.startsWith('/api/v1/dns/')).length).toBeGreaterThan(30);
    expect(paths).toContain('/api/v1/dns/zones/{zone_id}/records');
    await zonesPost.first().click();
    await page.locator('.responses-table').first().waitFor({ timeout: 10_000 });
    const statuses = await page.locator('.responses-table .response-col_status').allInnerTexts();
    expect(statuses.map((s) => s.trim())).toEqual(
      expect.arrayContaining(['201', '401', '409', '422', '429']),
    );
    expect(failed).toEqual([]);
    await page.close();
  }, 60_000);
});
