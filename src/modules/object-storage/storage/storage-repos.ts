import type { BucketsRepository } from './buckets-repository.ts';
import type { KeysRepository } from './keys-repository.ts';
import type { StorageRepository } from './storage-repository.ts';

/** The module's repositories, one per table (the usage meter keeps its own). */
export interface StorageRepos {
  readonly storage: StorageRepository;
  readonly buckets: BucketsRepository;
  readonly keys: KeysRepository;
}
