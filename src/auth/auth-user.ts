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
