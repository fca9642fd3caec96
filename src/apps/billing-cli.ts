import { AppError } from '../kernel/errors/app-error.ts';
import { amountOf, type BillingModule } from '../modules/billing/index.ts';
import { cliModules, exitWithUsage, runCliCommand } from './cli-runtime.ts';

/**
 * Operators' billing commands, against the configured database (cli-runtime.ts):
 * - `run --as-of <ISO date>`: the daily billing run for that day (UTC). A day already run does
 *   nothing; the scheduler of a running deployment calls the same code.
 * - `refund --invoice <id> [--amount <decimal>] [--to credit|original]`: refunds a paid invoice,
 *   all of what is left by default, back the way it was paid by default. Prints the invoice.
 */
const USAGE = [
  'usage: npm run billing -- run --as-of <ISO date, e.g. 2026-02-03>',
  '       npm run billing -- refund --invoice <id> [--amount <decimal, e.g. 1.50>] [--to credit|original]',
].join('\n');

type Command =
  | { readonly name: 'run'; readonly asOf: Date }
  | {
      readonly name: 'refund';
      readonly invoiceId: number;
      readonly amountMinor: number | null;
      readonly to: 'credit' | 'original';
    };

/** `--name value` pairs; null when a flag repeats, lacks its value or is not one of `allowed`. */
function flagsOf(args: readonly string[], allowed: readonly string[]): Map<string, string> | null {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i += 2) {
    const [flag, value] = [args[i]!, args[i + 1]];
    if (!allowed.includes(flag) || value === undefined || flags.has(flag)) return null;
    flags.set(flag, value);
  }
  return flags;
}

function parse(argv: readonly string[]): Command | null {
  const [name, ...rest] = argv;
  if (name === 'run') {
    const value = flagsOf(rest, ['--as-of'])?.get('--as-of');
    const asOf = value !== undefined && /^\d{4}-\d{2}-\d{2}/.test(value) ? new Date(value) : null;
    return asOf === null || Number.isNaN(asOf.getTime()) ? null : { name, asOf };
  }
  if (name !== 'refund') return null;
  const flags = flagsOf(rest, ['--invoice', '--amount', '--to']);
  const id = flags?.get('--invoice');
  if (flags === null || id === undefined || !/^[1-9]\d{0,15}$/.test(id)) return null;
  const amount = flags.get('--amount');
  const amountMinor = amount === undefined ? null : amountOf(amount);
  const to = flags.get('--to') ?? 'original';
  if (
    (amount !== undefined && (amountMinor === null || amountMinor === 0)) ||
    (to !== 'credit' && to !== 'original')
  )
    return null;
  return { name, invoiceId: Number(id), amountMinor, to };
}

const command = parse(process.argv.slice(2)) ?? exitWithUsage(USAGE);
await runCliCommand(async (runtime) => {
  const billing = cliModules(runtime).find((m) => m.name === 'billing') as BillingModule;
  const answer =
    command.name === 'run'
      ? await billing.runDay(command.asOf)
      : await billing.refund(command.invoiceId, command.amountMinor, command.to);
  return JSON.stringify(answer);
}, messageOf);

/** An error as the operator reads it: a refused refund's reason (the 422's message), or the message. */
function messageOf(error: unknown): string {
  if (error instanceof AppError && Array.isArray(error.detail))
    return error.detail
      .map((p: { loc: readonly unknown[]; msg: string }) => `${p.loc.at(-1)}: ${p.msg}`)
      .join('\n');
  return error instanceof Error ? error.message : String(error);
}
