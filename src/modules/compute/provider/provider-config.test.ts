import { describe, expect, it } from 'vitest';
import { EnvReader } from '../../../kernel/config/env-reader.ts';
import { createPveProvider, PveProvider } from './pve-provider.ts';
import { pveProviderConfig } from './provider-config.ts';

describe('the PVE provider settings', () => {
  it('no PVE_URL: no provider', () => {
    const env = new EnvReader({ PVE_TOKEN_ID: 'x' });
    expect(pveProviderConfig.read(env)).toBeNull();
    expect(env.problems).toEqual([]);
    expect(createPveProvider(null)).toBeNull();
  });

  it('reads the cluster, its token and storages; nodes from PVE_NODES', async () => {
    const env = new EnvReader({
      PVE_URL: 'https://pve1.example.net:8006/',
      PVE_TOKEN_ID: 'platform@pve!compute',
      PVE_TOKEN_SECRET: '3f1c2a9e-8b7d-4c6e-9a5f-0e1d2c3b4a59',
      PVE_CA_FILE: '/etc/platform/pve-ca.pem',
      PVE_STORAGE: 'local-lvm',
      PVE_BACKUP_STORAGE: 'backups',
      PVE_NODES: 'pve1, pve2',
    });
    expect(pveProviderConfig.read(env)).toEqual({
      url: 'https://pve1.example.net:8006',
      tokenId: 'platform@pve!compute',
      tokenSecret: '3f1c2a9e-8b7d-4c6e-9a5f-0e1d2c3b4a59',
      caFile: '/etc/platform/pve-ca.pem',
      storage: 'local-lvm',
      backupStorage: 'backups',
      isoStorage: 'local',
      nodes: ['pve1', 'pve2'],
    });
    expect(env.problems).toEqual([]);
    const provider = createPveProvider({ ...pveProviderConfig.read(env)!, caFile: null });
    expect(provider).toBeInstanceOf(PveProvider);
    await provider!.close();
  });

  it('names each bad value without echoing the secret', () => {
    const env = new EnvReader({
      PVE_URL: 'https://pve1.example.net:8006/api2/json',
      PVE_TOKEN_ID: 'root@pam',
      PVE_STORAGE: 'bad storage',
      PVE_NODES: 'pve_1',
    });
    pveProviderConfig.read(env);
    expect(env.problems).toEqual([
      'PVE_URL must be scheme://host:port only (the adapter adds /api2/json)',
      'PVE_TOKEN_ID must be user@realm!tokenid',
      'PVE_TOKEN_SECRET must be set when PVE_URL is',
      'PVE_STORAGE is not a PVE storage id, got "bad storage"',
      'PVE_NODES entry "pve_1" is not a node name',
    ]);
  });
});
