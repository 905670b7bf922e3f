import { ApiProperty } from '@nestjs/swagger';
import { UserView } from '../auth/auth-user';
import { User } from '../auth/user.entity';

/** What administrators see of the accounts in their organization. */
export class AdminUserView extends UserView {
  @ApiProperty({ example: false }) disabled!: boolean;
  @ApiProperty({ description: 'false until the first sign-in links the account', example: true })
  linked!: boolean;
  @ApiProperty({ format: 'date-time', example: '2026-01-15T09:30:00.000Z' }) created_at!: string;

  static override from(user: User): AdminUserView {
    return {
      ...UserView.from(user),
      disabled: user.disabled,
      linked: user.idpSubject !== null,
      created_at: user.createdAt.toISOString(),
    };
  }
}

export class UserListResponse {
  @ApiProperty({ type: [AdminUserView] }) items!: AdminUserView[];

  static from(users: User[]): UserListResponse {
    return { items: users.map((u) => AdminUserView.from(u)) };
  }
}

/** `POST /api/v1/users/{id}/revoke-sessions`: how many of the account's sessions were ended. */
export class RevokedSessionsResponse {
  @ApiProperty({ description: 'how many sessions were ended', example: 2 }) revoked!: number;
}
