import { Injectable, Logger } from '@nestjs/common';
import { ERROR_STATUS } from '../common/errors/error-code.enum';
import { cleanAllText } from '../common/validation/storable-text';
import type { AuthUser } from './auth-user';
import type { SignInRefused } from './sign-in-refusal';

/** Who asked: the client address as Express resolves it under TRUST_PROXY. */
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

/**
 * Audit lines for sign-in (docs/operations.md): one per attempt, with who, what and from which
 * address. The token itself is a credential and never reaches a line; only its `iss` and `sub`.
 */
@Injectable()
export class SignInAudit {
  private readonly logger = new Logger('Audit');

  refused(refusal: SignInRefused, idToken: string, client: SignInClient): void {
    // The status the client was answered with, for the operator reading the line.
    const status = ERROR_STATUS[refusal.code];
    const line = {
      audit: 'sign_in_refused',
      reason: refusal.reason,
      status,
      code: refusal.code,
      ...readableClaims(idToken),
      ip: client.ip,
      user_agent: client.userAgent,
      ...(refusal.note !== undefined && { note: refusal.note }),
      msg: `sign-in refused: ${refusal.reason}`,
    };
    // 503s mean the provider or its keys could not be read: an operator's matter (warn).
    if (status >= 500) this.logger.warn(line);
    else this.logger.log(line);
  }

  signedIn(user: AuthUser, issuer: string, subject: string, client: SignInClient): void {
    this.logger.log({
      audit: 'sign_in',
      user_id: user.id,
      org_id: user.orgId,
      role: user.role,
      iss: issuer,
      sub: subject,
      ip: client.ip,
      user_agent: client.userAgent,
      msg: 'signed in',
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
