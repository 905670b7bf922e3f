import { ApiProperty } from '@nestjs/swagger';
import { UserView } from '../../common/auth/auth-user';
import type { AuthUser } from '../../common/auth/auth-user';
import type { IssuedSession } from '../session/session.service';

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
