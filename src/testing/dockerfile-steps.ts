/**
 * Test helper: reads a Dockerfile into its stages and instructions (continuation lines joined,
 * comments dropped), so a test can rehearse the image build without Docker: copy what each COPY
 * names, run the npm steps, then start the CMD with the ENV and probe with the HEALTHCHECK.
 */
export interface DockerInstruction {
  /** Upper case: FROM, COPY, RUN, ENV, CMD, HEALTHCHECK, ... */
  readonly op: string;
  readonly args: string;
}

export interface DockerStage {
  readonly name: string;
  readonly image: string;
  readonly instructions: readonly DockerInstruction[];
}

export function parseDockerfile(text: string): DockerStage[] {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (pending === '' && (line.trim() === '' || line.trimStart().startsWith('#'))) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    logical.push((pending + line).trim());
    pending = '';
  }
  const stages: { name: string; image: string; instructions: DockerInstruction[] }[] = [];
  for (const l of logical) {
    const space = l.indexOf(' ');
    const op = l.slice(0, space).toUpperCase();
    const args = l.slice(space + 1).trim();
    if (op === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args);
      if (!m) throw new Error(`unreadable FROM: ${args}`);
      stages.push({ image: m[1]!, name: m[2] ?? String(stages.length), instructions: [] });
    } else {
      const stage = stages.at(-1);
      if (!stage) throw new Error(`${op} before FROM`);
      stage.instructions.push({ op, args });
    }
  }
  return stages;
}

/** COPY [--from=stage] src... dest */
export function copyArgs(args: string): { from: string | null; sources: string[]; dest: string } {
  const words = args.split(/\s+/);
  let from: string | null = null;
  while (words[0]?.startsWith('--')) {
    const flag = words.shift()!;
    if (flag.startsWith('--from=')) from = flag.slice('--from='.length);
  }
  const dest = words.pop();
  if (dest === undefined || words.length === 0) throw new Error(`unreadable COPY: ${args}`);
  return { from, sources: words, dest };
}

/** ENV k=v k2=v2 (no quoting needed by our Dockerfile). */
export function envArgs(args: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of args.split(/\s+/)) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new Error(`unreadable ENV: ${args}`);
    out[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return out;
}

/** The command of `HEALTHCHECK [options] CMD <shell command>`. */
export function healthcheckCommand(args: string): string {
  const at = args.search(/(^|\s)CMD\s/);
  if (at < 0) throw new Error(`unreadable HEALTHCHECK: ${args}`);
  return args.slice(args.indexOf('CMD', at) + 3).trim();
}
