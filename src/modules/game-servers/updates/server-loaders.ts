/**
 * The loaders whose builds run on a server's loader, as the sources name them: a Paper server runs
 * Paper, Spigot and Bukkit plugins, a Quilt server Fabric mods too. Datapacks need no loader.
 */
const RUNS_ON: Readonly<Record<string, readonly string[]>> = {
  paper: ['paper', 'spigot', 'bukkit'],
  purpur: ['purpur', 'paper', 'spigot', 'bukkit'],
  folia: ['folia'],
  spigot: ['spigot', 'bukkit'],
  bukkit: ['bukkit'],
  velocity: ['velocity'],
  fabric: ['fabric'],
  quilt: ['quilt', 'fabric'],
  forge: ['forge'],
  neoforge: ['neoforge'],
};

export function loadersFor(serverLoader: string, kind: string): readonly string[] {
  if (kind === 'datapack') return ['datapack'];
  const loader = serverLoader.toLowerCase();
  return RUNS_ON[loader] ?? [loader];
}
