import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { certificatesConfig, type CertificatesSettings } from './certificates-config.ts';
import type { CertificatesTables } from './certificates-tables.ts';

/** What the certificates module's code receives: its tables and its settings. */
export type CertificatesContext = ModuleContext<CertificatesTables, CertificatesSettings>;

export function certificatesContext(runtime: Runtime): CertificatesContext {
  return moduleContext<CertificatesTables, CertificatesSettings>(runtime, 'certificates', certificatesConfig);
}
