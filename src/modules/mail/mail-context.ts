import type { ModuleContext } from '../../kernel/module/module-context.ts';
import type { MailSettings } from './mail-config.ts';
import type { MailTables } from './mail-tables.ts';

/** What the mail module's code receives: its tables and its settings. */
export type MailContext = ModuleContext<MailTables, MailSettings>;
