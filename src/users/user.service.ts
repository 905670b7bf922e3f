import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Not, Repository } from 'typeorm';
import { UserError } from './user.error';
import { ErrorCode } from '../common/errors/error-code.enum';
import { AuditLog } from '../common/logging/audit-log';
import { OrgService } from '../org/org.service';
import { Role } from '../common/auth/auth-user';
import { SessionService } from '../auth/session/session.service';
import { User } from '../auth/user.entity';
import { normalizeEmail } from '../common/validation/email';
import { parseUuid } from '../config/uuid';
import { AuditTrail } from '../audit/audit-trail.service';
import { AuditActor, cliActor, NewAuditEvent, userActor } from '../audit/audit-event.types';

export interface NewUser {
  email: string;
  role: Role;
  name?: string;
}

export interface UserChange {
  role?: Role;
  disabled?: boolean;
}

const notFound = () => new UserError(ErrorCode.NotFound, 'No such user in your organization.');

/** Accounts: created by an administrator (or the CLI) before their first sign-in. */
@Injectable()
export class UserService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly dataSource: DataSource,
    private readonly orgs: OrgService,
    private readonly sessions: SessionService,
    private readonly audit: AuditLog,
    private readonly trail: AuditTrail,
  ) {}

  /** `input` passed CreateUserDto (the API's body, the CLI's flags): the one check of its fields. */
  async create(orgId: string, input: NewUser): Promise<User> {
    await this.orgs.get(orgId);
    const email = normalizeEmail(input.email);
    const name = input.name?.trim() || null;
    // An email already taken is the unique index's answer (409 user_exists), even when two race.
    return this.users.save(this.users.create({ orgId, email, role: input.role, name }));
  }

  list(orgId: string): Promise<User[]> {
    return this.users.find({ where: { orgId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Another organization's account answers 404, exactly like a missing one. */
  async update(orgId: string, actorId: string, rawId: string, change: UserChange): Promise<User> {
    // The stored form, so an upper-case spelling of one's own id is still oneself.
    const id = parseUuid(rawId);
    if (!id) throw notFound();
    if (id === actorId && (change.disabled === true || change.role === 'member')) {
      // An administrator locking themselves out could leave an organization with no admin.
      throw new UserError(
        ErrorCode.Conflict,
        'You cannot disable yourself or remove your own admin role.',
      );
    }
    let before: Pick<User, 'role' | 'disabled'> | undefined;
    const user = await this.dataSource.transaction(async (manager) => {
      // Every change that can remove an admin locks the org first, so two admins demoting each
      // other at once are serialised and the second sees the first's write.
      await this.orgs.lockRows(manager, [orgId]);
      const found = await manager.getRepository(User).findOneBy({ id, orgId });
      if (!found) throw notFound();
      before = { role: found.role, disabled: found.disabled };
      const changed = await this.apply(manager, found, change);
      const by = userActor({ id: actorId, orgId });
      for (const e of changeEvents(by, changed, before)) await this.trail.append(e, manager);
      return changed;
    });
    this.auditChange(actorId, user, before);
    // Disabled sessions fail on their next request anyway; revoking keeps them dead if re-enabled.
    if (change.disabled === true) {
      await this.sessions.revokeAllFor(user, actorId, 'account_disabled');
    }
    return user;
  }

  /** Ends every session of an account of the administrator's organization; the count ended. */
  async revokeSessions(orgId: string, actorId: string, rawId: string): Promise<number> {
    const id = parseUuid(rawId);
    if (!id || !(await this.users.existsBy({ id, orgId }))) throw notFound();
    return this.sessions.revokeAllFor({ id, orgId }, actorId, 'admin');
  }

  /** Moves an account to another organization and, optionally, role (CLI `user:move`). */
  async move(email: string, orgId: string, role?: Role): Promise<User> {
    const org = await this.orgs.get(orgId);
    // Only looked up: an address that is not one matches no account (404, as a missing one).
    const normalized = normalizeEmail(email);
    let before: Pick<User, 'role' | 'disabled' | 'orgId'> | undefined;
    const moved = await this.dataSource.transaction(async (manager) => {
      const users = manager.getRepository(User);
      const current = await users.findOneBy({ email: normalized });
      if (!current) {
        throw new UserError(ErrorCode.NotFound, 'No account has this email.');
      }
      await this.orgs.lockRows(manager, [current.orgId, org.id]);
      // Reread under the locks: the account may have moved or changed since.
      const user = await users.findOneByOrFail({ id: current.id });
      before = { role: user.role, disabled: user.disabled, orgId: user.orgId };
      user.orgId = org.id;
      const changed = await this.apply(manager, user, { role }, before.orgId);
      for (const e of changeEvents(cliActor(), changed, before)) {
        await this.trail.append(e, manager);
      }
      return changed;
    });
    if (before && before.orgId !== moved.orgId) {
      const fields = { actor: 'cli', user_id: moved.id, from: before.orgId, to: moved.orgId };
      this.audit.record('account_moved', 'account moved to another organization', fields);
    }
    this.auditChange('cli', moved, before);
    return moved;
  }

  /**
   * Writes a change (checked by UpdateUserDto, in the API and the CLI) under the org lock(s) the
   * caller holds, refusing to leave `from` without an admin.
   */
  private async apply(
    manager: EntityManager,
    user: User,
    change: UserChange,
    from: string = user.orgId,
  ): Promise<User> {
    const wasActiveAdmin = user.role === 'admin' && !user.disabled;
    if (change.role !== undefined) user.role = change.role;
    if (change.disabled !== undefined) user.disabled = change.disabled;
    const stillActiveAdminThere = user.role === 'admin' && !user.disabled && user.orgId === from;
    if (wasActiveAdmin && !stillActiveAdminThere) await assertOtherAdmin(manager, from, user.id);
    return manager.getRepository(User).save(user);
  }

  /** One audit line per real change: a role, or the account disabled or enabled again. */
  private auditChange(actor: string, user: User, before?: Pick<User, 'role' | 'disabled'>): void {
    const target = { actor, user_id: user.id, org_id: user.orgId };
    if (before && before.role !== user.role) {
      this.audit.record('role_changed', `role changed to ${user.role}`, {
        ...target,
        from: before.role,
        to: user.role,
      });
    }
    if (before && before.disabled !== user.disabled) {
      const event = user.disabled ? 'account_disabled' : 'account_enabled';
      this.audit.record(event, user.disabled ? 'account disabled' : 'account enabled', target);
    }
  }
}

/** The audit events of an account's change: moved, role changed, disabled or enabled. */
function changeEvents(
  actor: AuditActor,
  user: User,
  before: Pick<User, 'role' | 'disabled'> & { orgId?: string },
): NewAuditEvent[] {
  const subject = { type: 'user', id: user.id, orgId: user.orgId };
  const events: NewAuditEvent[] = [];
  if (before.orgId !== undefined && before.orgId !== user.orgId) {
    const details = { from_org_id: before.orgId, to_org_id: user.orgId };
    events.push({ action: 'user.moved', actor, subject, details });
  }
  if (before.role !== user.role) {
    const details = { from: before.role, to: user.role };
    events.push({ action: 'user.role_changed', actor, subject, details });
  }
  if (before.disabled !== user.disabled) {
    const action = user.disabled ? 'user.disabled' : 'user.enabled';
    events.push({ action, actor, subject });
  }
  return events;
}

async function assertOtherAdmin(manager: EntityManager, orgId: string, userId: string) {
  const others = await manager
    .getRepository(User)
    .countBy({ orgId, role: 'admin', disabled: false, id: Not(userId) });
  if (others === 0) {
    throw new UserError(
      ErrorCode.Conflict,
      'An organization must keep an active admin: make another account admin first.',
    );
  }
}
