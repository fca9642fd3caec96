import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { objectStorageConfig, type ObjectStorageSettings } from './object-storage-config.ts';
import type { ObjectStorageTables } from './object-storage-tables.ts';

/** What the object storage module's code receives: its tables, its settings, the kernel's services. */
export type ObjectStorageContext = ModuleContext<ObjectStorageTables, ObjectStorageSettings>;

export function objectStorageContext(runtime: Runtime): ObjectStorageContext {
  return moduleContext<ObjectStorageTables, ObjectStorageSettings>(
    runtime,
    'object-storage',
    objectStorageConfig,
  );
}
