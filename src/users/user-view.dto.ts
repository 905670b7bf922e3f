import { ApiProperty } from '@nestjs/swagger';
import { UserView } from '../common/auth/auth-user';
import { User } from '../auth/user.entity';

/**
 * What the CLI prints of an account (`user:add`, `user:move`, `user:list`): the contract's `user`
 * and, for the operator, whether it is disabled and linked yet. The API answers UserView only.
 */
export class AccountRecord extends UserView {
  disabled!: boolean;
  /** false until the first sign-in links the account */
  linked!: boolean;
  created_at!: string;

  static override from(user: User): AccountRecord {
    return {
      ...UserView.from(user),
      disabled: user.disabled,
      linked: user.idpSubject !== null,
      created_at: user.createdAt.toISOString(),
    };
  }
}

/** An account of `GET /api/v1/users`: the contract's `user`, and whether it is disabled. */
export class UserListItem extends UserView {
  @ApiProperty({ description: 'true: signing in is refused and no session is left' })
  disabled!: boolean;
}

/** `GET /api/v1/users`: the organization's accounts (the console's People page). */
export class UserListResponse {
  @ApiProperty({ type: [UserListItem] }) items!: UserListItem[];

  static from(users: User[]): UserListResponse {
    return { items: users.map((u) => ({ ...UserView.from(u), disabled: u.disabled })) };
  }
}

/** `POST /api/v1/users/{id}/revoke-sessions`: how many of the account's sessions were ended. */
export class RevokedSessionsResponse {
  @ApiProperty({ description: 'how many sessions were ended', example: 2 }) revoked!: number;
}
