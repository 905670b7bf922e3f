import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { In, IsNull, Repository } from 'typeorm';
import { ErrorCode } from '../../common/errors/error-code.enum';
import { AppConfig } from '../../config/app-config';
import { AuthUser } from '../../common/auth/auth-user';
import { IdTokenVerifier, VerifiedIdentity } from './id-token.verifier';
import { SignInAudit, SignInClient } from './sign-in-audit';
import { RefusalReason, SignInRefused } from './sign-in-refusal';
import type { ActiveSession } from '../../common/auth/session-authenticator';
import { IssuedSession, SessionService, toAuthUser } from '../session/session.service';
import { User } from '../user.entity';
import { normalizeEmail } from '../../common/validation/email';
import { AuditTrail } from '../../audit/audit-trail.service';
import { userActor } from '../../audit/audit-event.types';

export interface SignedIn {
  user: AuthUser;
  session: IssuedSession;
}

/** Where the console's browser signs in (contract section 11); unset parts are not configured. */
export interface ConsoleSignIn {
  issuer?: string;
  clientId?: string;
}

const refused = (reason: RefusalReason, code: ErrorCode, detail: string) =>
  new SignInRefused(reason, code, detail);

/** Sign-in: an ID token in, the account behind it and a new session out. */
@Injectable()
export class AuthService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly verifier: IdTokenVerifier,
    private readonly sessions: SessionService,
    private readonly config: AppConfig,
    private readonly audit: SignInAudit,
    private readonly trail: AuditTrail,
  ) {}

  /**
   * The issuer a browser can be sent to (Google's bare spelling cannot be) and the console's client
   * id: both public facts of the provider's sign-in page, and nothing else of the configuration.
   */
  consoleSignIn(): ConsoleSignIn {
    const { consoleIssuer, consoleClientId } = this.config.oidc;
    return { issuer: consoleIssuer, clientId: consoleClientId };
  }

  /** Every refusal leaves exactly one audit line, here, with its reason. */
  async login(idToken: string, client: SignInClient = {}): Promise<SignedIn> {
    try {
      const identity = await this.verifier.verify(idToken);
      const user = await this.accountFor(identity);
      if (user.disabled) {
        throw refused(
          'disabled',
          ErrorCode.AccountDisabled,
          'This account is disabled; ask an administrator of your organization.',
        );
      }
      const signedIn = toAuthUser(user);
      this.audit.signedIn(signedIn, identity.issuer, identity.subject, client);
      const session = await this.sessions.create(user.id, client);
      await this.trail.append({
        action: 'user.signed_in',
        actor: userActor(signedIn),
        subject: { type: 'user', id: user.id, orgId: user.orgId },
        details: { role: user.role },
      });
      return { user: signedIn, session };
    } catch (err) {
      if (err instanceof SignInRefused) this.audit.refused(err, idToken, client);
      throw err;
    }
  }

  /** Rereads the account (it may have moved org or role) and rotates the token. */
  async refresh(current: ActiveSession, client: SignInClient = {}): Promise<SignedIn> {
    return { user: current.user, session: await this.sessions.rotate(current, client) };
  }

  /**
   * After the first login an account is found by issuer + subject only, under any spelling of the
   * issuer. The first login links it by email, and only when the provider verified that email.
   */
  private async accountFor(identity: VerifiedIdentity): Promise<User> {
    const linked = await this.linkedAccount(identity);
    if (linked) return linked;
    if (!identity.email) {
      throw refused(
        'no_account',
        ErrorCode.AccountNotFound,
        'The ID token has no email to find the account by; ask an administrator to add you.',
      );
    }
    if (!identity.emailVerified) {
      throw refused(
        'email_not_verified',
        ErrorCode.EmailNotVerified,
        'Your identity provider has not verified this email address; verify it there and sign in again.',
      );
    }
    const email = normalizeEmail(identity.email);
    const byEmail = await this.users.findOneBy({ email, idpSubject: IsNull() });
    if (!byEmail) {
      throw refused(
        'no_account',
        ErrorCode.AccountNotFound,
        'No account for this identity; ask an administrator of your organization to add you.',
      );
    }
    // Conditional, so two first logins at once cannot link one account to two identities.
    const linking = await this.users.update(
      { id: byEmail.id, idpSubject: IsNull() },
      {
        idpIssuer: identity.issuer,
        idpSubject: identity.subject,
        name: byEmail.name ?? identity.name?.slice(0, 200) ?? null,
      },
    );
    const user = await this.users.findOneBy({ id: byEmail.id });
    if (!linking.affected || user?.idpSubject !== identity.subject) {
      throw refused(
        'linked_to_other_identity',
        ErrorCode.AccountNotFound,
        'This account is already linked to another identity.',
      );
    }
    return user;
  }

  /**
   * The account linked to this subject under any accepted spelling; one linked under another
   * spelling (before the canonical form was stored) is moved to the canonical one on the way.
   */
  private async linkedAccount(identity: VerifiedIdentity): Promise<User | null> {
    const found = await this.users.findBy({
      idpIssuer: In(this.config.oidc.issuers),
      idpSubject: identity.subject,
    });
    const canonical = found.find((u) => u.idpIssuer === identity.issuer);
    if (canonical || found.length === 0) return canonical ?? null;
    const user = found[0];
    // Conditional on the old spelling: a concurrent sign-in may have moved it already.
    await this.users.update(
      { id: user.id, idpIssuer: user.idpIssuer! },
      { idpIssuer: identity.issuer },
    );
    return { ...user, idpIssuer: identity.issuer };
  }
}
