import { ApiProperty } from '@nestjs/swagger';
import { ROLES } from './auth-user';
import type { AuthUser, Role } from './auth-user';
import { User } from './user.entity';

/** `user` in every response: CONTRACT.md section 4. */
export class UserView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() email!: string;
  @ApiProperty({ type: String, nullable: true }) name!: string | null;
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiProperty({ enum: ROLES }) role!: Role;
}

/** What administrators see of the accounts in their organization. */
export class AdminUserView extends UserView {
  @ApiProperty() disabled!: boolean;
  @ApiProperty({ description: 'false until the first sign-in links the account' })
  linked!: boolean;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
}

export class SessionView {
  @ApiProperty({ format: 'date-time', description: 'the absolute end of the session' })
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
