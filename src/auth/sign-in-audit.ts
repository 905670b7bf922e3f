import { Injectable } from '@nestjs/common';
import { statusOf } from '../common/errors/error-code.enum';
import { AuditLog } from '../common/logging/audit-log';
import { cleanAllText } from '../common/validation/storable-text';
import type { AuthUser } from './auth-user';
import type { SignInRefused } from './sign-in-refusal';

/** Claims read from a token without trusting it, so a line says whose token it claimed to be. */
interface ReadableClaims {
  iss?: string;
  sub?: string;
}

const CLAIM_MAX_CHARS = 200;

/**
 * Audit lines for sign-in (docs/operations.md): one per attempt, through AuditLog (which adds the
 * address). The token itself is a credential and never reaches a line; only its `iss` and `sub`.
 */
@Injectable()
export class SignInAudit {
  constructor(private readonly audit: AuditLog) {}

  refused(refusal: SignInRefused, idToken: string, userAgent?: string): void {
    // The status the client was answered with, for the operator reading the line.
    const status = statusOf(refusal.code);
    const fields = {
      reason: refusal.reason,
      status,
      code: refusal.code,
      ...readableClaims(idToken),
      user_agent: userAgent,
      ...(refusal.note !== undefined && { note: refusal.note }),
    };
    // 503s mean the provider or its keys could not be read: an operator's matter (warn).
    const level = status >= 500 ? 'warn' : 'log';
    this.audit.record('sign_in_refused', `sign-in refused: ${refusal.reason}`, fields, level);
  }

  signedIn(user: AuthUser, issuer: string, subject: string, userAgent?: string): void {
    this.audit.record('sign_in', 'signed in', {
      user_id: user.id,
      org_id: user.orgId,
      role: user.role,
      iss: issuer,
      sub: subject,
      user_agent: userAgent,
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
