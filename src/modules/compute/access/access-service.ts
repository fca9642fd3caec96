import { randomBytes } from 'node:crypto';
import { invalidField } from '../../../kernel/errors/app-error.ts';
import type { ComputeContext } from '../compute-context.ts';
import { alreadyInRescue, notInRescue } from '../compute-errors.ts';
import type { VpsEventName } from '../compute-events.ts';
import type { InstanceAccess } from '../instances/instance-access.ts';
import { instanceView, type InstanceView } from '../instances/instance-view.ts';
import type { Instance, InstancesRepository } from '../instances/instances-repository.ts';
import { fromProvider } from '../instances/instances-service.ts';
import type { ProviderHolder } from '../instances/provider-holder.ts';
import { parseSshPublicKeys } from '../instances/ssh-public-keys.ts';
import { GuestAgentNotRunning, type ComputeProvider } from '../provider/compute-provider.ts';

/** RFC 1123 host names: labels of letters, digits and inner hyphens (1–63), 253 in all. */
const HOSTNAME =
  /^(?=.{1,253}$)([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

/** The boot orders of a normal boot and of a rescue boot (the ISO first). */
export const NORMAL_BOOT = 'order=scsi0;ide2;net0';
export const RESCUE_BOOT = 'order=ide2;scsi0;net0';

/** A password's alphabet: no look-alikes (0/O, 1/l/I). */
const ALPHABET = 'abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

export function newPassword(length = 20): string {
  const bytes = randomBytes(length * 2);
  let out = '';
  for (let i = 0; out.length < length && i < bytes.length; i++) {
    // Rejection sampling keeps every character equally likely.
    if (bytes[i]! < 256 - (256 % ALPHABET.length)) out += ALPHABET[bytes[i]! % ALPHABET.length];
  }
  return out.length === length ? out : newPassword(length);
}

/**
 * What the owner and admins change inside an instance: host name, cloud-init, the password, SSH
 * keys, and the rescue boot. Each change is announced on the outbox in its own transaction.
 */
export class AccessService {
  constructor(
    private readonly ctx: ComputeContext,
    private readonly access: InstanceAccess,
    private readonly instances: InstancesRepository,
    private readonly providers: ProviderHolder,
  ) {}

  private async announce(
    instance: Instance,
    name: VpsEventName,
    data: Record<string, unknown> = {},
    change?: Parameters<InstancesRepository['update']>[1],
  ): Promise<void> {
    await this.ctx.transaction(async (uow) => {
      if (change !== undefined) await this.instances.withTx(uow.trx).update(instance.uuid, change);
      await uow.record({ orgId: instance.org_id, name, data: { instance_uuid: instance.uuid, ...data } });
    });
  }

  private async isRunning(provider: ComputeProvider, instance: Instance): Promise<boolean> {
    const vm = await fromProvider(provider.currentStatus(instance.node, instance.vmid));
    return vm.status === 'running';
  }

  private wait(
    provider: ComputeProvider,
    task: Awaited<ReturnType<ComputeProvider['power']>> | null,
  ): Promise<unknown> {
    return task === null
      ? Promise.resolve()
      : fromProvider(provider.waitTask(task, this.ctx.settings.taskTimeoutMs));
  }

  /** The name (PVE's `name`, which cloud-init takes as the host name) and, if asked and running, a reboot. */
  async setHostname(
    orgId: number,
    uuid: string,
    body: { hostname: string; reboot?: boolean },
  ): Promise<InstanceView> {
    if (!HOSTNAME.test(body.hostname))
      throw invalidField(['body', 'hostname'], 'must be an RFC 1123 host name', body.hostname);
    const hostname = body.hostname.toLowerCase();
    const instance = await this.access.change(orgId, uuid);
    const provider = this.providers.require();
    await this.wait(
      provider,
      await fromProvider(provider.updateVmConfig(instance.node, instance.vmid, { name: hostname })),
    );
    await fromProvider(provider.regenerateCloudInit(instance.node, instance.vmid));
    if (body.reboot === true && (await this.isRunning(provider, instance)))
      await this.wait(provider, await fromProvider(provider.power(instance.node, instance.vmid, 'reboot')));
    const now = new Date(this.ctx.clock.now());
    await this.announce(
      instance,
      'vps.hostname.changed',
      { hostname, reboot: body.reboot === true },
      {
        hostname,
        name: hostname,
        updated_at: now,
      },
    );
    return instanceView(
      { ...instance, hostname, name: hostname },
      await provider.currentStatus(instance.node, instance.vmid).catch(() => null),
    );
  }

  async regenerateCloudInit(orgId: number, uuid: string): Promise<{ regenerated: true }> {
    const instance = await this.access.change(orgId, uuid);
    await fromProvider(this.providers.require().regenerateCloudInit(instance.node, instance.vmid));
    await this.announce(instance, 'vps.cloud_init.regenerated');
    return { regenerated: true };
  }

  /**
   * A new password for the cloud-init user, answered once and kept nowhere: through the guest
   * agent when the instance runs one, else set in cloud-init (PVE keeps only its hash) and the
   * instance rebooted if running.
   */
  async resetPassword(
    orgId: number,
    uuid: string,
  ): Promise<{ password: string; method: 'guest_agent' | 'cloud_init' }> {
    const instance = await this.access.change(orgId, uuid);
    const provider = this.providers.require();
    const password = newPassword();
    const config = await fromProvider(provider.vmConfig(instance.node, instance.vmid));
    const user = config.ciuser ?? this.ctx.settings.ciUser;
    const running = await this.isRunning(provider, instance);
    let method: 'guest_agent' | 'cloud_init' = 'cloud_init';
    if (running) {
      try {
        await provider.setGuestPassword(instance.node, instance.vmid, user, password);
        method = 'guest_agent';
      } catch (error) {
        if (!(error instanceof GuestAgentNotRunning)) await fromProvider(Promise.reject(error));
      }
    }
    if (method === 'cloud_init') {
      await this.wait(
        provider,
        await fromProvider(provider.updateVmConfig(instance.node, instance.vmid, { cipassword: password })),
      );
      await fromProvider(provider.regenerateCloudInit(instance.node, instance.vmid));
      if (running)
        await this.wait(provider, await fromProvider(provider.power(instance.node, instance.vmid, 'reboot')));
    }
    await this.announce(instance, 'vps.password.reset', { method });
    return { password, method };
  }

  async setSshKeys(
    orgId: number,
    uuid: string,
    text: string,
  ): Promise<{ ssh_keys: { type: string; fingerprint: string; comment: string }[] }> {
    const parsed = parseSshPublicKeys(text);
    if ('line' in parsed)
      throw invalidField(
        ['body', 'ssh_keys'],
        `line ${parsed.line}: ${parsed.reason}`,
        `line ${parsed.line}`,
      );
    const instance = await this.access.change(orgId, uuid);
    const provider = this.providers.require();
    const lines = parsed.keys.map((k) => k.line).join('\n');
    const change = lines === '' ? { delete: ['sshkeys'] } : { sshkeys: lines };
    await this.wait(
      provider,
      await fromProvider(provider.updateVmConfig(instance.node, instance.vmid, change)),
    );
    await fromProvider(provider.regenerateCloudInit(instance.node, instance.vmid));
    const fingerprints = parsed.keys.map((k) => k.fingerprint);
    await this.announce(
      instance,
      'vps.ssh_keys.updated',
      { fingerprints },
      {
        ssh_keys: lines,
        updated_at: new Date(this.ctx.clock.now()),
      },
    );
    return {
      ssh_keys: parsed.keys.map((k) => ({ type: k.type, fingerprint: k.fingerprint, comment: k.comment })),
    };
  }

  /** Restarts the VM so a new boot order applies (stopped → started). */
  private async restart(provider: ComputeProvider, instance: Instance): Promise<void> {
    if (await this.isRunning(provider, instance))
      await this.wait(provider, await fromProvider(provider.power(instance.node, instance.vmid, 'stop')));
    await this.wait(provider, await fromProvider(provider.power(instance.node, instance.vmid, 'start')));
  }

  /** Boots from a rescue ISO (one of /rescue/media): the ISO in the CD-ROM drive, first in the boot order. */
  async enterRescue(orgId: number, uuid: string, isoVolid: string): Promise<InstanceView> {
    const instance = await this.access.change(orgId, uuid);
    if (instance.state === 'rescue') throw alreadyInRescue();
    const provider = this.providers.require();
    const isos = await fromProvider(provider.listIsos(instance.node));
    if (!isos.some((i) => i.volid === isoVolid))
      throw invalidField(['body', 'iso_volid'], 'must be one of GET /rescue/media', isoVolid);
    await this.wait(
      provider,
      await fromProvider(
        provider.updateVmConfig(instance.node, instance.vmid, {
          ide2: `${isoVolid},media=cdrom`,
          boot: RESCUE_BOOT,
        }),
      ),
    );
    await this.restart(provider, instance);
    await this.announce(
      instance,
      'vps.rescue.entered',
      { iso_volid: isoVolid },
      {
        state: 'rescue',
        updated_at: new Date(this.ctx.clock.now()),
      },
    );
    return instanceView({ ...instance, state: 'rescue' }, null);
  }

  async exitRescue(orgId: number, uuid: string): Promise<InstanceView> {
    const instance = await this.access.change(orgId, uuid);
    if (instance.state !== 'rescue') throw notInRescue();
    const provider = this.providers.require();
    await this.wait(
      provider,
      await fromProvider(
        provider.updateVmConfig(instance.node, instance.vmid, {
          ide2: 'none,media=cdrom',
          boot: NORMAL_BOOT,
        }),
      ),
    );
    await this.restart(provider, instance);
    await this.announce(
      instance,
      'vps.rescue.exited',
      {},
      { state: 'active', updated_at: new Date(this.ctx.clock.now()) },
    );
    return instanceView(
      { ...instance, state: 'active' },
      await provider.currentStatus(instance.node, instance.vmid).catch(() => null),
    );
  }
}
