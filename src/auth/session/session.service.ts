import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, IsNull, Not, Repository } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { AuditLog } from '../../common/logging/audit-log';
import { AuditTrail } from '../../audit/audit-trail.service';
import { AuditActor, AuditDetails, AuditSubject, userActor } from '../../audit/audit-event.types';
import { statementRows } from '../../database/statement-rows';
import { changedRows } from '../../database/changed-rows';
import { AuthError } from '../../common/auth/auth.error';
import { ErrorCode } from '../../common/errors/error-code.enum';
import { AppConfig } from '../../config/app-config';
import { AuthUser, Role } from '../../common/auth/auth-user';
import type { ActiveSession } from '../../common/auth/session-authenticator';
import { Session } from './session.entity';
import type { SignInClient } from '../sign-in/sign-in-audit';
import { User } from '../user.entity';

/** 32 random bytes, base64url: 43 characters. Anything else cannot be one of ours. */
const TOKEN_FORMAT = /^[A-Za-z0-9_-]{43}$/;

export interface IssuedSession {
  /** The cookie value. Returned once, to be set as the cookie; never stored or logged. */
  token: string;
  issuedAt: Date;
  expiresAt: Date;
}

const SESSION_SQL = `SELECT s.id, s.last_used_at AS "lastUsedAt", s.expires_at AS "expiresAt",
  s.idle_expires_at AS "idleExpiresAt", s.revoked_at AS "revokedAt", u.id AS "userId", u.email,
  u.name, u.org_id AS "orgId", u.role, u.disabled
  FROM sessions s INNER JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1`;

interface SessionRow {
  id: string;
  lastUsedAt: Date;
  expiresAt: Date;
  idleExpiresAt: Date;
  revokedAt: Date | null;
  userId: string;
  email: string;
  name: string | null;
  orgId: string;
  role: Role;
  disabled: boolean;
}

export const hashToken = (token: string): string =>
  createHash('sha256').update(token).digest('hex');

export function toAuthUser(user: User): AuthUser {
  return { id: user.id, email: user.email, name: user.name, orgId: user.orgId, role: user.role };
}

function unauthenticated(): AuthError {
  return new AuthError(
    ErrorCode.Unauthenticated,
    'Sign in first: the session is missing, invalid or expired.',
  );
}

/** Server-side sessions behind an opaque cookie token, with idle and absolute expiry. */
@Injectable()
export class SessionService {
  constructor(
    @InjectRepository(Session) private readonly sessions: Repository<Session>,
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
    private readonly trail: AuditTrail,
  ) {}

  async create(userId: string, client: SignInClient = {}): Promise<IssuedSession> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + this.config.session.absoluteTtlSeconds * 1000);
    return this.insert(this.sessions, userId, now, expiresAt, client);
  }

  /** The session behind a cookie token, with the account as it is now; 401 otherwise. */
  async authenticate(token: string | undefined): Promise<ActiveSession> {
    if (!token || !TOKEN_FORMAT.test(token)) throw unauthenticated();
    // Every authenticated request runs this: one constant statement, no query building, entity
    // hydration or query runner (findOne with a relation ran a DISTINCT id query first).
    const rows = await statementRows<SessionRow>(this.sessions.manager, SESSION_SQL, [
      hashToken(token),
    ]);
    const session = rows[0];
    const now = this.clock.now();
    if (
      !session ||
      session.revokedAt ||
      session.disabled ||
      session.expiresAt <= now ||
      session.idleExpiresAt <= now
    ) {
      throw unauthenticated();
    }
    if (now.getTime() - session.lastUsedAt.getTime() >= this.touchIntervalMs()) {
      await this.sessions.update(
        { id: session.id },
        { lastUsedAt: now, idleExpiresAt: this.idleEnd(now) },
      );
    }
    const { userId: id, email, name, orgId, role } = session;
    return { id: session.id, user: { id, email, name, orgId, role }, expiresAt: session.expiresAt };
  }

  /**
   * Replaces a session with a new token. The absolute end stays the one set at login, so
   * refreshing never extends a sign-in beyond SESSION_ABSOLUTE_TTL_SECONDS.
   */
  async rotate(current: ActiveSession, client: SignInClient = {}): Promise<IssuedSession> {
    const now = this.clock.now();
    return this.dataSource.transaction(async (manager) => {
      const repo = manager.getRepository(Session);
      const revoked = await repo.update(
        { id: current.id, revokedAt: IsNull() },
        { revokedAt: now },
      );
      if (!revoked.affected) throw unauthenticated(); // a concurrent refresh or logout won
      return this.insert(repo, current.user.id, now, current.expiresAt, client);
    });
  }

  /** Revokes the session behind a token, if there is one; silent otherwise. */
  async revoke(token: string | undefined): Promise<void> {
    if (!token || !TOKEN_FORMAT.test(token)) return;
    const { rows } = await changedRows<{ id: string; user_id: string; org_id: string }>(
      this.sessions.manager,
      `UPDATE sessions s SET revoked_at = $1 FROM users u
       WHERE s.token_hash = $2 AND s.revoked_at IS NULL AND u.id = s.user_id
       RETURNING s.id, s.user_id, u.org_id`,
      [this.clock.now(), hashToken(token)],
    );
    for (const row of rows) {
      this.audit.record('session_revoked', 'session revoked: signed out', {
        actor: row.user_id,
        user_id: row.user_id,
        session_id: row.id,
        reason: 'logout',
      });
      const user = { id: row.user_id, orgId: row.org_id };
      await this.revokedEvent(
        userActor(user),
        { type: 'session', id: row.id, orgId: user.orgId },
        {
          reason: 'logout',
        },
      );
    }
  }

  /**
   * Ends every session of an account; the count ended. `by`: the administrator (or the account
   * itself) for the audit line; `except`: the caller's own session, kept ("sign out the others").
   */
  async revokeAllFor(
    user: { id: string; orgId: string },
    by: string,
    reason: 'account_disabled' | 'admin' | 'others',
    except?: string,
  ): Promise<number> {
    const userId = user.id;
    const result = await this.sessions.update(
      { userId, revokedAt: IsNull(), ...(except ? { id: Not(except) } : {}) },
      { revokedAt: this.clock.now() },
    );
    const revoked = result.affected ?? 0;
    this.audit.record('session_revoked', `sessions revoked: ${reason.replace('_', ' ')}`, {
      actor: by,
      user_id: userId,
      sessions: revoked,
      reason,
    });
    if (revoked > 0) {
      // `by` is an account of the same organization (an admin, or the account itself).
      const actor = userActor({ id: by, orgId: user.orgId });
      const subject = { type: 'user', id: userId, orgId: user.orgId };
      await this.revokedEvent(actor, subject, { sessions: revoked, reason });
    }
    return revoked;
  }

  /** The `session.revoked` audit event (docs/audit.md). */
  revokedEvent(actor: AuditActor, subject: AuditSubject, details: AuditDetails): Promise<void> {
    return this.trail.append({ action: 'session.revoked', actor, subject, details });
  }

  private async insert(
    repo: Repository<Session>,
    userId: string,
    now: Date,
    expiresAt: Date,
    { userAgent, ip }: SignInClient,
  ): Promise<IssuedSession> {
    const token = randomBytes(32).toString('base64url');
    await repo.insert({
      tokenHash: hashToken(token),
      userId,
      createdAt: now,
      lastUsedAt: now,
      expiresAt,
      idleExpiresAt: this.idleEnd(now),
      revokedAt: null,
      userAgent: userAgent ? userAgent.slice(0, 512) : null,
      ip: ip ? ip.slice(0, 64) : null,
    });
    return { token, issuedAt: now, expiresAt };
  }

  /**
   * Use is recorded at most this often (a tenth of the idle lifetime, at most a minute), not on
   * every request: a row write per request would cost more than the request. The idle end may
   * therefore come up to this much earlier than a strict rule would put it, never later.
   */
  private touchIntervalMs(): number {
    return Math.min(60_000, (this.config.session.idleTtlSeconds * 1000) / 10);
  }

  private idleEnd(now: Date): Date {
    return new Date(now.getTime() + this.config.session.idleTtlSeconds * 1000);
  }
}
