import { Type } from 'typebox';
import { errorResponses } from '../../../kernel/http/error-schemas.ts';
import type { ModuleApp } from '../../../kernel/module/platform-module.ts';
import { InstanceParams, InstanceResponse } from '../instances/instances-schemas.ts';
import type { AccessService } from './access-service.ts';

const HostnameBody = Type.Object(
  {
    hostname: Type.String({ minLength: 1, maxLength: 253, description: 'An RFC 1123 host name' }),
    reboot: Type.Optional(Type.Boolean({ description: 'Reboot a running instance so the guest takes it' })),
  },
  { additionalProperties: false },
);
const SshKeysBody = Type.Object(
  { ssh_keys: Type.String({ maxLength: 65_536, description: 'OpenSSH public keys, one per line' }) },
  { additionalProperties: false },
);
const RescueBody = Type.Object(
  { iso_volid: Type.String({ minLength: 1, maxLength: 255, description: 'One of GET /rescue/media' }) },
  { additionalProperties: false },
);
const KeysResponse = Type.Object({
  ssh_keys: Type.Array(
    Type.Object({ type: Type.String(), fingerprint: Type.String(), comment: Type.String() }),
  ),
});
const PasswordResponse = Type.Object({
  password: Type.String({ description: 'Shown once; kept nowhere' }),
  method: Type.Union([Type.Literal('guest_agent'), Type.Literal('cloud_init')]),
});
const RegeneratedResponse = Type.Object({ regenerated: Type.Literal(true) });

/** Host name, cloud-init, password, SSH keys and rescue of /orgs/{org_slug}/vps/{uuid} (owner or admin). */
export function registerAccessRoutes(app: ModuleApp, service: AccessService): void {
  const errors = errorResponses(409, 502, 503);
  app.patch(
    '/:org_slug/vps/:uuid/hostname',
    {
      config: { auth: 'org:admin', audit: 'compute.instance.hostname' },
      schema: {
        summary: 'Changes the host name (cloud-init), rebooting a running instance when reboot is true',
        params: InstanceParams,
        body: HostnameBody,
        response: { 200: InstanceResponse, ...errors, ...errorResponses(415) },
      },
    },
    async (request) => service.setHostname(request.principal.orgId!, request.params.uuid, request.body),
  );
  app.post(
    '/:org_slug/vps/:uuid/cloud-init/regenerate',
    {
      config: { auth: 'org:admin', audit: 'compute.instance.cloud_init' },
      schema: {
        summary: 'Writes the cloud-init drive again from the instance’s config',
        params: InstanceParams,
        response: { 200: RegeneratedResponse, ...errors },
      },
    },
    async (request) => service.regenerateCloudInit(request.principal.orgId!, request.params.uuid),
  );
  app.post(
    '/:org_slug/vps/:uuid/reset-password',
    {
      config: { auth: 'org:admin', audit: 'compute.instance.password' },
      schema: {
        summary:
          'A new password for the cloud-init user, answered once: through the guest agent when running, else cloud-init and a reboot',
        params: InstanceParams,
        response: { 200: PasswordResponse, ...errors },
      },
    },
    async (request) => service.resetPassword(request.principal.orgId!, request.params.uuid),
  );
  app.put(
    '/:org_slug/vps/:uuid/ssh-keys',
    {
      config: { auth: 'org:admin', audit: 'compute.instance.ssh_keys' },
      schema: {
        summary:
          'Replaces the SSH keys cloud-init installs (each line an OpenSSH public key; a bad line is a 422 naming it)',
        params: InstanceParams,
        body: SshKeysBody,
        response: { 200: KeysResponse, ...errors, ...errorResponses(415) },
      },
    },
    async (request) =>
      service.setSshKeys(request.principal.orgId!, request.params.uuid, request.body.ssh_keys),
  );
  app.post(
    '/:org_slug/vps/:uuid/rescue/enter',
    {
      config: { auth: 'org:admin', audit: 'compute.instance.rescue_enter' },
      schema: {
        summary: 'Boots the instance from a rescue ISO',
        params: InstanceParams,
        body: RescueBody,
        response: { 200: InstanceResponse, ...errors, ...errorResponses(415) },
      },
    },
    async (request) =>
      service.enterRescue(request.principal.orgId!, request.params.uuid, request.body.iso_volid),
  );
  app.post(
    '/:org_slug/vps/:uuid/rescue/exit',
    {
      config: { auth: 'org:admin', audit: 'compute.instance.rescue_exit' },
      schema: {
        summary: 'Boots the instance from its disk again',
        params: InstanceParams,
        response: { 200: InstanceResponse, ...errors },
      },
    },
    async (request) => service.exitRescue(request.principal.orgId!, request.params.uuid),
  );
}
