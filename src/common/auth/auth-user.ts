import { ApiProperty } from '@nestjs/swagger';

export type Role = 'admin' | 'member';
export const ROLES: readonly Role[] = ['admin', 'member'];

/** The signed-in person, as read from the account on this request. */
export interface AuthUser {
  id: string;
  email: string;
  name: string | null;
  orgId: string;
  role: Role;
}

/** `user` in every response that names the signed-in person (sign-in, `me`, accounts). */
export class UserView {
  @ApiProperty({ format: 'uuid', example: '0b6f2c1e-8d4a-4f7b-9c3e-2a5d7e9f1b30' }) id!: string;
  @ApiProperty({ example: 'pat@example.com' }) email!: string;
  @ApiProperty({ type: String, nullable: true, example: 'Pat Doe' }) name!: string | null;
  @ApiProperty({ format: 'uuid', example: '3f1c2a9e-5b7d-4c1e-9a2f-6d8e0b4c7a15' }) org_id!: string;
  @ApiProperty({ enum: ROLES, example: 'admin' }) role!: Role;

  static from(user: AuthUser): UserView {
    return { id: user.id, email: user.email, name: user.name, org_id: user.orgId, role: user.role };
  }
}
