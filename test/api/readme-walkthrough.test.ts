import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/testing/free-port.ts';
import { startTestApp, type TestApp } from '../../src/testing/test-app.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * Where the walkthrough lives, in the order a reader follows it: the README's first steps (signing
 * up, a zone and a record), then the DNS page, which continues in the same shell.
 */
const WALKTHROUGH_FILES = ['README.md', 'docs/dns-and-load-balancing.md'];

/** The ```sh blocks of a piece of Markdown, in order. */
const shellBlocks = (text: string): string[] => [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);

/** The outputs a script promises: each `# → a → b` comment (a, then b, are lines of the output). */
const promisedOutputs = (script: string): string[] =>
  [...script.matchAll(/# → (.*)$/gm)].flatMap((m) =>
    m[1]!.split(' → ').map((s) => s.replace(/ \(.*\)$/, '').trim()),
  );

/**
 * The walkthrough blocks of each file (between `<!-- walkthrough -->` and `<!-- /walkthrough -->`),
 * joined as a user pastes them into one shell: the script run, and the outputs promised.
 */
function walkthrough(): { script: string; promised: string[] } {
  const scripts = WALKTHROUGH_FILES.map((file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const start = text.indexOf('<!-- walkthrough -->');
    const end = text.indexOf('<!-- /walkthrough -->');
    expect(start, `${file} marks its walkthrough`).toBeGreaterThan(0);
    expect(end, `${file} ends its walkthrough`).toBeGreaterThan(start);
    const script = shellBlocks(text.slice(start, end)).join('\n');
    expect(promisedOutputs(script).length, `${file} promises outputs`).toBeGreaterThanOrEqual(1);
    return script;
  });
  const script = scripts.join('\n');
  return { script, promised: promisedOutputs(script) };
}

describe('the walkthrough of the README and the DNS page, run as written against a started product', () => {
  let t: TestApp;
  let dnsPort: number;
  let cwd: string;
  beforeAll(async () => {
    dnsPort = await freePort();
    // What `npm start` runs: the embedded default, whatever backends the suite runs on.
    t = await startTestApp({ env: { DNS_PORT: String(dnsPort), DATABASE_URL: '', REDIS_URL: '' } });
    cwd = mkdtempSync(path.join(tmpdir(), 'walkthrough-'));
  });
  afterAll(async () => {
    await t?.close();
    if (cwd) rmSync(cwd, { recursive: true, force: true });
  });

  it('gives every output it promises, from the first request to a load-balanced answer', async () => {
    const { script, promised } = walkthrough();
    expect(promised.length).toBeGreaterThanOrEqual(8);
    const api = new URL(t.url);
    const pasted = script.replaceAll('localhost:8080', api.host).replaceAll('-p 5300', `-p ${dnsPort}`);
    // Asynchronously: the product answers from this process while the script runs.
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        'bash',
        ['-c', `set -euo pipefail\n${pasted}`],
        { cwd, timeout: 60_000 },
        (error, stdout, stderr) =>
          resolve({ code: error === null ? 0 : Number(error.code ?? 1), stdout, stderr }),
      );
    });
    expect(run.code, `${run.stderr}\n${run.stdout.slice(-3000)}`).toBe(0);
    // curl prints bodies without a newline: a promised line may follow one on the same line.
    const out = run.stdout;
    const missing = promised.filter((line) => !out.split('\n').some((l) => l.includes(line)));
    expect(missing, out.slice(-3000)).toEqual([]);
    expect(out).toMatch(/^example\.org\. 3600 IN DS \d+ 13 2 [0-9a-f]{64}$/m);
    expect(out).toMatch(/RRSIG\tA 13 3 300 /);
  }, 90_000);
});
