import { ApiProperty } from '@nestjs/swagger';
import { UserView } from '../../common/auth/auth-user';
import type { AuthUser } from '../../common/auth/auth-user';
import type { IssuedSession } from '../session/session.service';
import type { ConsoleSignIn } from './auth.service';

export class SessionView {
  @ApiProperty({
    format: 'date-time',
    description: 'the absolute end of the session',
    example: '2026-01-15T21:30:00.000Z',
  })
  expires_at!: string;
}

export class MeResponse {
  @ApiProperty({ type: UserView }) user!: UserView;

  static from(user: AuthUser): MeResponse {
    return { user: UserView.from(user) };
  }
}

export class SignedInResponse extends MeResponse {
  @ApiProperty({ type: SessionView }) session!: SessionView;

  static signedIn(user: AuthUser, session: IssuedSession): SignedInResponse {
    return { user: UserView.from(user), session: { expires_at: session.expiresAt.toISOString() } };
  }
}

/** What a browser needs to start the sign-in at the identity provider (GET /api/auth/config). */
export class AuthConfigResponse {
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Where the browser signs in: the first OIDC_ISSUER spelling that is a URL; null: sign-in ' +
      'is not configured',
    example: 'https://accounts.google.com',
  })
  issuer!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The console's client id there (CONSOLE_OIDC_CLIENT_ID); null: not configured",
    example: 'device-care-console',
  })
  client_id!: string | null;

  static from(sign: ConsoleSignIn): AuthConfigResponse {
    return { issuer: sign.issuer ?? null, client_id: sign.clientId ?? null };
  }
}
