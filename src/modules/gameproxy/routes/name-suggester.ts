import { checkSubdomain } from './subdomain-check.ts';

/** A source of uniform numbers in [0, 1) (Math.random, or a seeded one in tests). */
export type RandomSource = () => number;

// prettier-ignore
const ADJECTIVES: readonly string[] = [
  'brave', 'calm', 'clever', 'cosy', 'crimson', 'daring', 'dusky', 'eager', 'early', 'fancy',
  'fierce', 'frosty', 'gentle', 'golden', 'grand', 'happy', 'hidden', 'jolly', 'keen', 'kind',
  'lively', 'lucky', 'mellow', 'mighty', 'misty', 'noble', 'quick', 'quiet', 'rapid', 'rusty',
  'shiny', 'silent', 'silver', 'sleepy', 'snowy', 'sunny', 'swift', 'tidy', 'wild', 'witty',
];

// prettier-ignore
const NOUNS: readonly string[] = [
  'otter', 'falcon', 'badger', 'beaver', 'bison', 'cobra', 'coyote', 'crane', 'dingo', 'eagle',
  'ferret', 'gecko', 'heron', 'ibex', 'jaguar', 'koala', 'lemur', 'llama', 'lynx', 'marmot',
  'moose', 'newt', 'ocelot', 'osprey', 'panda', 'parrot', 'puffin', 'quail', 'raven', 'salmon',
  'stoat', 'tapir', 'tiger', 'toucan', 'turtle', 'walrus', 'weasel', 'whale', 'wombat', 'yak',
];

/** Rounds of candidates drawn before numbered names (`brave-otter-42`) are drawn instead. */
const PLAIN_ROUNDS = 4;
const ROUNDS = 8;

const pick = <T>(random: RandomSource, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

function candidate(random: RandomSource, numbered: boolean): string {
  const name = `${pick(random, ADJECTIVES)}-${pick(random, NOUNS)}`;
  return numbered ? `${name}-${10 + Math.floor(random() * 90)}` : name;
}

/**
 * Up to `count` distinct readable names (`brave-otter`) that `available` keeps (it answers which of
 * the names it is asked about are free). Word pairs first; when they run short (a crowded base
 * domain), pairs with a two-digit number.
 */
export async function suggestNames(
  count: number,
  random: RandomSource,
  available: (names: readonly string[]) => Promise<ReadonlySet<string>>,
): Promise<string[]> {
  const chosen: string[] = [];
  for (let round = 0; round < ROUNDS && chosen.length < count; round++) {
    const drawn = new Set<string>();
    for (let i = 0; i < (count - chosen.length) * 2; i++) {
      const name = candidate(random, round >= PLAIN_ROUNDS);
      if (checkSubdomain(name) === null && !chosen.includes(name)) drawn.add(name);
    }
    const free = await available([...drawn]);
    for (const name of drawn) if (free.has(name) && chosen.length < count) chosen.push(name);
  }
  return chosen;
}
