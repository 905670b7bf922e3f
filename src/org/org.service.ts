import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { Repository } from 'typeorm';
import { OrgError } from './org.error';
import { ErrorCode } from '../common/errors/error-code.enum';
import { Organization } from './organization.entity';

export interface OrgView {
  id: string;
  name: string;
  created_at: string;
}

@Injectable()
export class OrgService {
  constructor(@InjectRepository(Organization) private readonly orgs: Repository<Organization>) {}

  async create(name: string): Promise<Organization> {
    const trimmed = name.trim();
    if (trimmed.length === 0 || trimmed.length > 200) {
      throw new OrgError(
        ErrorCode.ValidationFailed,
        'An organization name has 1 to 200 characters.',
        [{ field: 'name', message: 'name must have 1 to 200 characters' }],
      );
    }
    return this.orgs.save(this.orgs.create({ name: trimmed }));
  }

  async get(id: string): Promise<Organization> {
    const org = isUUID(id) ? await this.orgs.findOneBy({ id }) : null;
    if (!org) throw new OrgError(ErrorCode.NotFound, 'No such organization.');
    return org;
  }

  static view(org: Organization): OrgView {
    return { id: org.id, name: org.name, created_at: org.createdAt.toISOString() };
  }
}
