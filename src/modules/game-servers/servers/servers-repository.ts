import type { Kysely, Selectable, Transaction } from 'kysely';
import { ownedRows, type OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import type { GameServersTables, ServerRow, ServerUserRow } from '../game-servers-tables.ts';

type Db = Kysely<GameServersTables> | Transaction<GameServersTables>;
export type Server = Selectable<ServerRow>;
export type ServerUser = Omit<Selectable<ServerUserRow>, 'permissions'> & { permissions: string[] };

/** bigint columns arrive as strings from PostgreSQL: numbers here. */
function serverOf(r: Selectable<ServerRow>): Server {
  return {
    ...r,
    service_id: Number(r.service_id),
    user_id: Number(r.user_id),
    org_id: r.org_id === null ? null : Number(r.org_id),
    build_number: r.build_number === null ? null : Number(r.build_number),
    created_at: new Date(r.created_at),
  };
}

function userOf(r: Selectable<ServerUserRow>): ServerUser {
  return {
    ...r,
    user_id: Number(r.user_id),
    permissions: JSON.parse(r.permissions) as string[],
    created_at: new Date(r.created_at),
  };
}

/** Servers and their users. */
export class ServersRepository {
  constructor(private readonly db: Db) {}

  withTx(trx: Transaction<GameServersTables>): ServersRepository {
    return new ServersRepository(trx);
  }

  async insert(row: Omit<ServerRow, 'created_at'>): Promise<void> {
    await this.db
      .insertInto('game_servers_servers')
      .values(row)
      .onConflict((oc) => oc.column('service_id').doNothing())
      .execute();
  }

  async byService(serviceId: number): Promise<Server | null> {
    const r = await this.db
      .selectFrom('game_servers_servers')
      .selectAll()
      .where('service_id', '=', serviceId)
      .executeTakeFirst();
    return r === undefined ? null : serverOf(r);
  }

  async find(uuid: string): Promise<Server | null> {
    const r = await this.db
      .selectFrom('game_servers_servers')
      .selectAll()
      .where('uuid', '=', uuid)
      .where('status', '!=', 'terminated')
      .executeTakeFirst();
    return r === undefined ? null : serverOf(r);
  }

  /** Servers the scope holds and those it is a user of, newest first. */
  async visibleTo(scope: OwnerScope): Promise<Server[]> {
    const rows = await this.db
      .selectFrom('game_servers_servers')
      .selectAll()
      .where('status', '!=', 'terminated')
      .where((eb) =>
        eb.or([
          ownedRows(scope, 'read'),
          eb(
            'uuid',
            'in',
            eb.selectFrom('game_servers_users').select('server_uuid').where('user_id', '=', scope.userId),
          ),
        ]),
      )
      .orderBy('created_at', 'desc')
      .orderBy('uuid')
      .execute();
    return rows.map(serverOf);
  }

  async setStatus(serviceId: number, status: ServerRow['status']): Promise<void> {
    await this.db
      .updateTable('game_servers_servers')
      .set({ status })
      .where('service_id', '=', serviceId)
      .execute();
  }

  async users(uuid: string): Promise<ServerUser[]> {
    const rows = await this.db
      .selectFrom('game_servers_users')
      .selectAll()
      .where('server_uuid', '=', uuid)
      .orderBy('created_at')
      .orderBy('user_id')
      .execute();
    return rows.map(userOf);
  }

  async user(uuid: string, userId: number): Promise<ServerUser | null> {
    const r = await this.db
      .selectFrom('game_servers_users')
      .selectAll()
      .where('server_uuid', '=', uuid)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return r === undefined ? null : userOf(r);
  }

  /** Adds the user, or sets the permissions of one already there. */
  async putUser(uuid: string, userId: number, email: string, permissions: readonly string[]): Promise<void> {
    const json = JSON.stringify(permissions);
    await this.db
      .insertInto('game_servers_users')
      .values({ server_uuid: uuid, user_id: userId, email, permissions: json })
      .onConflict((oc) => oc.columns(['server_uuid', 'user_id']).doUpdateSet({ permissions: json, email }))
      .execute();
  }

  async removeUser(uuid: string, userId: number): Promise<boolean> {
    const r = await this.db
      .deleteFrom('game_servers_users')
      .where('server_uuid', '=', uuid)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(r.numDeletedRows) > 0;
  }
}
