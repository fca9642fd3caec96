import { Type } from 'typebox';
import { describes, IsoTime, Nullable } from '../../../kernel/http/view-schemas.ts';
import {
  INSTANCE_STATUSES,
  type InstanceStatus,
  type InstanceView,
  type IpAddressView,
} from './instance-view.ts';
import { TIMEFRAMES } from './instances-service.ts';

export const OrgSlug = Type.String({ minLength: 1, maxLength: 64 });
export const InstanceUuid = Type.String({ format: 'uuid' });
export const OrgParams = Type.Object({ org_slug: OrgSlug });
export const InstanceParams = Type.Object({ org_slug: OrgSlug, uuid: InstanceUuid });

const Status = Type.Unsafe<InstanceStatus>(Type.Union(INSTANCE_STATUSES.map((s) => Type.Literal(s))));

export const ListQuery = Type.Object({ status: Type.Optional(Status) }, { additionalProperties: false });
export const GraphsQuery = Type.Object(
  {
    timeframe: Type.Optional(
      Type.String({ maxLength: 16, description: `One of ${TIMEFRAMES.join(', ')} (default hour)` }),
    ),
  },
  { additionalProperties: false },
);

export const IpResponse = describes<IpAddressView>()(
  Type.Object({
    address: Type.String(),
    family: Type.Literal('ipv4'),
    gateway: Type.String(),
    prefix: Type.Integer(),
  }),
);

export const InstanceResponse = describes<InstanceView>()(
  Type.Object({
    uuid: Type.String(),
    service_id: Type.Integer(),
    name: Type.String(),
    hostname: Type.String(),
    status: Status,
    node: Type.String(),
    vmid: Type.Integer(),
    template: Type.Object({ id: Type.Integer(), name: Type.String() }),
    vcpus: Type.Integer(),
    memory_mb: Type.Integer(),
    disk_gb: Type.Integer(),
    ips: Type.Array(IpResponse),
    location: Nullable(Type.String()),
    created_at: IsoTime,
  }),
);
export const InstancesResponse = Type.Object({ items: Type.Array(InstanceResponse), total: Type.Integer() });

export const TemplatesResponse = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.Integer(),
      slug: Type.String(),
      name: Type.String(),
      min_memory_mb: Type.Integer(),
      min_disk_gb: Type.Integer(),
      locations: Nullable(Type.Array(Type.String())),
    }),
  ),
});

export const LiveStatusResponse = Type.Object({
  status: Status,
  uptime_s: Type.Integer(),
  cpu: Type.Number({ description: 'CPU use, 0..vcpus' }),
  mem_bytes: Type.Integer(),
  netin: Type.Integer({ description: 'Bytes received since the VM started' }),
  netout: Type.Integer({ description: 'Bytes sent since the VM started' }),
});

export const ConfigResponse = Type.Object({
  vcpus: Type.Integer(),
  memory_mb: Type.Integer(),
  disk: Type.Object({ device: Type.String(), size_gb: Nullable(Type.Number()) }),
  boot_order: Type.Array(Type.String()),
  cloud_init_user: Nullable(Type.String()),
  ssh_keys: Type.Array(
    Type.Object({ type: Type.String(), fingerprint: Type.String(), comment: Type.String() }),
  ),
});

export const IpsResponse = Type.Object({ items: Type.Array(IpResponse) });

export const BandwidthResponse = Type.Object({
  month: Type.String({ description: 'The calendar month counted (UTC), YYYY-MM' }),
  in_bytes: Type.Integer(),
  out_bytes: Type.Integer(),
  traffic_tb: Nullable(Type.Integer()),
  limit_bytes: Nullable(Type.Number()),
  over_limit: Type.Boolean(),
});

const Sample = Nullable(Type.Number());
export const GraphsResponse = Type.Object({
  timeframe: Type.String(),
  points: Type.Array(
    Type.Object({
      t: Type.Integer({ description: 'Seconds since the epoch' }),
      cpu: Sample,
      mem: Sample,
      netin: Sample,
      netout: Sample,
      diskread: Sample,
      diskwrite: Sample,
    }),
  ),
});

export const GuestResponse = Type.Object({
  os: Type.Object({
    id: Nullable(Type.String()),
    name: Nullable(Type.String()),
    version: Nullable(Type.String()),
    kernel: Nullable(Type.String()),
  }),
  interfaces: Type.Array(
    Type.Object({
      name: Type.String(),
      mac: Nullable(Type.String()),
      addresses: Type.Array(
        Type.Object({ address: Type.String(), prefix: Type.Integer(), family: Type.String() }),
      ),
    }),
  ),
});

export const ConsoleResponse = Type.Object({
  ticket: Type.String({ description: 'A one-time VNC ticket' }),
  websocket_url: Type.String({ description: 'The websocket the ticket opens, within 60 seconds' }),
  port: Type.Integer(),
  expires_at: IsoTime,
});

export const RescueMediaResponse = Type.Object({
  items: Type.Array(Type.Object({ iso_volid: Type.String(), size_bytes: Type.Integer() })),
});
