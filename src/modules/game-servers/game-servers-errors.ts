import { defineError } from '../../kernel/errors/error-registry.ts';

/** Every error of the game servers module, with its stable code. */
export const serverNotFound = defineError('game_servers.server_not_found', 404, 'Server not found');
export const serverUserNotFound = defineError('game_servers.user_not_found', 404, 'Server user not found');
export const accountNotFound = defineError(
  'game_servers.account_not_found',
  404,
  'No account with this email address',
);
export const notServerOwner = defineError(
  'game_servers.owner_only',
  403,
  'Only the server’s owner manages its users',
);
export const permissionMissing = defineError(
  'game_servers.permission_missing',
  403,
  (permission: string) => `This needs the ${permission} permission on the server`,
);
export const ownerIsNotAUser = defineError(
  'game_servers.owner_not_a_user',
  409,
  'The server’s owner has every permission already',
);
export const recordNotFound = defineError('game_servers.record_not_found', 404, 'Software record not found');
export const jobNotFound = defineError('game_servers.job_not_found', 404, 'Job not found');
export const sourceUnknown = defineError(
  'game_servers.source_unavailable',
  409,
  (source: string) => `The source ${source} is not available`,
);
export const versionNotFound = defineError(
  'game_servers.version_not_found',
  404,
  'No build of this project fits the server',
);
export const notUpdatable = defineError(
  'game_servers.not_updatable',
  409,
  'This file was not found at a source: it is never updated',
);
export const nothingToRollBack = defineError(
  'game_servers.nothing_to_roll_back',
  409,
  'There is no previous file to roll back to',
);
export const noAddonFolder = defineError(
  'game_servers.no_addon_folder',
  409,
  'This server software loads no plugins or mods',
);
export const jobRunning = defineError('game_servers.job_running', 409, 'A job on this file is still running');
export const updatesUnavailable = defineError(
  'game_servers.updates_unavailable',
  503,
  'Update checks are not available on this platform',
);
