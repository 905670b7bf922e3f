import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { Repository } from 'typeorm';
import { AppException } from '../common/errors/app.exception';
import { ErrorCode } from '../common/errors/error-code.enum';
import { OrgService } from '../org/org.service';
import { Role, ROLES } from './auth-user';
import { SessionService } from './session.service';
import { User } from './user.entity';

export interface NewUser {
  email: string;
  role: Role;
  name?: string;
}

export interface UserChange {
  role?: Role;
  disabled?: boolean;
}

function invalid(field: string, message: string): AppException {
  return new AppException(ErrorCode.ValidationFailed, HttpStatus.BAD_REQUEST, message, [
    { field, message },
  ]);
}

const notFound = () =>
  new AppException(ErrorCode.NotFound, HttpStatus.NOT_FOUND, 'No such user in your organization.');

/** Accounts: created by an administrator (or the CLI) before their first sign-in. */
@Injectable()
export class UserService {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly orgs: OrgService,
    private readonly sessions: SessionService,
  ) {}

  async create(orgId: string, input: NewUser): Promise<User> {
    await this.orgs.get(orgId);
    const email = this.normalizeEmail(input.email);
    if (!ROLES.includes(input.role)) throw invalid('role', 'role must be admin or member');
    if (await this.users.existsBy({ email })) {
      throw new AppException(
        ErrorCode.UserExists,
        HttpStatus.CONFLICT,
        'An account with this email already exists.',
      );
    }
    const name = input.name?.trim() || null;
    return this.users.save(this.users.create({ orgId, email, role: input.role, name }));
  }

  list(orgId: string): Promise<User[]> {
    return this.users.find({ where: { orgId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Another organization's account answers 404, exactly like a missing one. */
  async update(orgId: string, actorId: string, id: string, change: UserChange): Promise<User> {
    const user = isUUID(id) ? await this.users.findOneBy({ id, orgId }) : null;
    if (!user) throw notFound();
    if (id === actorId && (change.disabled === true || change.role === 'member')) {
      // An administrator locking themselves out could leave an organization with no admin.
      throw new AppException(
        ErrorCode.Conflict,
        HttpStatus.CONFLICT,
        'You cannot disable yourself or remove your own admin role.',
      );
    }
    return this.apply(user, change);
  }

  /** Moves an account to another organization and, optionally, role (CLI `user:move`). */
  async move(email: string, orgId: string, role?: Role): Promise<User> {
    const org = await this.orgs.get(orgId);
    const user = await this.users.findOneBy({ email: this.normalizeEmail(email) });
    if (!user) {
      throw new AppException(
        ErrorCode.NotFound,
        HttpStatus.NOT_FOUND,
        'No account has this email.',
      );
    }
    user.orgId = org.id;
    return this.apply(user, { role });
  }

  count(): Promise<number> {
    return this.users.count();
  }

  private async apply(user: User, change: UserChange): Promise<User> {
    if (change.role !== undefined) {
      if (!ROLES.includes(change.role)) throw invalid('role', 'role must be admin or member');
      user.role = change.role;
    }
    if (change.disabled !== undefined) user.disabled = change.disabled;
    const saved = await this.users.save(user);
    // Disabled sessions fail on their next request anyway; revoking keeps them dead if re-enabled.
    if (change.disabled === true) await this.sessions.revokeAllFor(user.id);
    return saved;
  }

  private normalizeEmail(raw: string): string {
    const email = raw.trim().toLowerCase();
    if (!/^[^\s@]+@[^\s@]+$/.test(email) || email.length > 320) {
      throw invalid('email', 'email must be an email address');
    }
    return email;
  }
}
