import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, Repository } from 'typeorm';
import { AppException } from '../common/errors/app.exception';
import { ErrorCode } from '../common/errors/error-code.enum';
import { AuthUser } from './auth-user';
import { IdTokenVerifier, VerifiedIdentity } from './id-token.verifier';
import { ActiveSession, IssuedSession, SessionService, toAuthUser } from './session.service';
import { User } from './user.entity';

export interface SignedIn {
  user: AuthUser;
  session: IssuedSession;
}

/** Sign-in: an ID token in, the account behind it and a new session out. */
@Injectable()
export class AuthService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly verifier: IdTokenVerifier,
    private readonly sessions: SessionService,
  ) {}

  async login(idToken: string, userAgent?: string): Promise<SignedIn> {
    const identity = await this.verifier.verify(idToken);
    const user = await this.accountFor(identity);
    if (user.disabled) {
      throw new AppException(
        ErrorCode.AccountDisabled,
        HttpStatus.FORBIDDEN,
        'This account is disabled; ask an administrator of your organization.',
      );
    }
    return { user: toAuthUser(user), session: await this.sessions.create(user.id, userAgent) };
  }

  /** Rereads the account (it may have moved org or role) and rotates the token. */
  async refresh(current: ActiveSession, userAgent?: string): Promise<SignedIn> {
    return { user: current.user, session: await this.sessions.rotate(current, userAgent) };
  }

  /**
   * After the first login an account is found by issuer + subject only. The first login links
   * it by email, and only when the provider says it verified that email.
   */
  private async accountFor(identity: VerifiedIdentity): Promise<User> {
    const linked = await this.users.findOneBy({
      idpIssuer: identity.issuer,
      idpSubject: identity.subject,
    });
    if (linked) return linked;
    if (!identity.email || !identity.emailVerified) {
      throw new AppException(
        ErrorCode.InvalidIdToken,
        HttpStatus.UNAUTHORIZED,
        'The ID token has no verified email to find the account by.',
      );
    }
    const email = identity.email.trim().toLowerCase();
    const byEmail = await this.users.findOneBy({ email, idpSubject: IsNull() });
    if (!byEmail) {
      throw new AppException(
        ErrorCode.AccountNotFound,
        HttpStatus.FORBIDDEN,
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
      throw new AppException(
        ErrorCode.AccountNotFound,
        HttpStatus.FORBIDDEN,
        'This account is already linked to another identity.',
      );
    }
    return user;
  }
}
