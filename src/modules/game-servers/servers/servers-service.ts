import type { OwnerScope } from '../../../kernel/auth/owner-scope.ts';
import type { AccountsDirectory } from '../../identity/index.ts';
import { accountNotFound, ownerIsNotAUser, serverUserNotFound } from '../game-servers-errors.ts';
import type { GameServersContext } from '../game-servers-context.ts';
import type { ServerAccess } from './server-access.ts';
import type { GameServerSources } from '../game-servers-interfaces.ts';
import {
  serverUserView,
  serverView,
  type LatestBuildView,
  type ServerUserView,
  type ServerView,
} from './server-view.ts';
import type { ServersRepository } from './servers-repository.ts';

/** Reading servers, and the holder's management of their users. */
export class ServersService {
  constructor(
    private readonly ctx: GameServersContext,
    private readonly servers: ServersRepository,
    private readonly access: ServerAccess,
    private readonly accounts: AccountsDirectory,
    private readonly sources: () => GameServerSources,
  ) {}

  async list(scope: OwnerScope): Promise<{ items: ServerView[]; total: number }> {
    const items: ServerView[] = [];
    for (const s of await this.servers.visibleTo(scope))
      items.push(serverView(await this.access.grantOn(scope, s)));
    return { items, total: items.length };
  }

  /** One server, with the newest stable build of its software when that is Paper. */
  async get(scope: OwnerScope, uuid: string): Promise<ServerView> {
    const view = serverView(await this.access.grant(scope, uuid));
    view.software.latest_build = await this.latestBuild(view.loader, view.game_version);
    return view;
  }

  /** Null when the server is not Paper or Paper does not answer: the read never fails on it. */
  private async latestBuild(loader: string, gameVersion: string | null): Promise<LatestBuildView | null> {
    const paper = this.sources().paper;
    if (loader !== 'paper' || gameVersion === null || paper === undefined) return null;
    try {
      const build = await paper.latestBuild('paper', gameVersion);
      return build === null ? null : { build: build.build, channel: build.channel };
    } catch (error) {
      this.ctx.log.warn({ err: error, gameVersion }, 'paper builds unavailable');
      return null;
    }
  }

  async users(scope: OwnerScope, uuid: string): Promise<{ items: ServerUserView[] }> {
    await this.access.grant(scope, uuid);
    return { items: (await this.servers.users(uuid)).map(serverUserView) };
  }

  /** Adds an account by its email address as a user, or sets its permissions. */
  async putUser(
    scope: OwnerScope,
    uuid: string,
    body: { email: string; permissions: string[] },
  ): Promise<ServerUserView> {
    const { server } = await this.access.requireOwner(scope, uuid);
    const account = await this.accounts.findUserByEmail(body.email.trim().toLowerCase());
    if (account === null) throw accountNotFound();
    if (account.id === server.user_id && server.org_id === null) throw ownerIsNotAUser();
    const permissions = [...new Set(['software.read', ...body.permissions])];
    await this.ctx.transaction(async ({ trx }) => {
      await this.servers.withTx(trx).putUser(uuid, account.id, account.email, permissions);
    });
    return serverUserView((await this.servers.user(uuid, account.id))!);
  }

  async removeUser(scope: OwnerScope, uuid: string, userId: number): Promise<void> {
    await this.access.requireOwner(scope, uuid);
    if (!(await this.servers.removeUser(uuid, userId))) throw serverUserNotFound();
  }
}
