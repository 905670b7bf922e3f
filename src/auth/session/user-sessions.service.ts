import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, Repository } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { ErrorCode } from '../../common/errors/error-code.enum';
import { AuditLog } from '../../common/logging/audit-log';
import { userActor } from '../../audit/audit-event.types';
import { parseUuid } from '../../config/uuid';
import { AuthError } from '../../common/auth/auth.error';
import { Session } from './session.entity';
import type { ActiveSession } from '../../common/auth/session-authenticator';
import { SessionService } from './session.service';

/** More than anyone signs in from within one absolute session lifetime; bounds the answer. */
const MAX_LISTED = 200;

const notFound = () => new AuthError(ErrorCode.NotFound, 'No such session of yours.');

/** The sessions people can see and end themselves (a lost laptop, a shared computer). */
@Injectable()
export class UserSessionsService {
  constructor(
    @InjectRepository(Session) private readonly sessions: Repository<Session>,
    private readonly session: SessionService,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {}

  /** The caller's live sessions, the most recently used first. */
  list(current: ActiveSession): Promise<Session[]> {
    return this.sessions.find({
      where: this.liveOf(current.user.id),
      order: { lastUsedAt: 'DESC', id: 'ASC' },
      take: MAX_LISTED,
    });
  }

  /** Ends one of the caller's own live sessions; anyone else's (or none) is 404, alike. */
  async revoke(current: ActiveSession, rawId: string): Promise<void> {
    const id = parseUuid(rawId);
    if (!id) throw notFound();
    const userId = current.user.id;
    // Only a live one: an ended session is not listed, so ending it again is 404 like a stranger's.
    const result = await this.sessions.update(
      { id, ...this.liveOf(userId) },
      { revokedAt: this.clock.now() },
    );
    if (!result.affected) throw notFound();
    this.audit.record('session_revoked', 'session revoked by its owner', {
      actor: userId,
      user_id: userId,
      session_id: id,
      reason: id === current.id ? 'own_current' : 'own',
    });
    const subject = { type: 'session', id, orgId: current.user.orgId };
    await this.session.revokedEvent(userActor(current.user), subject, {
      reason: id === current.id ? 'own_current' : 'own',
    });
  }

  /** Ends every session of the caller but the one this request came with. */
  revokeOthers(current: ActiveSession): Promise<number> {
    const userId = current.user.id;
    return this.session.revokeAllFor(current.user, userId, 'others', current.id);
  }

  /** Not revoked, and both its absolute and its idle end still ahead. */
  private liveOf(userId: string) {
    const now = this.clock.now();
    return { userId, revokedAt: IsNull(), expiresAt: MoreThan(now), idleExpiresAt: MoreThan(now) };
  }
}
