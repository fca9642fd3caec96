/** The certificates module's public surface. */
export { createCertificatesModule, type CertificatesModule } from './certificates-module.ts';
export { certificatesConfig, type CertificatesSettings } from './certificates-config.ts';
export type { Certificates } from './certificates-interfaces.ts';
