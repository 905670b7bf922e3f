import { ApiProperty } from '@nestjs/swagger';
import { ROLES } from './auth-user';
import type { AuthUser, Role } from './auth-user';
import { User } from './user.entity';

/** `user` in every response: docs/sign-in.md. */
export class UserView {
  @ApiProperty({ format: 'uuid', example: '0b6f2c1e-8d4a-4f7b-9c3e-2a5d7e9f1b30' }) id!: string;
  @ApiProperty({ example: 'pat@example.com' }) email!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Pat Doe' }) name!: string | null;
  @ApiProperty({ format: 'uuid', example: '3f1c2a9e-5b7d-4c1e-9a2f-6d8e0b4c7a15' }) org_id!: string;
  @ApiProperty({ enum: ROLES, example: 'admin' }) role!: Role;
}

/** What administrators see of the accounts in their organization. */
export class AdminUserView extends UserView {
  @ApiProperty({ example: false }) disabled!: boolean;
  @ApiProperty({ description: 'false until the first sign-in links the account', example: true })
  linked!: boolean;
  @ApiProperty({ format: 'date-time', example: '2026-01-15T09:30:00.000Z' }) created_at!: string;
}

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
}

export class SignedInResponse extends MeResponse {
  @ApiProperty({ type: SessionView }) session!: SessionView;
}

export class UserListResponse {
  @ApiProperty({ type: [AdminUserView] }) items!: AdminUserView[];
}

export function userView(user: AuthUser): UserView {
  return { id: user.id, email: user.email, name: user.name, org_id: user.orgId, role: user.role };
}

export function adminUserView(user: User): AdminUserView {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    org_id: user.orgId,
    role: user.role,
    disabled: user.disabled,
    linked: user.idpSubject !== null,
    created_at: user.createdAt.toISOString(),
  };
}
