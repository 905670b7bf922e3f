import { Injectable } from '@nestjs/common';
import { Clock } from '../../common/clock/clock';
import { statusOf } from '../../common/errors/error-code.enum';
import { AuditLog } from '../../common/logging/audit-log';
import { cleanAllText } from '../../common/validation/storable-text';
import type { AuthUser } from '../../common/auth/auth-user';
import type { SignInRefused } from './sign-in-refusal';

/** Who asked: the client address as Express resolves it under TRUST_PROXY (kept on the session). */
export interface SignInClient {
  ip?: string;
  userAgent?: string;
}

/** Claims read from a token without trusting it, so a line says whose token it claimed to be. */
interface ReadableClaims {
  iss?: string;
  sub?: string;
}

const CLAIM_MAX_CHARS = 200;
/** Refusal lines per reason and minute: anyone can send bad tokens, so a flood must not flood the log. */
const REFUSAL_LINES_PER_MINUTE = 5;
const MINUTE_MS = 60_000;

/** A reason's current minute: when it began, lines written, lines left out. */
interface ReasonWindow {
  startedAt: number;
  written: number;
  suppressed: number;
}

/**
 * Audit lines for sign-in (docs/operations.md): one per attempt, through AuditLog (which adds the
 * address). The token itself is a credential and never reaches a line; only its `iss` and `sub`.
 */
@Injectable()
export class SignInAudit {
  private readonly windows = new Map<string, ReasonWindow>();

  constructor(
    private readonly audit: AuditLog,
    private readonly clock: Clock,
  ) {}

  /**
   * At most REFUSAL_LINES_PER_MINUTE lines per reason; the first line of the next minute says how
   * many were left out (`suppressed`), so the count is never lost.
   */
  refused(refusal: SignInRefused, idToken: string, client: SignInClient): void {
    const suppressed = this.admit(refusal.reason);
    if (suppressed === undefined) return;
    // The status the client was answered with, for the operator reading the line.
    const status = statusOf(refusal.code);
    const fields = {
      reason: refusal.reason,
      status,
      code: refusal.code,
      ...readableClaims(idToken),
      user_agent: client.userAgent,
      ...(refusal.note !== undefined && { note: refusal.note }),
      ...(suppressed > 0 && { suppressed }),
    };
    // 503s mean the provider or its keys could not be read: an operator's matter (warn).
    const level = status >= 500 ? 'warn' : 'log';
    this.audit.record('sign_in_refused', `sign-in refused: ${refusal.reason}`, fields, level);
  }

  /** Lines left out before this one, or undefined when this one is to be left out too. */
  private admit(reason: string): number | undefined {
    const now = this.clock.now().getTime();
    let window = this.windows.get(reason);
    let carried = 0;
    if (!window || now - window.startedAt >= MINUTE_MS) {
      carried = window?.suppressed ?? 0;
      window = { startedAt: now, written: 0, suppressed: 0 };
      this.windows.set(reason, window);
    }
    if (window.written >= REFUSAL_LINES_PER_MINUTE) {
      window.suppressed++;
      return undefined;
    }
    window.written++;
    return carried;
  }

  signedIn(user: AuthUser, issuer: string, subject: string, client: SignInClient): void {
    this.audit.record('sign_in', 'signed in', {
      user_id: user.id,
      org_id: user.orgId,
      role: user.role,
      iss: issuer,
      sub: subject,
      user_agent: client.userAgent,
    });
  }
}

/** `iss` and `sub` of a compact JWT's payload, when it can be read at all; nothing else. */
function readableClaims(idToken: string): ReadableClaims {
  const parts = idToken.split('.');
  if (parts.length !== 3) return {};
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
  } catch {
    return {};
  }
  if (typeof payload !== 'object' || payload === null) return {};
  const { iss, sub } = payload as Record<string, unknown>;
  const short = (v: unknown) =>
    typeof v === 'string' ? cleanAllText(v.slice(0, CLAIM_MAX_CHARS)) : undefined;
  return { iss: short(iss), sub: short(sub) };
}
