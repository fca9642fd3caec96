/** The mail module's public surface. */
export { createMailModule, type MailModule, type MailModuleDeps } from './mail-module.ts';
export { mailConfig, type MailSettings } from './mail-config.ts';
