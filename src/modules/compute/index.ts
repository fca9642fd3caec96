/** The compute module's public surface. */
export { createComputeModule, type ComputeModule, type ComputeModuleDeps } from './compute-module.ts';
export { computeConfig, type ComputeSettings } from './compute-config.ts';
export { pveProviderConfig, type PveProviderSettings } from './provider/provider-config.ts';
export type { ComputeProvider } from './provider/compute-provider.ts';
export { startLocalPve, type LocalPve, type LocalPveOptions } from './local-pve/pve-server.ts';
export { StateEngine } from './local-pve/state-engine.ts';
export { PveProvider } from './provider/pve-provider.ts';
