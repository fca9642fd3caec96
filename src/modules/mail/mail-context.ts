import { moduleContext, type ModuleContext } from '../../kernel/module/module-context.ts';
import type { Runtime } from '../../kernel/runtime/runtime.ts';
import { mailConfig, type MailSettings } from './mail-config.ts';
import type { MailTables } from './mail-tables.ts';

/** What the mail module's code receives: its tables and its settings. */
export type MailContext = ModuleContext<MailTables, MailSettings>;

export function mailContext(runtime: Runtime): MailContext {
  return moduleContext<MailTables, MailSettings>(runtime, 'mail', mailConfig);
}
